import { isLocalDateString, moneyAmountProblem } from '@/common/field-validators';

describe(moneyAmountProblem.name, () => {
  it('accepts positive numbers with at most two decimals', () => {
    for (const ok of [1, 0.01, 100.5, 1500.75, 9999999999999.99, 0.3]) {
      expect(moneyAmountProblem(ok)).toBeNull();
    }
  });

  it('refuses three decimals, zero, negatives, non-numbers and huge amounts', () => {
    expect(moneyAmountProblem(10.123)).toMatch(/2 decimal/);
    expect(moneyAmountProblem(1e-7)).toMatch(/2 decimal/);
    expect(moneyAmountProblem(0.1 + 0.2)).toMatch(/2 decimal/); // 0.30000000000000004
    expect(moneyAmountProblem(0)).toMatch(/greater than 0/);
    expect(moneyAmountProblem(-5)).toMatch(/greater than 0/);
    expect(moneyAmountProblem('100')).toMatch(/number/);
    expect(moneyAmountProblem(Number.NaN)).toMatch(/number/);
    expect(moneyAmountProblem(Infinity)).toMatch(/number/);
    expect(moneyAmountProblem(10_000_000_000_000)).toMatch(/exceed/);
  });
});

describe(isLocalDateString.name, () => {
  it('accepts real calendar dates only', () => {
    expect(isLocalDateString('2026-03-31')).toBe(true);
    expect(isLocalDateString('2028-02-29')).toBe(true);
    expect(isLocalDateString('2026-02-29')).toBe(false);
    expect(isLocalDateString('2026-13-01')).toBe(false);
    expect(isLocalDateString('2026-4-1')).toBe(false);
    expect(isLocalDateString('2026-04-01T00:00:00Z')).toBe(false);
    expect(isLocalDateString(20260401)).toBe(false);
  });
});
