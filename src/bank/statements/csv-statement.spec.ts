import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCsvStatement } from './csv-statement';
import { BANK_LAYOUTS, genericLayout } from './csv-layouts';
import type { ParsedLine, StatementParser, StatementTotals } from './statement-line';
import { decodeStatement } from './text-decoding';

const FIXTURES = join(__dirname, '..', '..', '..', 'test', 'fixtures', 'bank');
const fixture = (name: string) => decodeStatement(readFileSync(join(FIXTURES, name))).text;
const inr = (accountNumber: string) => ({ accountNumber, currency: 'INR' });

async function read(
  parser: StatementParser,
): Promise<{ lines: ParsedLine[]; totals: StatementTotals }> {
  const lines: ParsedLine[] = [];
  for (;;) {
    const next = await parser.next();
    if (next.done) return { lines, totals: next.value };
    lines.push(next.value);
  }
}
const csv = (text: string, layout?: string) =>
  read(
    parseCsvStatement(
      text,
      { layout: BANK_LAYOUTS.find((l) => l.name === layout) },
      inr('50200012345678'),
    ),
  );

describe(parseCsvStatement.name, () => {
  it('hdfc: skips the account block, the **** rules and the STATEMENT SUMMARY; reads every row', async () => {
    const { lines, totals } = await csv(fixture('hdfc-2025-11.csv'));
    expect(totals).toEqual({
      layout: 'hdfc',
      pending: 0,
      openingBalance: '1234567.89',
      closingBalance: '3044413.39',
      firstMismatchLine: null,
    });
    expect(lines).toHaveLength(17);
    expect(lines[0]).toEqual({
      fileLine: 20,
      valueDate: '2025-11-01',
      bookingDate: '2025-11-01',
      direction: 'CREDIT',
      amount: '150000.00',
      narration:
        'UPI-RAJESH KUMAR SHARMA-rajeshks@okhdfcbank-HDFC0000123-530512345678-BOOKING A-1203',
      reference: '0000530512345678',
      balance: '1384567.89',
      reversal: false,
      raw: '01/11/25,"UPI-RAJESH KUMAR SHARMA-rajeshks@okhdfcbank-HDFC0000123-530512345678-BOOKING A-1203",0000530512345678,01/11/25,,"1,50,000.00","13,84,567.89"',
    });
    // The cheque deposit: booked on the 5th, value date the 6th.
    expect(lines[4]).toMatchObject({ bookingDate: '2025-11-05', valueDate: '2025-11-06' });
    expect(lines.at(-1)).toMatchObject({ fileLine: 36, amount: '1245.00', direction: 'CREDIT' });
  });

  it('icici (Windows-1252, an empty first column, 0.0 for no amount): picked by its header row', async () => {
    const { lines, totals } = await read(
      parseCsvStatement(fixture('icici-2025-11-cp1252.csv'), {}, inr('000405012345')),
    );
    expect(totals).toMatchObject({
      layout: 'icici',
      openingBalance: '812345.60',
      closingBalance: '805000.60',
    });
    expect(lines.map((l) => [l.direction, l.amount])).toEqual([
      ['CREDIT', '275000.00'],
      ['CREDIT', '85000.00'],
      ['CREDIT', '40000.00'],
      ['CREDIT', '60000.00'],
      ['DEBIT', '2345.00'],
      ['CREDIT', '35000.00'],
      ['DEBIT', '500000.00'],
    ]);
    expect(lines[5].narration).toBe('NEFT-HDFCN52531912345-M/S CAFÉ CORNER – SHOP 4 RENT');
    expect(lines[0].reference).toBe('');
  });

  it('icici: the header states INR, so a USD account is refused', async () => {
    await expect(
      read(
        parseCsvStatement(
          fixture('icici-2025-11-cp1252.csv'),
          {},
          { accountNumber: '000405012345', currency: 'USD' },
        ),
      ),
    ).rejects.toMatchObject({ code: 'STATEMENT_CURRENCY_MISMATCH', status: 400 });
  });

  it('sbi (tab-separated, DD MMM YYYY, blank or 0 when absent)', async () => {
    const { lines, totals } = await read(
      parseCsvStatement(fixture('sbi-2025-11.xls.txt'), {}, inr('30123456789')),
    );
    expect(totals).toMatchObject({
      layout: 'sbi',
      openingBalance: '523400.00',
      closingBalance: '813400.00',
      firstMismatchLine: null,
    });
    expect(lines.map((l) => `${l.valueDate} ${l.direction} ${l.amount}`)).toEqual([
      '2025-11-01 CREDIT 45000.00',
      '2025-11-04 CREDIT 210000.00',
      '2025-11-06 CREDIT 75000.00',
      '2025-11-09 DEBIT 30000.00',
      '2025-11-18 DEBIT 10000.00',
    ]);
  });

  it('axis: the OPENING BALANCE row opens the chain; the totals rows after the table are skipped', async () => {
    const { lines, totals } = await read(
      parseCsvStatement(fixture('axis-2025-11.csv'), {}, inr('912020012345678')),
    );
    expect(totals).toMatchObject({
      layout: 'axis',
      openingBalance: '45000.00',
      closingBalance: '454823.00',
      firstMismatchLine: null,
    });
    expect(lines).toHaveLength(5);
    expect(lines[1]).toMatchObject({
      reference: '004515',
      valueDate: '2025-11-05',
      bookingDate: '2025-11-05',
    });
  });

  it('kotak, newest first, balances with (Cr): the chain is checked in date order', async () => {
    const { lines, totals } = await read(
      parseCsvStatement(fixture('kotak-2025-11-newest-first.csv'), {}, inr('4512345678')),
    );
    expect(totals).toMatchObject({
      layout: 'kotak',
      openingBalance: '150000.00',
      closingBalance: '355000.00',
      firstMismatchLine: null,
    });
    expect(lines.map((l) => l.valueDate)).toEqual([
      '2025-11-13',
      '2025-11-09',
      '2025-11-06',
      '2025-11-03',
    ]);
  });

  it('generic with amount + drcr and DD-MMM-YYYY', async () => {
    const errors: never[] = [];
    const layout = genericLayout(
      'date:Txn Date,narration:Particulars,reference:Ref No,amount:Amount,drcr:Dr/Cr,balance:Running Balance',
      'DD-MMM-YYYY',
      errors,
    );
    const { lines, totals } = await read(
      parseCsvStatement(fixture('generic-idfc-2025-11.csv'), { layout }, inr('10012345678')),
    );
    expect(errors).toEqual([]);
    expect(totals).toMatchObject({
      layout: 'generic',
      openingBalance: '10000.00',
      closingBalance: '119410.00',
    });
    expect(lines.map((l) => `${l.direction} ${l.amount} ${l.reference}`)).toEqual([
      'CREDIT 30000.00 530712349999',
      'CREDIT 80000.00 IDFBN52530812345',
      'DEBIT 590.00 ',
    ]);
  });

  it('reports the first row whose running balance disagrees, and goes on reading', async () => {
    const text = fixture('hdfc-2025-11.csv').replace('"30,81,618.39"', '"30,81,618.40"');
    const { lines, totals } = await csv(text);
    expect(lines).toHaveLength(17);
    // Line 28 now disagrees with line 27; line 29 disagrees with the wrong balance before it.
    expect(totals.firstMismatchLine).toBe(28);
  });

  it('a row between transactions that is not one is unreadable, naming its line', async () => {
    const text = fixture('hdfc-2025-11.csv').replace(
      '10/11/25,"UPI-SUNITA',
      '31/11/25,"UPI-SUNITA',
    );
    await expect(csv(text)).rejects.toMatchObject({
      code: 'STATEMENT_UNREADABLE',
      errors: [{ field: 'line 28', message: expect.stringContaining('"31/11/25" is not a date') }],
    });
  });

  it('a transaction row with a bad date is unreadable wherever it stands: the last row, the only row', async () => {
    const last = fixture('hdfc-2025-11.csv').replace(
      '30/11/25,"CREDIT INTEREST CAPITALISED",0000000000000000,30/11/25',
      '31/11/25,"CREDIT INTEREST CAPITALISED",0000000000000000,31/11/25',
    );
    await expect(csv(last)).rejects.toMatchObject({
      code: 'STATEMENT_UNREADABLE',
      errors: [{ field: 'line 36', message: 'the Date "31/11/25" is not a date (DD/MM/YY)' }],
    });
    const only = [
      'Date,Narration,Chq./Ref.No.,Value Dt,Withdrawal Amt.,Deposit Amt.,Closing Balance',
      '32/13/26,"NEFT CR",,32/13/26,,"5,000.00","5,000.00"',
    ].join('\n');
    await expect(csv(only)).rejects.toMatchObject({
      errors: [{ field: 'line 2', message: 'the Date "32/13/26" is not a date (DD/MM/YY)' }],
    });
    const undated = only.replaceAll('32/13/26', '');
    await expect(csv(undated)).rejects.toMatchObject({
      errors: [{ field: 'line 2', message: 'the Date "" is not a date (DD/MM/YY)' }],
    });
  });

  it("the layout's own summary after the table is skipped, though its figures stand in the amount columns", async () => {
    const { lines } = await csv(fixture('hdfc-2025-11.csv'));
    expect(lines).toHaveLength(17);
    const axis = await read(
      parseCsvStatement(fixture('axis-2025-11.csv'), {}, inr('912020012345678')),
    );
    expect(axis.lines).toHaveLength(5);
    // Without the **** rule, the STATEMENT SUMMARY line still ends the table.
    const noRule = fixture('hdfc-2025-11.csv').replace(/\r?\n\*{8},[^\n]*\r?\n,,,,,,/, '\n,,,,,,');
    expect((await csv(noRule)).lines).toHaveLength(17);
  });

  it('a dated transaction after the end of the table is unreadable, not dropped', async () => {
    const text = fixture('hdfc-2025-11.csv').replace(
      'STATEMENT SUMMARY  :-,,,,,,',
      'STATEMENT SUMMARY  :-,,,,,,\n01/12/25,"LATE NEFT",,01/12/25,,"1.00","1.00"',
    );
    await expect(csv(text)).rejects.toMatchObject({
      code: 'STATEMENT_UNREADABLE',
      errors: [{ message: expect.stringContaining('after the end of the table') }],
    });
  });

  it('a page break (rule, header, rule) keeps the table open', async () => {
    const text = [
      'Date,Narration,Chq./Ref.No.,Value Dt,Withdrawal Amt.,Deposit Amt.,Closing Balance',
      '********,****,****,****,****,****,****',
      '01/11/25,A,,01/11/25,,"100.00","100.00"',
      '********,****,****,****,****,****,****',
      'Date,Narration,Chq./Ref.No.,Value Dt,Withdrawal Amt.,Deposit Amt.,Closing Balance',
      '********,****,****,****,****,****,****',
      '02/11/25,B,,02/11/25,,"50.00","150.00"',
      '********,****,****,****,****,****,****',
    ].join('\n');
    expect((await csv(text)).lines.map((l) => l.amount)).toEqual(['100.00', '50.00']);
  });

  it('a bad amount is unreadable, naming the line and the column', async () => {
    const text = fixture('hdfc-2025-11.csv').replace('"1,25,000.50"', '"1,25,000.5x"');
    await expect(csv(text)).rejects.toMatchObject({
      code: 'STATEMENT_UNREADABLE',
      errors: [{ field: 'line 28', message: 'the Deposit Amt. "1,25,000.5x" is not an amount' }],
    });
  });

  it('both amounts on one row are unreadable', async () => {
    const text = fixture('hdfc-2025-11.csv').replace(',,"1,245.00"', ',"1.00","1,245.00"');
    await expect(csv(text)).rejects.toMatchObject({ errors: [{ field: 'line 36' }] });
  });

  it('a quote left open is unreadable, naming the line csv-parse stopped at', async () => {
    const text = fixture('hdfc-2025-11.csv').replace(
      '"CREDIT INTEREST CAPITALISED",',
      '"CREDIT INTEREST CAPITALISED,',
    );
    await expect(csv(text)).rejects.toMatchObject({ code: 'STATEMENT_UNREADABLE' });
  });

  it('no header row of a known layout, or of the layout asked for: STATEMENT_LAYOUT_UNKNOWN', async () => {
    await expect(csv('Posting Date,Details,Amount\n2025-11-01,X,1.00\n')).rejects.toMatchObject({
      code: 'STATEMENT_LAYOUT_UNKNOWN',
      detail: expect.stringContaining('hdfc, icici, sbi, axis, kotak, generic'),
    });
    await expect(csv(fixture('hdfc-2025-11.csv'), 'sbi')).rejects.toMatchObject({
      code: 'STATEMENT_LAYOUT_UNKNOWN',
      detail: expect.stringContaining('sbi layout'),
    });
  });

  it('headers match whatever their case and spacing, and columns in another order', async () => {
    const text = [
      'CLOSING  BALANCE,date,narration,chq./ref.no.,value dt,deposit amt.,withdrawal amt.',
      '"1,100.00",01/11/25,OPENING TOPUP,,01/11/25,"100.00",',
      '"1,000.00",02/11/25,CHARGES,,02/11/25,,"100.00"',
    ].join('\n');
    const { lines, totals } = await csv(text);
    expect(lines.map((l) => `${l.direction} ${l.amount} ${l.balance}`)).toEqual([
      'CREDIT 100.00 1100.00',
      'DEBIT 100.00 1000.00',
    ]);
    expect(totals).toMatchObject({
      openingBalance: '1000.00',
      closingBalance: '1000.00',
      firstMismatchLine: null,
    });
  });
});
