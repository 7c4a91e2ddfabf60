import { LineKeys } from './line-key';
import type { ParsedLine } from './statement-line';

const line = (overrides: Partial<ParsedLine> = {}): ParsedLine => ({
  fileLine: 20,
  valueDate: '2025-11-20',
  bookingDate: '2025-11-20',
  direction: 'CREDIT',
  amount: '25000.00',
  narration: 'UPI-MOHAN DAS-532412345678-TOKEN',
  reference: '0000532412345678',
  balance: '4338168.39',
  reversal: false,
  raw: '20/11/25,...',
  ...overrides,
});

describe(LineKeys.name, () => {
  it('gives identical lines of one file different keys by occurrence, and each file the same keys', () => {
    const first = new LineKeys();
    const a = first.next(line());
    const b = first.next(line({ fileLine: 21, raw: 'other raw text' }));
    expect(a.equals(b)).toBe(false);
    const again = new LineKeys();
    expect(again.next(line({ fileLine: 7 })).equals(a)).toBe(true);
    expect(again.next(line()).equals(b)).toBe(true);
  });

  it('keys the content: amount, direction, reference, narration and balance; not the place or raw text', () => {
    const key = (l: ParsedLine) => new LineKeys().next(l).toString('hex');
    const base = key(line());
    expect(key(line({ fileLine: 99, raw: 'x', bookingDate: null }))).toBe(base);
    expect(key(line({ narration: '  UPI-MOHAN   DAS-532412345678-TOKEN ' }))).toBe(base);
    for (const change of [
      { amount: '25000.01' },
      { direction: 'DEBIT' as const },
      { reference: '0000532412345679' },
      { narration: 'UPI-MOHAN DAS-532412345679-TOKEN' },
      { balance: '4363168.39' },
      { valueDate: '2025-11-21' },
    ]) {
      expect(key(line(change))).not.toBe(base);
    }
  });
});
