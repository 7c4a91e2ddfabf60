import { toPaise } from '@/common/money/paise';
import { Ledger } from '@/ledger/booking-ledger';
import { statementSheet } from './statement-sheet';

const ledger: Ledger = {
  from: '2026-04-01',
  to: '2026-05-31',
  asOf: '2026-06-30',
  openingBalance: 6_000_025n,
  entries: [
    {
      date: '2026-05-01',
      kind: 'DEMAND',
      documentNumber: 'DMD/1',
      particulars: '=Slab',
      dueDate: '2026-05-15',
      debit: 25_000_000n,
      credit: null,
      balance: 31_000_025n,
      ref: { type: 'demand', id: 'd' },
    },
    {
      date: '2026-05-20',
      kind: 'RECEIPT',
      documentNumber: 'RCT/1',
      particulars: 'NEFT',
      dueDate: '2026-05-15',
      debit: null,
      credit: 10_000_000n,
      balance: 21_000_025n,
      ref: { type: 'receipt', id: 'r' },
    },
  ],
  closingBalance: 21_000_025n,
  totals: { demanded: 0n, received: 0n, outstanding: 0n, overdue: 0n, notYetDue: 0n },
};
const input = {
  tenantName: 'Acme',
  bookingNumber: 'BKG/1',
  unit: 'u1',
  buyerName: 'Kavya',
  currency: 'INR',
  ledger,
};

describe('statementSheet', () => {
  it('puts the opening row first and the closing row last, so the rows add up alone', () => {
    const { rows } = statementSheet(input);
    expect(rows.map((r) => r.kind)).toEqual([
      'OPENING_BALANCE',
      'DEMAND',
      'RECEIPT',
      'CLOSING_BALANCE',
    ]);
    expect(rows[0]).toMatchObject({ date: '2026-04-01', balance: '60000.25', debit: null });
    expect(rows[3]).toMatchObject({ date: '2026-05-31', balance: '210000.25', credit: null });
    const sum = (key: 'debit' | 'credit') =>
      rows.reduce((a, r) => a + (r[key] === null ? 0n : toPaise(r[key])), 0n);
    expect(toPaise(rows[0].balance!) + sum('debit') - sum('credit')).toBe(
      toPaise(rows[3].balance!),
    );
  });

  it('has the header block above the table, with the payer only when given', () => {
    const { sheet } = statementSheet(input);
    expect(sheet.preamble).toEqual([
      ['tenant', 'Acme'],
      ['bookingNumber', 'BKG/1'],
      ['unit', 'u1'],
      ['buyer', 'Kavya'],
      ['period', '2026-04-01 to 2026-05-31'],
      ['asOf', '2026-06-30'],
    ]);
    const withPayer = statementSheet({ ...input, payerId: 'p1' }).sheet.preamble;
    expect(withPayer).toContainEqual(['payer', 'p1']);
  });
});
