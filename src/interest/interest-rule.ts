import Decimal from 'decimal.js';

/**
 * The rule of interest on late payment (docs/interest.md), pure: no database, no clock.
 *
 * Per split of a covered demand and payer, with `start` = dueDate + graceDays: the part paid on
 * date d bears interest for each day t with start < t <= d, the part still unpaid at asOf for
 * each day start < t <= asOf; each day at rate(t) / 100 / 365 (365 in leap years too), rate(t)
 * being the rate in force on t (the latest `effectiveFrom` on or before t; none before the first,
 * so those days bear nothing). Summed exactly per split, rounded half-up to paisa once.
 *
 * So on day t the amount bearing interest is the split's amount less everything paid before t
 * (never below zero), and the split's interest is a sum of `unpaid x days x rate` over runs of
 * days, divided once by 36,500. Those products are exact in decimals (money has 2 decimals, rates
 * at most 4, days are whole), which is what `scaled` carries; the one division happens at the
 * end, at a precision far beyond what rounding to paisa needs.
 */

/** Exact enough: every product here fits in about 30 significant digits. */
const Exact = Decimal.clone({ precision: 80, rounding: Decimal.ROUND_HALF_UP });

/** rate % / 100 / 365: interest = unpaid x days x rate / DIVISOR. */
export const DIVISOR = 36_500;

const DAY_MS = 86_400_000;

/** Days since 1970-01-01 of a `YYYY-MM-DD` date (already validated). */
export function dayNumber(date: string): number {
  return (
    Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) /
    DAY_MS
  );
}

/** The `YYYY-MM-DD` date of a day number. */
export function dayText(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

export interface PolicyRate {
  effectiveFrom: string;
  annualRatePercent: string | number;
}

/** The terms of the tenant's policy that the rule needs. */
export interface InterestTerms {
  graceDays: number;
  /** In any order; no two with one effectiveFrom (the policy's validation refuses that). */
  rates: readonly PolicyRate[];
}

/** What a split owes and what paid it: receipts paying at asOf, by received date. */
export interface SplitLedger {
  amount: string;
  dueDate: string;
  /** Several on one date are fine; dates after asOf are ignored. */
  payments: readonly { date: string; amount: string }[];
}

/** A maximal run of consecutive charged days with one unpaid amount and one rate. */
export interface InterestPeriod {
  /** First and last charged day, inclusive. */
  from: string;
  to: string;
  days: number;
  unpaid: Decimal;
  annualRatePercent: Decimal;
  /** unpaid x days x annualRatePercent: the period's exact interest times 36,500. */
  scaled: Decimal;
  /** The exact interest rounded half-up to paisa: for reading only. */
  interest: Decimal;
}

export interface SplitInterest {
  periods: InterestPeriod[];
  /** The split's exact interest times 36,500 (the sum of its periods' `scaled`). */
  scaled: Decimal;
  /** The exact interest rounded half-up to paisa, once. */
  accrued: Decimal;
}

/** An exact interest (times 36,500) in rupees, rounded half-up to paisa. */
export function toPaisa(scaled: Decimal): Decimal {
  return new Exact(scaled).div(DIVISOR).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
}

/** The interest of one split at `asOf` under `terms`. */
export function splitInterest(
  ledger: SplitLedger,
  terms: InterestTerms,
  asOf: string,
): SplitInterest {
  const first = dayNumber(ledger.dueDate) + terms.graceDays + 1;
  const last = dayNumber(asOf);
  const periods: InterestPeriod[] = [];
  if (last < first) return { periods, scaled: new Exact(0), accrued: new Exact(0) };

  const amount = new Exact(ledger.amount);
  // What was paid on day d stops bearing interest from d + 1.
  const steps = ledger.payments
    .map((p) => ({ day: dayNumber(p.date) + 1, amount: new Exact(p.amount) }))
    .filter((s) => s.day <= last + 1)
    .sort((a, b) => a.day - b.day);
  const rates = [...terms.rates]
    .map((r) => ({
      day: dayNumber(r.effectiveFrom),
      percent: new Exact(String(r.annualRatePercent)),
    }))
    .sort((a, b) => a.day - b.day);

  // The days in [first, last] where the unpaid amount or the rate may change.
  const changes = new Set<number>([first]);
  for (const s of steps) if (s.day > first && s.day <= last) changes.add(s.day);
  for (const r of rates) if (r.day > first && r.day <= last) changes.add(r.day);
  const starts = [...changes].sort((a, b) => a - b);

  let paid = new Exact(0);
  let step = 0;
  let rate = -1;
  for (const [i, from] of starts.entries()) {
    const to = i + 1 < starts.length ? starts[i + 1] - 1 : last;
    while (step < steps.length && steps[step].day <= from) paid = paid.plus(steps[step++].amount);
    while (rate + 1 < rates.length && rates[rate + 1].day <= from) rate++;
    const unpaid = Exact.max(amount.minus(paid), 0);
    if (rate < 0 || unpaid.isZero()) continue;
    const percent = rates[rate].percent;
    const previous = periods[periods.length - 1];
    if (
      previous &&
      dayNumber(previous.to) === from - 1 &&
      previous.unpaid.eq(unpaid) &&
      previous.annualRatePercent.eq(percent)
    ) {
      previous.to = dayText(to);
      previous.days += to - from + 1;
    } else {
      periods.push({
        from: dayText(from),
        to: dayText(to),
        days: to - from + 1,
        unpaid,
        annualRatePercent: percent,
        scaled: new Exact(0),
        interest: new Exact(0),
      });
    }
  }
  let scaled = new Exact(0);
  for (const p of periods) {
    p.scaled = p.unpaid.times(p.days).times(p.annualRatePercent);
    p.interest = toPaisa(p.scaled);
    scaled = scaled.plus(p.scaled);
  }
  return { periods, scaled, accrued: toPaisa(scaled) };
}

/** One payer's interest on a booking. */
export interface PayerInterest {
  payerId: string;
  accrued: Decimal;
  demanded: Decimal;
  waived: Decimal;
  /** accrued - demanded - waived, never below 0. */
  due: Decimal;
}

export interface PayerAmount {
  payerId: string;
  amount: Decimal | string;
}

/**
 * Per payer: what accrued (the sum of its splits' rounded interest), was demanded and was waived,
 * and what is due. Payers in order of first appearance: splits, then demands, then waivers.
 */
export function payerInterest(
  accrued: readonly PayerAmount[],
  demanded: readonly PayerAmount[],
  waived: readonly PayerAmount[],
): PayerInterest[] {
  const payers = new Map<string, PayerInterest>();
  const payer = (payerId: string) => {
    let p = payers.get(payerId);
    if (!p) {
      p = {
        payerId,
        accrued: new Exact(0),
        demanded: new Exact(0),
        waived: new Exact(0),
        due: new Exact(0),
      };
      payers.set(payerId, p);
    }
    return p;
  };
  for (const a of accrued) payer(a.payerId).accrued = payer(a.payerId).accrued.plus(a.amount);
  for (const d of demanded) payer(d.payerId).demanded = payer(d.payerId).demanded.plus(d.amount);
  for (const w of waived) payer(w.payerId).waived = payer(w.payerId).waived.plus(w.amount);
  for (const p of payers.values())
    p.due = Exact.max(p.accrued.minus(p.demanded).minus(p.waived), 0);
  return [...payers.values()];
}
