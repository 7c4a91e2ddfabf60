import {
  parseAmount,
  parseBalance,
  parseDate,
  parseIsoDate,
  parseSwiftAmount,
  parseSwiftDate,
} from './values';

describe('statement values', () => {
  it('reads amounts with Indian and western grouping, blanks as null, else undefined', () => {
    expect(parseAmount('1,50,000.00')).toBe('150000.00');
    expect(parseAmount('150,000.5')).toBe('150000.50');
    expect(parseAmount(' 45,000.00 ')).toBe('45000.00');
    expect(parseAmount('0.0')).toBe('0.00');
    expect(parseAmount('007')).toBe('7.00');
    expect(parseAmount('')).toBeNull();
    expect(parseAmount('-')).toBeNull();
    expect(parseAmount('12.345')).toBeUndefined();
    expect(parseAmount('-500.00')).toBeUndefined();
    expect(parseAmount('1,50,000.0x')).toBeUndefined();
    expect(parseAmount('12345678901234567.00')).toBeUndefined();
  });

  it('reads balances with a sign or a trailing Cr/Dr', () => {
    expect(parseBalance('13,84,567.89')).toBe('1384567.89');
    expect(parseBalance('3,55,000.00(Cr)')).toBe('355000.00');
    expect(parseBalance('1,234.00 Dr')).toBe('-1234.00');
    expect(parseBalance('1,234.00DR')).toBe('-1234.00');
    expect(parseBalance('-1,234.00')).toBe('-1234.00');
    expect(parseBalance('0.00 Dr')).toBe('0.00');
    expect(parseBalance('')).toBeNull();
    expect(parseBalance('Cr')).toBeUndefined();
    expect(parseBalance('abc')).toBeUndefined();
  });

  it('reads each bank date form, ignoring a time after it, refusing impossible dates', () => {
    expect(parseDate('01/11/25', 'DD/MM/YY')).toBe('2025-11-01');
    expect(parseDate('03/11/2025', 'DD/MM/YYYY')).toBe('2025-11-03');
    expect(parseDate('03/11/2025 10:22:33', 'DD/MM/YYYY')).toBe('2025-11-03');
    expect(parseDate('1 Nov 2025', 'DD MMM YYYY')).toBe('2025-11-01');
    expect(parseDate('03-Nov-2025', 'DD-MMM-YYYY')).toBe('2025-11-03');
    expect(parseDate('05-11-2025', 'DD-MM-YYYY')).toBe('2025-11-05');
    expect(parseDate('2025-11-05', 'YYYY-MM-DD')).toBe('2025-11-05');
    expect(parseDate('30/02/25', 'DD/MM/YY')).toBeUndefined();
    expect(parseDate('2025-11-05', 'DD/MM/YY')).toBeUndefined();
    expect(parseDate('STATEMENT SUMMARY', 'DD/MM/YY')).toBeUndefined();
  });

  it('reads SWIFT and ISO 20022 values', () => {
    expect(parseSwiftAmount('1234567,89')).toBe('1234567.89');
    expect(parseSwiftAmount('590,')).toBe('590.00');
    expect(parseSwiftAmount('590.00')).toBeUndefined();
    expect(parseSwiftDate('251101')).toBe('2025-11-01');
    expect(parseSwiftDate('251131')).toBeUndefined();
    expect(parseIsoDate('2025-11-04T10:12:00')).toBe('2025-11-04');
    expect(parseIsoDate('04.11.2025')).toBeUndefined();
  });
});
