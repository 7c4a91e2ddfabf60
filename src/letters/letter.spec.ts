import Decimal from 'decimal.js';
import { TenantContext } from '@/common/tenant-context';
import { LetterInput, letterFigures, nothingPayable, overdueSince, payableLetter } from './letter';

describe('overdueSince', () => {
  it('is the due date when it is before the letter date', () => {
    expect(overdueSince('2026-07-15', '2026-11-28')).toBe('2026-07-15');
    expect(overdueSince('2026-11-27', '2026-11-28')).toBe('2026-11-27');
  });

  it('is null on the due date and before it', () => {
    expect(overdueSince('2026-11-28', '2026-11-28')).toBeNull();
    expect(overdueSince('2026-12-15', '2026-11-28')).toBeNull();
  });
});

describe('a letter with nothing payable', () => {
  const tenant: TenantContext = {
    tenantId: 't',
    tenantKey: 'acme',
    currency: 'INR',
    locale: 'en-IN',
    timezone: 'Asia/Kolkata',
    fyStartMonth: 4,
    actor: 'tester',
  };
  const input = (owed: LetterInput['owed'], interestDue = '0'): LetterInput => ({
    tenantName: 'Acme',
    asOf: '2026-11-28',
    demand: { id: 'd1', dueDate: '2026-07-15' } as LetterInput['demand'],
    booking: { id: 'b', bookingNumber: 'BKG/1', unit: 'u', buyerName: 'A', agreementValue: null },
    payer: { payerId: 'bank', payerType: 'BANK' },
    owed,
    interestDue: new Decimal(interestDue),
    payTo: null,
  });

  it('is none: a paid demand with no previous dues or interest', () => {
    const paid = input([
      { demand: 'd1', payerId: 'bank', dueDate: '2026-07-15', outstanding: '0' },
    ]);
    expect(nothingPayable(letterFigures(paid))).toBe(true);
    expect(payableLetter(paid, tenant)).toBeNull();
    // Another payer's dues are not this payer's.
    const others = input([
      { demand: 'd0', payerId: 'buyer', dueDate: '2026-01-01', outstanding: '5' },
    ]);
    expect(payableLetter(others, tenant)).toBeNull();
  });

  it('is a letter when anything is payable: this demand, previous dues or interest alone', () => {
    const cases = [
      input([{ demand: 'd1', payerId: 'bank', dueDate: '2026-07-15', outstanding: '0.01' }]),
      input([{ demand: 'd0', payerId: 'bank', dueDate: '2026-01-01', outstanding: '10' }]),
      input([], '0.01'),
    ];
    for (const c of cases) {
      expect(nothingPayable(letterFigures(c))).toBe(false);
      expect(payableLetter(c, tenant)?.totalPayable.formatted).not.toBe('0.00');
    }
  });
});
