import { toPaise } from '@/common/money/paise';
import { refundInterest } from './refund-interest';

const RATES = [{ effectiveFrom: '2020-01-01', annualRatePercent: '11.10' }];
const RECEIPTS = [
  { amount: '840000.00', receivedDate: '2026-05-02' },
  { amount: '525000.00', receivedDate: '2026-06-05' },
  { amount: '59000.00', receivedDate: '2026-06-05' },
];

describe('refundInterest', () => {
  it('charges a late refund per day after its due date: the worked example', () => {
    const interest = refundInterest({
      initiatedBy: 'BUYER',
      refund: toPaise('1298000.00'),
      dueDate: '2026-08-04',
      paidOn: '2026-08-14',
      receipts: RECEIPTS,
      rates: RATES,
    });
    expect(interest).toBe(toPaise('3947.34'));
  });

  it('owes nothing for a refund paid on its due date, or under a disabled policy', () => {
    const base = {
      initiatedBy: 'BUYER' as const,
      refund: toPaise('1298000.00'),
      dueDate: '2026-08-04',
      receipts: RECEIPTS,
    };
    expect(refundInterest({ ...base, paidOn: '2026-08-04', rates: RATES })).toBe(0n);
    expect(refundInterest({ ...base, paidOn: '2026-08-05', rates: RATES })).toBe(toPaise('394.73'));
    expect(refundInterest({ ...base, paidOn: '2026-09-14', rates: null })).toBe(0n);
  });

  it('charges a developer at fault from each payment, summed exactly and rounded once', () => {
    const interest = refundInterest({
      initiatedBy: 'PROMOTER_DEFAULT',
      refund: toPaise('1424000.00'),
      dueDate: '2026-08-04',
      paidOn: '2026-08-14',
      receipts: RECEIPTS,
      rates: RATES,
    });
    // 104, 70 and 70 days at 11.10 %.
    expect(interest).toBe(toPaise('38999.01'));
  });

  it('follows the dated rates day by day', () => {
    const interest = refundInterest({
      initiatedBy: 'BUYER',
      refund: toPaise('365000.00'),
      dueDate: '2026-01-10',
      paidOn: '2026-01-20',
      receipts: [],
      rates: [
        { effectiveFrom: '2025-01-01', annualRatePercent: '10' },
        { effectiveFrom: '2026-01-16', annualRatePercent: '20' },
      ],
    });
    // 5 days at 100/day, 5 at 200/day.
    expect(interest).toBe(toPaise('1500.00'));
  });
});
