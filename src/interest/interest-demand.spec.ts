import Decimal from 'decimal.js';
import { planInterestDemand, RecordedInterest } from './interest-demand';

const interest = (overrides: Partial<RecordedInterest> = {}): RecordedInterest => ({
  enabled: true,
  demandedThrough: null,
  payers: [
    { payerId: 'p1', due: new Decimal('100.10') },
    { payerId: 'p2', due: new Decimal('0') },
    { payerId: 'p3', due: new Decimal('0.05') },
  ],
  splits: [
    {
      split: { payerId: 'p1', payerType: 'BUYER' },
      interest: { periods: [{ from: '2026-02-02' }] },
    },
    {
      split: { payerId: 'p3', payerType: 'CO_BUYER' },
      interest: { periods: [{ from: '2026-01-10' }] },
    },
  ],
  ...overrides,
});

describe('planInterestDemand', () => {
  it('bills each payer with something due, from the first day charged', () => {
    expect(planInterestDemand(interest(), '2026-06-30')).toEqual({
      kind: 'DEMAND',
      total: '100.15',
      from: '2026-01-10',
      splits: [
        { payerId: 'p1', payerType: 'BUYER', amount: '100.10' },
        { payerId: 'p3', payerType: 'CO_BUYER', amount: '0.05' },
      ],
    });
  });

  it('starts the day after the last day already billed', () => {
    const plan = planInterestDemand(interest({ demandedThrough: '2026-03-31' }), '2026-06-30');
    expect(plan).toMatchObject({ kind: 'DEMAND', from: '2026-04-01' });
  });

  it('refuses a disabled policy, a period already billed, and nothing due', () => {
    expect(planInterestDemand(interest({ enabled: false }), '2026-06-30')).toEqual({
      kind: 'DISABLED',
    });
    expect(planInterestDemand(interest({ demandedThrough: '2026-06-30' }), '2026-06-30')).toEqual({
      kind: 'ALREADY_DEMANDED',
      through: '2026-06-30',
    });
    expect(
      planInterestDemand(
        interest({ payers: [{ payerId: 'p1', due: new Decimal(0) }] }),
        '2026-06-30',
      ),
    ).toEqual({ kind: 'NOTHING_DUE' });
  });
});
