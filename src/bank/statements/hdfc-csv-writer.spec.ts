import Decimal from 'decimal.js';
import { parseCsvStatement } from './csv-statement';
import { indianGrouping, writeHdfcStatement } from './hdfc-csv-writer';
import type { ParsedLine } from './statement-line';

describe(writeHdfcStatement.name, () => {
  it('groups digits the Indian way', () => {
    expect(indianGrouping(new Decimal('12345678.5'))).toBe('1,23,45,678.50');
    expect(indianGrouping(new Decimal('150000'))).toBe('1,50,000.00');
    expect(indianGrouping(new Decimal('999'))).toBe('999.00');
    expect(indianGrouping(new Decimal('-1234'))).toBe('-1,234.00');
  });

  it('writes a file the hdfc layout reads back, balances and all', async () => {
    const text = writeHdfcStatement({
      accountNumber: '50200012345678',
      holder: 'SKYLINE DEVELOPERS PVT LTD',
      ifsc: 'HDFC0001234',
      from: '2025-10-01',
      to: '2025-10-31',
      openingBalance: '1000.00',
      transactions: [
        {
          date: '2025-10-02',
          narration: 'NEFT CR-"A" B',
          reference: 'SBINN52531012345',
          credit: '150000.50',
        },
        {
          date: '2025-10-03',
          valueDate: '2025-10-04',
          narration: 'CHGS',
          reference: '0000000000000000',
          debit: '17.70',
        },
      ],
    });
    const parser = parseCsvStatement(
      text,
      {},
      { accountNumber: '50200012345678', currency: 'INR' },
    );
    const lines: ParsedLine[] = [];
    let next = await parser.next();
    for (; !next.done; next = await parser.next()) lines.push(next.value);
    expect(next.value).toEqual({
      layout: 'hdfc',
      pending: 0,
      openingBalance: '1000.00',
      closingBalance: '150982.80',
      firstMismatchLine: null,
    });
    expect(lines.map((l) => [l.valueDate, l.direction, l.amount, l.narration])).toEqual([
      ['2025-10-02', 'CREDIT', '150000.50', 'NEFT CR-"A" B'],
      ['2025-10-04', 'DEBIT', '17.70', 'CHGS'],
    ]);
    expect(text).toContain('"1,51,000.50"');
    expect(text).toContain('"1,000.00",1,1,"17.70","1,50,000.50","1,50,982.80"');
  });
});
