import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseMt940 } from './mt940';
import type { ParsedLine, StatementTotals } from './statement-line';

const FIXTURES = join(__dirname, '..', '..', '..', 'test', 'fixtures', 'bank');
const FILE = readFileSync(join(FIXTURES, 'mt940-2025-11.sta'), 'utf8').replace(/\r\n/g, '\n');
const HDFC = { accountNumber: '50200012345678', currency: 'INR' };

function read(text: string, expected = HDFC): { lines: ParsedLine[]; totals: StatementTotals } {
  const parser = parseMt940(text, expected);
  const lines: ParsedLine[] = [];
  for (;;) {
    const next = parser.next();
    if (next.done) return { lines, totals: next.value };
    lines.push(next.value);
  }
}

describe(parseMt940.name, () => {
  it('reads two statements inside the SWIFT envelope as one, each chain checked', () => {
    const { lines, totals } = read(FILE);
    expect(totals).toEqual({
      layout: null,
      openingBalance: '1234567.89',
      closingBalance: '184567.89',
      firstMismatchLine: null,
      pending: 0,
    });
    expect(
      lines.map((l) => [l.fileLine, l.valueDate, l.bookingDate, l.direction, l.amount, l.reversal]),
    ).toEqual([
      [6, '2025-11-01', '2025-11-01', 'CREDIT', '150000.00', false],
      [10, '2025-11-03', null, 'CREDIT', '275000.00', false], // no entry date
      [12, '2025-11-05', '2025-11-06', 'CREDIT', '85000.00', false],
      [14, '2025-11-08', '2025-11-08', 'DEBIT', '85000.00', true], // RC: a credit reversed
      [16, '2025-11-08', '2025-11-08', 'DEBIT', '590.00', false],
      [18, '2025-11-09', '2025-11-09', 'CREDIT', '590.00', true], // RD: a debit reversed
      [28, '2025-11-20', '2025-11-20', 'CREDIT', '25000.00', false],
      [30, '2025-11-25', '2025-11-25', 'DEBIT', '1500000.00', false],
    ]);
  });

  it('keeps the :86: narration over its continuation lines, the reference and the raw entry', () => {
    const [first, second, cheque] = read(FILE).lines;
    expect(first).toMatchObject({
      narration:
        'UPI-RAJESH KUMAR SHARMA-rajeshks@okhdfcbank-HDFC0000123-5305 12345678-BOOKING A-1203',
      // NONREF: the bank's reference after // is the line's reference.
      reference: '530512345678',
      raw: ':61:2511011101CR150000,00NTRFNONREF//530512345678\nUPI CR\n:86:UPI-RAJESH KUMAR SHARMA-rajeshks@okhdfcbank-HDFC0000123-5305\n12345678-BOOKING A-1203',
    });
    // The :86: lines joined without a space let a UTR wrapped over two lines be found.
    expect(first.hints).toContain('530512345678-BOOKING');
    expect(second).toMatchObject({
      reference: 'SBINN52531012345',
      hints: expect.stringContaining('HDFC0251103001'),
    });
    expect(cheque).toMatchObject({ reference: '004512', chequeNumber: '004512' });
  });

  it('reports the :62F: line whose closing balance disagrees', () => {
    const text = FILE.replace(':62F:C251130INR184567,89', ':62F:C251130INR184567,90');
    expect(read(text).totals).toMatchObject({ firstMismatchLine: 32, closingBalance: '184567.90' });
  });

  it('refuses a statement of another account or currency', () => {
    expect(() => read(FILE, { ...HDFC, accountNumber: '50200099999999' })).toThrow(
      expect.objectContaining({
        code: 'STATEMENT_ACCOUNT_MISMATCH',
        detail: expect.stringContaining('XXXXXXXXXX9999'),
      }),
    );
    expect(() => read(FILE, { ...HDFC, currency: 'USD' })).toThrow(
      expect.objectContaining({ code: 'STATEMENT_CURRENCY_MISMATCH' }),
    );
  });

  it('accepts an account identifier with the currency after the number', () => {
    const text = FILE.replace(':25:50200012345678', ':25:50200012345678INR');
    expect(read(text).lines).toHaveLength(8);
  });

  it('names the line of a :61: it cannot read, a statement without :62F:, or no :20: at all', () => {
    expect(() => read(FILE.replace(':61:251103C275000,00', ':61:251103X275000,00'))).toThrow(
      expect.objectContaining({
        code: 'STATEMENT_UNREADABLE',
        errors: [expect.objectContaining({ field: 'line 10' })],
      }),
    );
    expect(() => read(FILE.replace(':62F:C251115INR1659567,89\n', ''))).toThrow(
      expect.objectContaining({ errors: [expect.objectContaining({ field: 'line 2' })] }),
    );
    expect(() => read('Date,Narration\n01/11/25,X\n')).toThrow(
      expect.objectContaining({
        code: 'STATEMENT_UNREADABLE',
        errors: [expect.objectContaining({ field: 'line 1' })],
      }),
    );
  });

  it("reads Citi's :61: with four spaces for the entry date, and passes over zero entries", () => {
    const citi = [
      ':20:STMT',
      ':25:123456789',
      ':60F:C240312USD17376,67',
      ':61:240312    DD212,39NMSCNONREF//',
      '/ABC/DEF/MISCELLANEOUS',
      ':86:/PT/FT/PY/SOMETHING FOO BAR          112233',
      '   123456789',
      ':61:240312    CD0,00NDEFNONREF//',
      '/ABC/DEF/C 37897,00 BAI CD 025',
      ':62F:C240312USD17164,28',
      '-',
    ].join('\n');
    const { lines, totals } = read(citi, { accountNumber: '123456789', currency: 'USD' });
    expect(lines).toEqual([
      expect.objectContaining({
        fileLine: 4,
        valueDate: '2024-03-12',
        bookingDate: null,
        direction: 'DEBIT',
        amount: '212.39',
        reference: '',
        narration: '/PT/FT/PY/SOMETHING FOO BAR 112233 123456789',
      }),
    ]);
    expect(totals).toMatchObject({ firstMismatchLine: null, closingBalance: '17164.28' });
    // Spaces are no entry date anywhere else in the line.
    expect(() =>
      read(citi.replace('240312    DD', '240312  DD'), {
        accountNumber: '123456789',
        currency: 'USD',
      }),
    ).toThrow(expect.objectContaining({ code: 'STATEMENT_UNREADABLE' }));
  });
});
