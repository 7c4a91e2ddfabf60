import Decimal from 'decimal.js';
import fc from 'fast-check';
import { paiseText, toPaise } from '@/common/money/paise';

describe('paise', () => {
  it('reads numeric text with zero, one or two decimals', () => {
    expect(toPaise('12.5')).toBe(1250n);
    expect(toPaise('100')).toBe(10000n);
    expect(toPaise('-0.07')).toBe(-7n);
    expect(toPaise('9999999999999999.99')).toBe(999999999999999999n);
  });

  it('refuses what is not money text', () => {
    for (const bad of ['', '1.234', '1e5', ' 1.00', '1.', '.5', '--1']) {
      expect(() => toPaise(bad)).toThrow(RangeError);
    }
  });

  it('prints what Decimal#toFixed(2) prints, and reads it back', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }), (paise) => {
        const text = paiseText(paise);
        expect(text).toBe(new Decimal(paise.toString()).div(100).toFixed(2));
        expect(toPaise(text)).toBe(paise);
      }),
    );
  });
});
