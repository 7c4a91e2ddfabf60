import Decimal from 'decimal.js';
import { paiseText } from '@/common/money/paise';
import fc from 'fast-check';
import { dayNumber, dayText } from '@/interest/interest-rule';
import {
  buildLedger,
  compareEntries,
  Ledger,
  LedgerDemand,
  LedgerReceipt,
  LedgerRecords,
  receiptParticulars,
} from './booking-ledger';

const demand = (overrides: Partial<LedgerDemand> = {}): LedgerDemand => ({
  id: 'd1',
  number: 'DMD/26-27/00001',
  type: 'MILESTONE',
  date: '2026-04-01',
  dueDate: '2026-04-15',
  amount: '100000.00',
  remarks: 'Plinth',
  milestone: null,
  cancelledOn: null,
  cancelReason: null,
  ...overrides,
});

const receipt = (overrides: Partial<LedgerReceipt> = {}): LedgerReceipt => ({
  id: 'r1',
  number: 'RCT/26-27/00001',
  date: '2026-04-10',
  dueDate: '2026-04-15',
  amount: '40000.00',
  mode: 'NEFT',
  ref: 'UTR1',
  payerType: 'BUYER',
  payerName: null,
  status: 'ACTIVE',
  statusChangedOn: null,
  statusReason: null,
  ...overrides,
});

const records = (demands: LedgerDemand[], receipts: LedgerReceipt[] = []): LedgerRecords => ({
  buyerName: 'Ananya Iyer',
  demands,
  receipts,
});

/** The ledger's figures as plain text, for comparisons. */
function plain(ledger: Ledger) {
  const m = (d: bigint | null) => (d === null ? null : paiseText(d));
  return {
    from: ledger.from,
    to: ledger.to,
    asOf: ledger.asOf,
    opening: m(ledger.openingBalance),
    closing: m(ledger.closingBalance),
    entries: ledger.entries.map((e) => ({
      ...e,
      debit: m(e.debit),
      credit: m(e.credit),
      balance: m(e.balance),
    })),
    totals: Object.fromEntries(Object.entries(ledger.totals).map(([k, v]) => [k, m(v)])),
  };
}

describe(buildLedger.name, () => {
  it('debits demands on their date and credits receipts, with a running balance', () => {
    const ledger = plain(
      buildLedger(
        records(
          [demand(), demand({ id: 'd2', number: 'DMD/26-27/00002', date: '2026-05-01' })],
          [receipt()],
        ),
        { to: '2026-06-30', asOf: '2026-06-30' },
      ),
    );
    expect(ledger.entries.map((e) => [e.date, e.kind, e.debit, e.credit, e.balance])).toEqual([
      ['2026-04-01', 'DEMAND', '100000.00', null, '100000.00'],
      ['2026-04-10', 'RECEIPT', null, '40000.00', '60000.00'],
      ['2026-05-01', 'DEMAND', '100000.00', null, '160000.00'],
    ]);
    expect(ledger).toMatchObject({ from: '2026-04-01', opening: '0.00', closing: '160000.00' });
  });

  it('orders one date: demands, receipts, reversals, demand cancels; then by number', () => {
    const day = '2026-04-10';
    const ledger = buildLedger(
      records(
        [
          demand({ id: 'd9', number: 'DMD/26-27/00010', date: day }),
          demand({ id: 'd8', number: 'DMD/26-27/00009', date: day }),
          demand({ id: 'd7', number: 'DMD/26-27/00001', cancelledOn: day, cancelReason: 'Wrong' }),
        ],
        [
          receipt({ id: 'r2', number: 'RCT/26-27/100000', date: day }),
          receipt({ id: 'r1', number: 'RCT/26-27/99999', date: day }),
          receipt({
            id: 'r0',
            number: 'RCT/26-27/00005',
            date: '2026-04-02',
            status: 'CANCELLED',
            statusChangedOn: day,
            statusReason: 'Entered twice',
          }),
        ],
      ),
      { to: day, asOf: day },
    );
    expect(
      ledger.entries.filter((e) => e.date === day).map((e) => [e.kind, e.documentNumber]),
    ).toEqual([
      ['DEMAND', 'DMD/26-27/00009'],
      ['DEMAND', 'DMD/26-27/00010'],
      ['RECEIPT', 'RCT/26-27/99999'],
      ['RECEIPT', 'RCT/26-27/100000'],
      ['RECEIPT_REVERSED', 'RCT/26-27/00005'],
      ['DEMAND_CANCELLED', 'DMD/26-27/00001'],
    ]);
  });

  it('shows a bounced receipt twice; the reversal says why; after to it is not there yet', () => {
    const bounced = receipt({
      mode: 'CHEQUE',
      ref: '004512',
      status: 'BOUNCED',
      statusChangedOn: '2026-04-20',
      statusReason: 'Insufficient funds',
    });
    const ledger = buildLedger(records([demand()], [bounced]), {
      to: '2026-04-30',
      asOf: '2026-04-30',
    });
    expect(ledger.entries.map((e) => [e.kind, e.particulars, paiseText(e.balance)])).toEqual([
      ['DEMAND', 'Plinth', '100000.00'],
      ['RECEIPT', 'Cheque 004512 from Ananya Iyer', '60000.00'],
      ['RECEIPT_REVERSED', 'Receipt RCT/26-27/00001 bounced: Insufficient funds', '100000.00'],
    ]);
    const before = buildLedger(records([demand()], [bounced]), {
      to: '2026-04-19',
      asOf: '2026-04-19',
    });
    expect(before.entries.map((e) => e.kind)).toEqual(['DEMAND', 'RECEIPT']);
    expect(paiseText(before.totals.received)).toBe('40000.00');
  });

  it('credits a cancelled demand on its cancel date, never before the demand', () => {
    const ledger = buildLedger(
      records([demand({ cancelledOn: '2026-03-01', cancelReason: 'Raised in error' })]),
      { to: '2026-04-30', asOf: '2026-04-30' },
    );
    expect(ledger.entries.map((e) => [e.date, e.kind, e.particulars])).toEqual([
      ['2026-04-01', 'DEMAND', 'Plinth'],
      ['2026-04-01', 'DEMAND_CANCELLED', 'Demand cancelled: Raised in error'],
    ]);
    expect(paiseText(ledger.totals.demanded)).toBe('0.00');
  });

  it('opens with everything dated before from', () => {
    const ledger = buildLedger(
      records(
        [demand(), demand({ id: 'd2', number: 'DMD/26-27/00002', date: '2026-05-01' })],
        [receipt()],
      ),
      { from: '2026-04-11', to: '2026-06-30', asOf: '2026-06-30' },
    );
    expect(paiseText(ledger.openingBalance)).toBe('60000.00');
    expect(ledger.entries.map((e) => [e.kind, paiseText(e.balance)])).toEqual([
      ['DEMAND', '160000.00'],
    ]);
    expect(paiseText(ledger.closingBalance)).toBe('160000.00');
    expect(paiseText(ledger.totals.outstanding)).toBe('160000.00');
  });

  it('splits outstanding into overdue (due before asOf) and not yet due', () => {
    const ledger = buildLedger(
      records(
        [demand(), demand({ id: 'd2', number: 'DMD/26-27/00002', dueDate: '2026-06-30' })],
        [receipt()],
      ),
      { to: '2026-06-30', asOf: '2026-06-30' },
    );
    expect(paiseText(ledger.totals.overdue)).toBe('60000.00');
    expect(paiseText(ledger.totals.notYetDue)).toBe('100000.00');
  });

  it('has no entries and a zero balance for a booking without records; from is to', () => {
    expect(plain(buildLedger(records([]), { to: '2026-06-30', asOf: '2026-07-31' }))).toEqual({
      from: '2026-06-30',
      to: '2026-06-30',
      asOf: '2026-07-31',
      opening: '0.00',
      closing: '0.00',
      entries: [],
      totals: {
        demanded: '0.00',
        received: '0.00',
        outstanding: '0.00',
        overdue: '0.00',
        notYetDue: '0.00',
      },
    });
  });
});

describe(receiptParticulars.name, () => {
  it('reads mode, reference and payer; TDS as section 194-IA', () => {
    expect(receiptParticulars(receipt(), 'Ananya Iyer')).toBe('NEFT UTR1 from Ananya Iyer');
    expect(receiptParticulars(receipt({ mode: 'CASH', ref: '' }), 'Ananya Iyer')).toBe(
      'Cash from Ananya Iyer',
    );
    expect(receiptParticulars(receipt({ mode: 'RTGS', payerType: 'BANK' }), 'A')).toBe(
      'RTGS UTR1 from Home-loan bank',
    );
    expect(
      receiptParticulars(receipt({ mode: 'RTGS', payerType: 'BANK', payerName: 'HDFC Bank' }), 'A'),
    ).toBe('RTGS UTR1 from HDFC Bank');
    expect(receiptParticulars(receipt({ mode: 'TDS', ref: 'AB1234567' }), 'A')).toBe(
      'TDS deducted u/s 194-IA, 26QB AB1234567',
    );
  });
});

/**
 * Random histories of one booking: demands (MILESTONE, MANUAL, INTEREST) shared by two payers,
 * some cancelled; receipts by either payer, some cancelled or bounced. Dates are days after
 * 2025-01-01; a cancel or bounce is on or after what it reverses.
 */
const BASE = dayNumber('2025-01-01');
const day = (n: number) => dayText(BASE + n);
const PAYERS = ['p1', 'p2'] as const;

interface HistoryDemand {
  type: string;
  date: number;
  due: number;
  /** Paise per payer (0: no split of that payer). */
  shares: [number, number];
  cancelAfter: number | null;
}
interface HistoryReceipt {
  demand: number;
  payer: 0 | 1;
  date: number;
  paise: number;
  mode: string;
  reversal: { status: 'CANCELLED' | 'BOUNCED'; after: number } | null;
}
interface History {
  demands: HistoryDemand[];
  receipts: HistoryReceipt[];
}

const historyArb: fc.Arbitrary<History> = fc
  .array(
    fc.record({
      type: fc.constantFrom('MILESTONE', 'MANUAL', 'INTEREST'),
      date: fc.integer({ min: 0, max: 400 }),
      due: fc.integer({ min: 0, max: 60 }),
      shares: fc.tuple(fc.integer({ min: 0, max: 5_000_000 }), fc.integer({ min: 0, max: 99 })),
      cancelAfter: fc.option(fc.integer({ min: 0, max: 100 }), { nil: null }),
    }),
    { minLength: 0, maxLength: 8 },
  )
  .map((demands) =>
    demands.map((d) => ({
      ...d,
      shares: [d.shares[0] || 1, d.shares[1]] as [number, number],
      due: d.date + d.due,
    })),
  )
  .chain((demands) =>
    fc.record({
      demands: fc.constant(demands),
      receipts:
        demands.length === 0
          ? fc.constant([] as HistoryReceipt[])
          : fc.array(
              fc.record({
                demand: fc.integer({ min: 0, max: demands.length - 1 }),
                payer: fc.constantFrom(0 as const, 1 as const),
                date: fc.integer({ min: 0, max: 450 }),
                paise: fc.integer({ min: 1, max: 2_000_000 }),
                mode: fc.constantFrom('NEFT', 'CHEQUE', 'TDS', 'CASH'),
                reversal: fc.option(
                  fc.record({
                    status: fc.constantFrom('CANCELLED' as const, 'BOUNCED' as const),
                    after: fc.integer({ min: 0, max: 60 }),
                  }),
                  { nil: null },
                ),
              }),
              { maxLength: 15 },
            ),
    }),
  );

const paise = (n: number) => new Decimal(n).div(100).toFixed(2);

/**
 * The records STATEMENT_SQL returns for `history` through `to` (demands and receipts dated on or
 * before it; a demand's amount is its payer's share with `payer`), and nothing else.
 */
function recordsOf(history: History, to: string, payer?: 0 | 1): LedgerRecords {
  const demands: LedgerDemand[] = [];
  history.demands.forEach((d, i) => {
    const share =
      payer === undefined ? d.shares[0] + d.shares[1] : d.shares[payer] > 0 ? d.shares[payer] : 0;
    if (day(d.date) > to || share === 0) return;
    demands.push(
      demand({
        id: `d${i}`,
        number: `DMD/${String(i).padStart(5, '0')}`,
        type: d.type,
        date: day(d.date),
        dueDate: day(d.due),
        amount: paise(share),
        remarks: `${d.type} ${i}`,
        cancelledOn: d.cancelAfter === null ? null : day(d.date + d.cancelAfter),
        cancelReason: d.cancelAfter === null ? null : 'Raised in error',
      }),
    );
  });
  const receipts: LedgerReceipt[] = [];
  history.receipts.forEach((r, i) => {
    const d = history.demands[r.demand];
    if (day(r.date) > to || (payer !== undefined && r.payer !== payer)) return;
    receipts.push(
      receipt({
        id: `r${i}`,
        number: `RCT/${String(i).padStart(5, '0')}`,
        date: day(r.date),
        dueDate: day(d.due),
        amount: paise(r.paise),
        mode: r.mode,
        ref: `REF${i}`,
        payerType: r.payer === 0 ? 'BUYER' : 'CO_BUYER',
        status: r.reversal?.status ?? 'ACTIVE',
        statusChangedOn: r.reversal ? day(r.date + r.reversal.after) : null,
        statusReason: r.reversal ? 'Returned' : null,
      }),
    );
  });
  return { buyerName: 'Ananya Iyer', demands, receipts };
}

/** The history as it stood on day `x`: later records gone, later cancels and bounces undone. */
function asItStood(history: History, x: number): History {
  const demands = history.demands.map((d) => ({
    ...d,
    cancelAfter: d.cancelAfter !== null && d.date + d.cancelAfter <= x ? d.cancelAfter : null,
  }));
  const receipts = history.receipts.map((r) => ({
    ...r,
    reversal: r.reversal && r.date + r.reversal.after <= x ? r.reversal : null,
  }));
  // Records dated after x are moved out of reach (ids and numbers stay by index).
  const gone = 100_000;
  return {
    demands: demands.map((d) => (d.date <= x ? d : { ...d, date: gone })),
    receipts: receipts.map((r) => (r.date <= x ? r : { ...r, date: gone })),
  };
}

describe('statement ledger properties', () => {
  const RUNS = { numRuns: 400, seed: 20261130 };
  // The ledger sums in BigInt paise; these checks redo its sums in decimal.js from its text.
  const dec = (paise: bigint | null) => new Decimal(paise === null ? '0' : paiseText(paise));
  const sum = (values: (bigint | null)[]) =>
    values.reduce<Decimal>((a, v) => a.plus(dec(v)), new Decimal(0));

  it('closing = opening + debits - credits = outstanding; balances run; entries in order', () => {
    fc.assert(
      fc.property(
        historyArb,
        fc.integer({ min: 0, max: 520 }),
        fc.integer({ min: 0, max: 520 }),
        fc.integer({ min: 0, max: 60 }),
        (history, a, b, ahead) => {
          const [from, to] = a <= b ? [day(a), day(b)] : [day(b), day(a)];
          const asOf = dayText(dayNumber(to) + ahead);
          const ledger = buildLedger(recordsOf(history, to), { from, to, asOf });
          const debits = sum(ledger.entries.map((e) => e.debit));
          const credits = sum(ledger.entries.map((e) => e.credit));
          expect(paiseText(ledger.closingBalance)).toBe(
            dec(ledger.openingBalance).plus(debits).minus(credits).toFixed(2),
          );
          const t = ledger.totals;
          expect(paiseText(t.outstanding)).toBe(paiseText(ledger.closingBalance));
          expect(dec(t.demanded).minus(dec(t.received)).toFixed(2)).toBe(paiseText(t.outstanding));
          expect(dec(t.overdue).plus(dec(t.notYetDue)).toFixed(2)).toBe(paiseText(t.outstanding));
          let balance = dec(ledger.openingBalance);
          ledger.entries.forEach((e, i) => {
            balance = balance.plus(dec(e.debit)).minus(dec(e.credit));
            expect(paiseText(e.balance)).toBe(balance.toFixed(2));
            expect(e.date >= from && e.date <= to).toBe(true);
            expect((e.debit === null) !== (e.credit === null)).toBe(true);
            if (i > 0) expect(compareEntries(ledger.entries[i - 1], e)).toBeLessThan(0);
          });
        },
      ),
      RUNS,
    );
  });

  it('the statement at an earlier asOf equals the one built from only the records dated by then', () => {
    fc.assert(
      fc.property(
        historyArb,
        fc.integer({ min: 0, max: 520 }),
        fc.integer({ min: 0, max: 520 }),
        (history, x, f) => {
          const asOf = day(x);
          const period = { from: f <= x ? day(f) : undefined, to: asOf, asOf };
          const now = buildLedger(recordsOf(history, day(600)), { to: day(600), asOf: day(600) });
          const then = buildLedger(recordsOf(history, asOf), period);
          const built = buildLedger(recordsOf(asItStood(history, x), asOf), period);
          expect(plain(then)).toEqual(plain(built));
          // And it is the later statement cut at asOf: its entries up to asOf, same balances.
          const cut = now.entries.filter((e) => e.date <= asOf && e.date >= then.from);
          expect(plain(then).entries).toEqual(plain({ ...now, entries: cut }).entries);
        },
      ),
      RUNS,
    );
  });

  it("with payerId each payer's statement adds up to the booking's", () => {
    fc.assert(
      fc.property(historyArb, fc.integer({ min: 0, max: 520 }), (history, x) => {
        const period = { to: day(x), asOf: day(x) };
        const whole = buildLedger(recordsOf(history, day(x)), period);
        const parts = PAYERS.map((_, p) =>
          buildLedger(recordsOf(history, day(x), p as 0 | 1), period),
        );
        for (const key of Object.keys(whole.totals) as (keyof Ledger['totals'])[]) {
          expect(dec(parts[0].totals[key]).plus(dec(parts[1].totals[key])).toFixed(2)).toBe(
            paiseText(whole.totals[key]),
          );
        }
        expect(parts[0].entries.length + parts[1].entries.length).toBeGreaterThanOrEqual(
          whole.entries.length,
        );
      }),
      RUNS,
    );
  });
});
