import { maskAccountNumber, normaliseAccountNumber } from './account-number';

describe('account numbers', () => {
  it('masks all but the last four characters', () => {
    expect(maskAccountNumber('502000123412')).toBe('XXXXXXXX3412');
    expect(maskAccountNumber('DE89370400440532013000')).toBe('XXXXXXXXXXXXXXXXXX3000');
  });

  it('compares identifiers without separators, in upper case', () => {
    expect(normaliseAccountNumber('HDFCINBB/5020 0012-3456 78')).toBe('HDFCINBB50200012345678');
    expect(normaliseAccountNumber('de89 3704 0044')).toBe('DE8937040044');
  });
});
