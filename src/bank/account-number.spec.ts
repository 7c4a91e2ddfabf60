import { maskAccountNumber, maskAccountNumberIn, normaliseAccountNumber } from './account-number';

describe('account numbers', () => {
  it('masks all but the last four characters', () => {
    expect(maskAccountNumber('502000123412')).toBe('XXXXXXXX3412');
    expect(maskAccountNumber('DE89370400440532013000')).toBe('XXXXXXXXXXXXXXXXXX3000');
  });

  it('compares identifiers without separators, in upper case', () => {
    expect(normaliseAccountNumber('HDFCINBB/5020 0012-3456 78')).toBe('HDFCINBB50200012345678');
    expect(normaliseAccountNumber('de89 3704 0044')).toBe('DE8937040044');
  });

  it('masks the number in a failed query before it is logged', () => {
    const error = Object.assign(new Error('new row violates check "bank_accounts_name_check"'), {
      parameters: ['t1', 'HDFC', '50200012345678', null, 'INR', 'alice'],
      driverError: { detail: 'Failing row contains (t1, x, HDFC, 50200012345678, null, INR).' },
    });
    maskAccountNumberIn(error, '50200012345678');
    expect(JSON.stringify({ ...error, message: error.message, stack: error.stack })).not.toContain(
      '50200012345678',
    );
    expect(error.parameters[2]).toBe('XXXXXXXXXX5678');
    expect(error.driverError.detail).toContain('XXXXXXXXXX5678');
  });
});
