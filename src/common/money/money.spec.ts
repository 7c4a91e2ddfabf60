import Decimal from 'decimal.js';
import fc from 'fast-check';
import { currencySymbol, toMoney } from '@/common/money/money';

describe('toMoney', () => {
  it('groups en-IN amounts in lakhs and crores with two decimals', () => {
    expect(toMoney('150000', 'INR', 'en-IN').formatted).toBe('1,50,000.00');
    expect(toMoney('12345678.9', 'INR', 'en-IN').formatted).toBe('1,23,45,678.90');
  });

  it('groups en-US amounts in thousands', () => {
    expect(toMoney('150000', 'USD', 'en-US').formatted).toBe('150,000.00');
    expect(toMoney('1234567.05', 'USD', 'en-US').formatted).toBe('1,234,567.05');
  });

  it('returns the amount as a number with at most two decimals', () => {
    const m = toMoney('1500.50', 'INR', 'en-IN');
    expect(m.amount).toBe(1500.5);
    expect(JSON.stringify(m.amount)).toBe('1500.5');
  });

  it('formats exactly from the decimal string, beyond float precision', () => {
    // 9,999,999,999,999,999.99 is not representable as a double.
    expect(toMoney('9999999999999999.99', 'USD', 'en-US').formatted).toBe(
      '9,999,999,999,999,999.99',
    );
    expect(toMoney(new Decimal('0.1').plus('0.2'), 'INR', 'en-IN').formatted).toBe('0.30');
  });

  it('gives the same Money for database text (numeric(18,2)) as for the Decimal it holds', () => {
    const text = fc
      .tuple(
        fc.boolean(),
        fc.bigInt({ min: 0n, max: 10n ** 16n - 1n }),
        fc.integer({ min: 0, max: 99 }),
      )
      .map(([neg, units, cents]) => `${neg ? '-' : ''}${units}.${String(cents).padStart(2, '0')}`)
      .filter((t) => t !== '-0.00');
    fc.assert(
      fc.property(text, fc.constantFrom('en-IN', 'en-US', 'de-DE'), (amount, locale) => {
        expect(toMoney(amount, 'INR', locale)).toEqual(toMoney(new Decimal(amount), 'INR', locale));
      }),
    );
  });

  it('knows the rupee symbol and falls back to the narrow symbol of other currencies', () => {
    expect(toMoney('1', 'INR', 'en-IN').currencySymbol).toBe('₹');
    expect(currencySymbol('USD', 'en-US')).toBe('$');
    expect(toMoney('1', 'INR', 'en-IN').currency).toBe('INR');
  });
});
