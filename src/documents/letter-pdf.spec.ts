import { letterIntro } from './letter-pdf';

describe('letterIntro', () => {
  const base = { buyerName: 'Ananya Iyer', dueDate: '2026-07-15', locale: 'en-IN' };

  it('a past due date: overdue since it and payable now, for the buyer and the bank', () => {
    for (const payerType of [null, 'BUYER', 'CO_BUYER', 'BANK']) {
      const text = letterIntro({ ...base, payerType, overdueSince: '2026-07-15' });
      expect(text).toContain('overdue since 15 Jul 2026');
      expect(text).toContain('payable now');
      expect(text).not.toContain('on or before');
    }
  });

  it('a due date ahead: on or before it', () => {
    for (const payerType of [null, 'BANK']) {
      const text = letterIntro({ ...base, payerType, overdueSince: null });
      expect(text).toContain('on or before 15 Jul 2026');
      expect(text).not.toContain('overdue');
    }
  });
});
