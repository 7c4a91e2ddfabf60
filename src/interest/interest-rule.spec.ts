import Decimal from 'decimal.js';
import fc from 'fast-check';
import {
  dayNumber,
  dayText,
  InterestTerms,
  payerInterest,
  SplitLedger,
  splitInterest,
  SCALED_PER_RUPEE,
  toPaisa,
} from './interest-rule';

/** An exact interest (the rule's `scaled`) in rupees, all its decimals, in decimal.js. */
const rupees = (scaled: bigint) =>
  new (Decimal.clone({ precision: 60 }))(scaled.toString())
    .div(SCALED_PER_RUPEE.toString())
    .toString();

/** The worked example of docs/interest.md: 11.10 % from 2025-04-01, grace 0. */
const ELEVEN_TEN: InterestTerms = {
  graceDays: 0,
  rates: [{ effectiveFrom: '2025-04-01', annualRatePercent: 11.1 }],
};
const WORKED: SplitLedger = {
  amount: '1000000.00',
  dueDate: '2026-01-01',
  payments: [
    { date: '2026-01-31', amount: '600000.00' },
    { date: '2026-03-02', amount: '400000.00' },
  ],
};

const brief = (ledger: SplitLedger, terms: InterestTerms, asOf: string) => {
  const r = splitInterest(ledger, terms, asOf);
  return {
    accrued: r.accrued,
    periods: r.periods.map((p) => [
      p.from,
      p.to,
      p.days,
      p.unpaid,
      p.annualRatePercent,
      p.interest,
    ]),
  };
};

describe('the rule of interest on late payment', () => {
  it('worked example: (6,00,000 x 30 + 4,00,000 x 60) x 11.10 / 100 / 365 = 12,772.60', () => {
    expect(brief(WORKED, ELEVEN_TEN, '2026-06-30')).toEqual({
      accrued: '12772.60',
      periods: [
        ['2026-01-02', '2026-01-31', 30, '1000000.00', '11.1', '9123.29'],
        ['2026-02-01', '2026-03-02', 30, '400000.00', '11.1', '3649.32'],
      ],
    });
  });

  it('worked example with 9 % from 2026-02-01: the 4,00,000 bears 30 days at each = 12,082.19', () => {
    const terms: InterestTerms = {
      graceDays: 0,
      rates: [
        { effectiveFrom: '2026-02-01', annualRatePercent: 9 },
        { effectiveFrom: '2025-04-01', annualRatePercent: 11.1 },
      ],
    };
    expect(brief(WORKED, terms, '2026-06-30')).toEqual({
      accrued: '12082.19',
      periods: [
        ['2026-01-02', '2026-01-31', 30, '1000000.00', '11.1', '9123.29'],
        ['2026-02-01', '2026-03-02', 30, '400000.00', '9', '2958.90'],
      ],
    });
  });

  it('sums exactly per split and rounds once, not per period', () => {
    // Two periods of exactly 0.004 each: 0.00 apiece when shown, 0.008 -> 0.01 for the split.
    const r = splitInterest(
      {
        amount: '14.60',
        dueDate: '2026-01-01',
        payments: [{ date: '2026-01-02', amount: '7.30' }],
      },
      {
        graceDays: 0,
        rates: [
          { effectiveFrom: '2025-01-01', annualRatePercent: 10 },
          { effectiveFrom: '2026-01-03', annualRatePercent: 20 },
        ],
      },
      '2026-01-03',
    );
    expect(r.periods.map((p) => [rupees(p.scaled), p.interest])).toEqual([
      ['0.004', '0.00'],
      ['0.004', '0.00'],
    ]);
    expect(r.accrued).toBe('0.01');
  });

  it('rounds half-up to paisa: exactly half a paisa is a paisa', () => {
    const r = splitInterest(
      { amount: '7.30', dueDate: '2026-01-01', payments: [] },
      { graceDays: 0, rates: [{ effectiveFrom: '2025-01-01', annualRatePercent: 25 }] },
      '2026-01-02',
    );
    // 7.30 x 1 x 25 / 36500 = 0.005 exactly: half a paisa
    expect(rupees(r.scaled)).toBe('0.005');
    expect(r.accrued).toBe('0.01');
    const below = splitInterest(
      { amount: '7.29', dueDate: '2026-01-01', payments: [] },
      { graceDays: 0, rates: [{ effectiveFrom: '2025-01-01', annualRatePercent: 25 }] },
      '2026-01-02',
    );
    expect(below.accrued).toBe('0.00');
  });

  it('charges from the day after dueDate + graceDays, through the payment date inclusive', () => {
    const terms = { ...ELEVEN_TEN, graceDays: 15 };
    const r = brief(WORKED, terms, '2026-06-30');
    expect(r.periods[0].slice(0, 3)).toEqual(['2026-01-17', '2026-01-31', 15]);
    expect(r.periods[1].slice(0, 3)).toEqual(['2026-02-01', '2026-03-02', 30]);
    // Paid on the last day of grace: nothing.
    const onTime = splitInterest(
      {
        amount: '100.00',
        dueDate: '2026-01-01',
        payments: [{ date: '2026-01-16', amount: '100.00' }],
      },
      terms,
      '2026-06-30',
    );
    expect(onTime.periods).toEqual([]);
    expect(onTime.accrued).toBe('0.00');
    // Paid on the first day after grace: one day.
    const oneDay = splitInterest(
      {
        amount: '36500.00',
        dueDate: '2026-01-01',
        payments: [{ date: '2026-01-17', amount: '36500.00' }],
      },
      { graceDays: 15, rates: [{ effectiveFrom: '2025-01-01', annualRatePercent: 10 }] },
      '2026-06-30',
    );
    expect(oneDay.accrued).toBe('10.00');
  });

  it('the part still unpaid at asOf bears interest through asOf; later receipts have not paid', () => {
    const r = brief(WORKED, ELEVEN_TEN, '2026-02-15');
    expect(r.periods).toEqual([
      ['2026-01-02', '2026-01-31', 30, '1000000.00', '11.1', '9123.29'],
      ['2026-02-01', '2026-02-15', 15, '400000.00', '11.1', '1824.66'],
    ]);
    // On the due date (or before it) nothing has accrued.
    expect(brief(WORKED, ELEVEN_TEN, '2026-01-01')).toEqual({ accrued: '0.00', periods: [] });
    expect(brief(WORKED, ELEVEN_TEN, '2025-12-01')).toEqual({ accrued: '0.00', periods: [] });
  });

  it('days before the first rate bear none; a rate takes effect on its effectiveFrom', () => {
    const terms: InterestTerms = {
      graceDays: 0,
      rates: [{ effectiveFrom: '2026-02-10', annualRatePercent: 12 }],
    };
    const r = brief(
      { amount: '1000.00', dueDate: '2026-01-01', payments: [] },
      terms,
      '2026-02-11',
    );
    expect(r.periods).toEqual([['2026-02-10', '2026-02-11', 2, '1000.00', '12', '0.66']]);
    // Rate changing on the day after a payment: separate periods, each at its own rate.
    const changing: InterestTerms = {
      graceDays: 0,
      rates: [
        { effectiveFrom: '2025-01-01', annualRatePercent: 10 },
        { effectiveFrom: '2026-01-11', annualRatePercent: 10 },
        { effectiveFrom: '2026-01-21', annualRatePercent: 8.5 },
      ],
    };
    // An unchanged rate re-stated is not a new period (maximal runs).
    expect(
      brief({ amount: '1000.00', dueDate: '2026-01-01', payments: [] }, changing, '2026-01-25')
        .periods,
    ).toEqual([
      ['2026-01-02', '2026-01-20', 19, '1000.00', '10', '5.21'],
      ['2026-01-21', '2026-01-25', 5, '1000.00', '8.5', '1.16'],
    ]);
  });

  it('uses 365 days in a leap year too (29 February is one more day at 1/365)', () => {
    const r = splitInterest(
      { amount: '36500.00', dueDate: '2028-02-28', payments: [] },
      { graceDays: 0, rates: [{ effectiveFrom: '2028-01-01', annualRatePercent: 10 }] },
      '2028-03-01',
    );
    expect(r.periods.map((p) => [p.from, p.to, p.days])).toEqual([['2028-02-29', '2028-03-01', 2]]);
    expect(r.accrued).toBe('20.00');
  });

  it('payments before the due date reduce what bears interest; overpayment bears none', () => {
    const r = brief(
      {
        amount: '1000.00',
        dueDate: '2026-01-01',
        payments: [
          { date: '2025-12-20', amount: '400.00' },
          { date: '2026-01-05', amount: '700.00' },
        ],
      },
      { graceDays: 0, rates: [{ effectiveFrom: '2025-01-01', annualRatePercent: 10 }] },
      '2026-03-01',
    );
    expect(r.periods).toEqual([['2026-01-02', '2026-01-05', 4, '600.00', '10', '0.66']]);
  });

  it('a zero rate is a rate: its days are periods bearing nothing', () => {
    const r = brief(
      { amount: '1000.00', dueDate: '2026-01-01', payments: [] },
      { graceDays: 0, rates: [{ effectiveFrom: '2025-01-01', annualRatePercent: 0 }] },
      '2026-01-03',
    );
    expect(r).toEqual({
      accrued: '0.00',
      periods: [['2026-01-02', '2026-01-03', 2, '1000.00', '0', '0.00']],
    });
  });
});

describe(payerInterest.name, () => {
  it('sums per payer; due = accrued - demanded - waived, never below 0', () => {
    const d = (v: string) => new Decimal(v);
    const rows = payerInterest(
      [
        { payerId: 'a', amount: d('100.01') },
        { payerId: 'b', amount: d('50.00') },
        { payerId: 'a', amount: d('0.99') },
      ],
      [
        { payerId: 'a', amount: '60.00' },
        { payerId: 'c', amount: '5.00' },
      ],
      [{ payerId: 'b', amount: '60.00' }],
    );
    expect(
      rows.map((r) => [
        r.payerId,
        r.accrued.toFixed(2),
        r.demanded.toFixed(2),
        r.waived.toFixed(2),
        r.due.toFixed(2),
      ]),
    ).toEqual([
      ['a', '101.00', '60.00', '0.00', '41.00'],
      ['b', '50.00', '0.00', '60.00', '0.00'],
      ['c', '0.00', '5.00', '0.00', '0.00'],
    ]);
  });
});

/**
 * Properties of the rule (fast-check). Dates are day offsets from 2024-01-01 so that leap days,
 * month ends and rate changes fall anywhere; amounts are paise; rates up to 4 decimals.
 */
describe('properties of the rule', () => {
  /** Wide enough for unpaid x days x rate exactly. */
  const Wide = (v: string) => new (Decimal.clone({ precision: 60 }))(v);
  const BASE = dayNumber('2024-01-01');
  const date = (offset: number) => dayText(BASE + offset);
  const money = (paise: number) => new Decimal(paise).div(100).toFixed(2);

  const rateArb = fc.record({
    offset: fc.integer({ min: 0, max: 900 }),
    tenThousandths: fc.integer({ min: 0, max: 360_000 }),
  });
  const termsArb = fc
    .record({
      graceDays: fc.integer({ min: 0, max: 90 }),
      rates: fc.uniqueArray(rateArb, { minLength: 0, maxLength: 5, selector: (r) => r.offset }),
    })
    .map(({ graceDays, rates }): InterestTerms => ({
      graceDays,
      rates: rates.map((r) => ({
        effectiveFrom: date(r.offset),
        annualRatePercent: new Decimal(r.tenThousandths).div(10_000).toString(),
      })),
    }));
  const caseArb = fc
    .record({
      amount: fc.integer({ min: 1, max: 10_000_000_000 }),
      due: fc.integer({ min: 0, max: 700 }),
      payments: fc.array(
        fc.record({
          offset: fc.integer({ min: 0, max: 1000 }),
          share: fc.integer({ min: 1, max: 100 }),
        }),
        { maxLength: 6 },
      ),
      asOf: fc.integer({ min: 0, max: 1100 }),
      terms: termsArb,
    })
    .map(({ amount, due, payments, asOf, terms }) => {
      // Shares of the amount, in paise; together at most the amount (as the API allows).
      const total = payments.reduce((a, p) => a + p.share, 0);
      const ledger: SplitLedger = {
        amount: money(amount),
        dueDate: date(due),
        payments: payments.map((p) => ({
          date: date(p.offset),
          amount: money(Math.max(1, Math.floor((amount * p.share) / Math.max(total, 100)))),
        })),
      };
      return { ledger, asOf: date(asOf), terms };
    });
  const RUNS = { numRuns: 300, seed: 20261126 };

  it('dayText is the calendar date of a day number, and dayNumber its inverse', () => {
    fc.assert(
      fc.property(fc.integer({ min: -719_162, max: 2_932_896 }), (day) => {
        const iso = new Date(day * 86_400_000).toISOString().slice(0, 10);
        expect(dayText(day)).toBe(iso);
        expect(dayNumber(dayText(day))).toBe(day);
      }),
      { numRuns: 2000, seed: 20261126 },
    );
  });

  it('paying earlier never raises interest', () => {
    fc.assert(
      fc.property(
        caseArb,
        fc.nat(),
        fc.integer({ min: 1, max: 400 }),
        ({ ledger, asOf, terms }, pick, earlier) => {
          fc.pre(ledger.payments.length > 0);
          const i = pick % ledger.payments.length;
          const moved = ledger.payments.map((p, j) =>
            j === i ? { ...p, date: dayText(dayNumber(p.date) - earlier) } : p,
          );
          const before = splitInterest(ledger, terms, asOf);
          const after = splitInterest({ ...ledger, payments: moved }, terms, asOf);
          expect(after.scaled <= before.scaled).toBe(true);
          expect(new Decimal(after.accrued).lte(before.accrued)).toBe(true);
        },
      ),
      RUNS,
    );
  });

  it('splitting one receipt into two on the same day changes nothing', () => {
    fc.assert(
      fc.property(
        caseArb,
        fc.nat(),
        fc.double({ min: 0, max: 1, noNaN: true }),
        ({ ledger, asOf, terms }, pick, cut) => {
          fc.pre(ledger.payments.length > 0);
          const i = pick % ledger.payments.length;
          const whole = new Decimal(ledger.payments[i].amount);
          const part = whole.times(cut).toDecimalPlaces(2, Decimal.ROUND_DOWN);
          const split = [
            ...ledger.payments.filter((_, j) => j !== i),
            { date: ledger.payments[i].date, amount: part.toFixed(2) },
            { date: ledger.payments[i].date, amount: whole.minus(part).toFixed(2) },
          ];
          const one = splitInterest(ledger, terms, asOf);
          const two = splitInterest({ ...ledger, payments: split }, terms, asOf);
          expect(two.accrued).toBe(one.accrued);
          expect(two.scaled).toBe(one.scaled);
          expect(two.periods).toEqual(one.periods);
        },
      ),
      RUNS,
    );
  });

  it("the periods' exact interest adds up to the exact accrued amount", () => {
    fc.assert(
      fc.property(caseArb, ({ ledger, asOf, terms }) => {
        const r = splitInterest(ledger, terms, asOf);
        const sum = r.periods.reduce((a, p) => a + p.scaled, 0n);
        expect(sum).toBe(r.scaled);
        expect(r.accrued).toBe(toPaisa(sum));
        // Rounded half-up from the exact sum: within half a paisa of it, never half below.
        const off = Wide(r.accrued).minus(Wide(rupees(sum)));
        expect(off.lte(0.005) && off.gt(-0.005)).toBe(true);
        for (const p of r.periods) {
          // In decimal.js, independently of the rule's BigInt: unpaid x days x rate / 36,500.
          const exact = Wide(p.unpaid).times(p.days).times(p.annualRatePercent).div(36_500);
          expect(Wide(rupees(p.scaled)).eq(exact)).toBe(true);
          expect(p.interest).toBe(toPaisa(p.scaled));
          expect(p.days).toBe(dayNumber(p.to) - dayNumber(p.from) + 1);
        }
        // Periods are disjoint, in order, after dueDate + graceDays and not after asOf.
        const first = dayNumber(ledger.dueDate) + terms.graceDays + 1;
        let next = first;
        for (const p of r.periods) {
          expect(dayNumber(p.from)).toBeGreaterThanOrEqual(next);
          next = dayNumber(p.to) + 1;
        }
        if (r.periods.length > 0) expect(next - 1).toBeLessThanOrEqual(dayNumber(asOf));
      }),
      RUNS,
    );
  });

  it('adding a rate from date E never alters interest on days before E', () => {
    fc.assert(
      fc.property(caseArb, rateArb, ({ ledger, asOf, terms }, added) => {
        const e = date(added.offset);
        fc.pre(!terms.rates.some((r) => r.effectiveFrom === e));
        const more: InterestTerms = {
          ...terms,
          rates: [
            ...terms.rates,
            {
              effectiveFrom: e,
              annualRatePercent: new Decimal(added.tenThousandths).div(10_000).toString(),
            },
          ],
        };
        // Up to the day before E: the same figures.
        const dayBefore = dayText(dayNumber(e) - 1);
        expect(splitInterest(ledger, more, dayBefore)).toEqual(
          splitInterest(ledger, terms, dayBefore),
        );
        // At any asOf: the same interest on the days before E, day by day.
        const beforeE = (periods: ReturnType<typeof splitInterest>['periods']) =>
          periods
            .filter((p) => dayNumber(p.from) < dayNumber(e))
            .map((p) => {
              const to = Math.min(dayNumber(p.to), dayNumber(e) - 1);
              const days = to - dayNumber(p.from) + 1;
              return [p.from, days, p.unpaid, p.annualRatePercent];
            });
        expect(beforeE(splitInterest(ledger, more, asOf).periods)).toEqual(
          beforeE(splitInterest(ledger, terms, asOf).periods),
        );
      }),
      RUNS,
    );
  });
});
