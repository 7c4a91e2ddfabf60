import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCamt053 } from './camt053';
import type { ParsedLine, StatementTotals } from './statement-line';

const FIXTURES = join(__dirname, '..', '..', '..', 'test', 'fixtures', 'bank');
const V08 = readFileSync(join(FIXTURES, 'camt053-v08-2025-11.xml'), 'utf8');
const V02 = readFileSync(join(FIXTURES, 'camt053-v02-eur.xml'), 'utf8');
const HDFC = { accountNumber: '50200012345678', currency: 'INR' };

function read(text: string, expected = HDFC): { lines: ParsedLine[]; totals: StatementTotals } {
  const parser = parseCamt053(text, expected);
  const lines: ParsedLine[] = [];
  for (;;) {
    const next = parser.next();
    if (next.done) return { lines, totals: next.value };
    lines.push(next.value);
  }
}

describe(parseCamt053.name, () => {
  it('v08: two Stmt as one, a PDNG entry counted not imported, one line per TxDtls with an amount', () => {
    const { lines, totals } = read(V08);
    expect(totals).toEqual({
      layout: null,
      openingBalance: '1234567.89',
      closingBalance: '2028977.89',
      firstMismatchLine: null,
      pending: 1,
    });
    expect(lines.map((l) => [l.fileLine, l.valueDate, l.direction, l.amount, l.reference])).toEqual(
      [
        [45, '2025-11-01', 'CREDIT', '150000.00', '530512345678'],
        [66, '2025-11-03', 'CREDIT', '275000.00', 'SBINN52531012345'],
        [98, '2025-11-07', 'CREDIT', '125000.00', 'LICHN52531112301'],
        [104, '2025-11-07', 'CREDIT', '150000.00', 'LICHN52531112302'],
        [110, '2025-11-07', 'CREDIT', '100000.00', 'LICHN52531112303'],
        [118, '2025-11-08', 'DEBIT', '590.00', 'HDFC0251108090'],
        [158, '2025-11-18', 'CREDIT', '60000.00', '531812345678'],
        [174, '2025-11-21', 'DEBIT', '65000.00', '000124'],
      ],
    );
    expect(lines[0].narration).toBe('RAJESH KUMAR SHARMA UPI BOOKING A-1203');
    expect(lines[2].narration).toBe(
      'DISB LOAN 610012345 BOOKING A-1203 RAJESH KUMAR SHARMA BULK NEFT CR - LIC HOUSING FINANCE LTD',
    );
    expect(lines[2].raw).toMatch(/^<TxDtls>[\s\S]*LICHN52531112301[\s\S]*<\/TxDtls>$/);
    expect(lines[6].narration).toBe('ANJALI RAO & ARJUN RAO IMPS FLAT A-502 INST 3');
    expect(lines[7]).toMatchObject({
      chequeNumber: '000124',
      narration: expect.stringContaining('VENDOR TILES'),
    });
    expect(lines[5].raw).toMatch(/^<Ntry>[\s\S]*<NtryRef>0004<\/NtryRef>[\s\S]*<\/Ntry>$/);
  });

  it('v02: IBAN, Sts as text, amounts in AmtDtls, a DBIT opening balance', () => {
    const { lines, totals } = read(V02, {
      accountNumber: 'DE89370400440532013000',
      currency: 'EUR',
    });
    expect(totals).toMatchObject({
      openingBalance: '-1000.00',
      closingBalance: '24000.00',
      firstMismatchLine: null,
    });
    expect(lines).toEqual([
      expect.objectContaining({
        valueDate: '2025-11-04',
        bookingDate: '2025-11-04',
        amount: '25000.00',
        reference: 'NRI-BOOKING-A1203',
        narration: 'Dr. Arvind Krishnan Booking A-1203 Skyline Heights NRI remittance',
      }),
    ]);
  });

  it('reports the 1-based Stmt whose closing balance disagrees', () => {
    const text = V08.replace('<Amt Ccy="INR">2028977.89</Amt>', '<Amt Ccy="INR">2028977.00</Amt>');
    expect(read(text).totals.firstMismatchLine).toBe(2);
  });

  it('refuses a DTD or entities, before parsing anything', () => {
    const bomb = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">]>\n${V08.slice(V08.indexOf('<Document'))}`;
    expect(() => read(bomb)).toThrow(
      expect.objectContaining({
        code: 'STATEMENT_UNREADABLE',
        detail: expect.stringContaining('DTD or entity'),
      }),
    );
  });

  it('refuses another account, another currency, naming the element', () => {
    expect(() => read(V08, { ...HDFC, accountNumber: '912020012345678' })).toThrow(
      expect.objectContaining({
        code: 'STATEMENT_ACCOUNT_MISMATCH',
        detail: expect.stringContaining('Stmt[1]/Acct/Id'),
      }),
    );
    expect(() => read(V02, { accountNumber: 'DE89370400440532013000', currency: 'INR' })).toThrow(
      expect.objectContaining({
        code: 'STATEMENT_CURRENCY_MISMATCH',
        detail: expect.stringContaining('Stmt[1]/Acct/Ccy'),
      }),
    );
    const usdEntry = V08.replace('<Amt Ccy="INR">590.00</Amt>', '<Amt Ccy="USD">590.00</Amt>');
    expect(() => read(usdEntry)).toThrow(
      expect.objectContaining({
        code: 'STATEMENT_CURRENCY_MISMATCH',
        detail: expect.stringContaining('Stmt[1]/Ntry[4]/Amt'),
      }),
    );
  });

  it('names what it cannot read: malformed XML by line, a bad element by its path, another namespace', () => {
    expect(() => read(V08.replace('</Acct>', '</Acc>'))).toThrow(
      expect.objectContaining({
        code: 'STATEMENT_UNREADABLE',
        errors: [expect.objectContaining({ field: expect.stringMatching(/^line \d+$/) })],
      }),
    );
    expect(() =>
      read(V08.replace('<Amt Ccy="INR">60000.00</Amt>', '<Amt Ccy="INR">60,000.00</Amt>')),
    ).toThrow(
      expect.objectContaining({
        errors: [{ field: 'Stmt[2]/Ntry[2]/Amt', message: '"60,000.00" is not an amount' }],
      }),
    );
    expect(() =>
      read(V08.replace('<Dt>2025-11-18</Dt></ValDt>', '<Dt>18.11.2025</Dt></ValDt>')),
    ).toThrow(
      expect.objectContaining({
        errors: [expect.objectContaining({ field: 'Stmt[2]/Ntry[2]/ValDt/Dt' })],
      }),
    );
    expect(() => read(V08.replace('camt.053.001.08', 'camt.054.001.08'))).toThrow(
      expect.objectContaining({
        errors: [
          expect.objectContaining({
            field: 'Document',
            message: expect.stringContaining('camt.054'),
          }),
        ],
      }),
    );
  });

  it('keeps an entry with several TxDtls whose amounts do not add up as one line', () => {
    const text = V08.replace('<Amt Ccy="INR">100000.00</Amt>', '<Amt Ccy="INR">99999.00</Amt>');
    const lines = read(text).lines.filter((l) => l.valueDate === '2025-11-07');
    expect(lines.map((l) => l.amount)).toEqual(['375000.00']);
  });
});
