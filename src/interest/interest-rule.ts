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
 * at most 4, days are whole), which is what `scaled` carries (decimal.js with enough digits that
 * no product or sum is ever rounded); the one division is the rounding to paisa at the end.
 */

/**
 * Exact for every product and sum here: unpaid (at most 16 digits with its 2 decimals) x days
 * (at most 7) x rate (at most 6 with its 4 decimals) has at most 29 significant digits, and a
 * split's sum a few more. Forty digits also divide by 36,500 exactly enough to round to paisa:
 * the quotient's integer part has at most 25 digits, and an exact half paisa has at most 9
 * decimals, while a quotient that is not one is at least 10^-13 rupee away from it.
 */
const Exact = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });

/** rate % / 100 / 365: interest = unpaid x days x rate / DIVISOR. */
export const DIVISOR = 36_500;

/**
 * Days since 1970-01-01 of a `YYYY-MM-DD` date (already validated; proleptic Gregorian, H.
 * Hinnant's days_from_civil: arithmetic only, and right for years below 100 too, which
 * Date.UTC maps to the 1900s).
 */
export function dayNumber(date: string): number {
  const m = Number(date.slice(5, 7));
  const d = Number(date.slice(8, 10));
  const y = Number(date.slice(0, 4)) - (m <= 2 ? 1 : 0);
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m > 2 ? m - 3 : m + 9) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/**
 * The `YYYY-MM-DD` date of a day number (proleptic Gregorian, H. Hinnant's civil_from_days:
 * arithmetic only, as the periods of a booking need hundreds of these).
 */
export function dayText(day: number): string {
  const z = day + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  return `${String(y).padStart(4, '0')}-${m < 10 ? '0' : ''}${m}-${d < 10 ? '0' : ''}${d}`;
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

/** Terms read once for many splits: rates by day, oldest first. */
export interface PreparedTerms {
  prepared: true;
  graceDays: number;
  rates: { day: number; rate: Decimal; percent: string }[];
}

export function prepareTerms(terms: InterestTerms): PreparedTerms {
  return {
    prepared: true,
    graceDays: terms.graceDays,
    rates: terms.rates
      .map((r) => ({
        day: dayNumber(r.effectiveFrom),
        rate: new Exact(String(r.annualRatePercent)),
        percent: String(r.annualRatePercent),
      }))
      .sort((a, b) => a.day - b.day),
  };
}

/** What a split owes and what paid it: receipts paying at asOf, by received date. */
export interface SplitLedger {
  /** Money text with at most two decimals, as numeric(18,2) columns read. */
  amount: string;
  dueDate: string;
  /** Several on one date are fine; dates after asOf are ignored. */
  payments: readonly { date: string; amount: string }[];
}

/**
 * Money and rates come out as decimal text, which is what the view's Money objects are made from;
 * the exact interest comes out as `scaled` (interest x 36,500).
 */

/** A maximal run of consecutive charged days with one unpaid amount and one rate. */
export interface InterestPeriod {
  /** First and last charged day, inclusive. */
  from: string;
  to: string;
  days: number;
  /** Two decimals. */
  unpaid: string;
  /** As in the policy (at most 4 decimals). */
  annualRatePercent: string;
  /** unpaid x days x annualRatePercent: the period's exact interest times 36,500. */
  scaled: Decimal;
  /** The exact interest rounded half-up to paisa (two decimals): for reading only. */
  interest: string;
}

export interface SplitInterest {
  periods: InterestPeriod[];
  /** The split's exact interest times 36,500 (the sum of its periods' `scaled`). */
  scaled: Decimal;
  /** The exact interest rounded half-up to paisa, once (two decimals). */
  accrued: string;
}

/** An exact interest (times 36,500) in rupees, rounded half-up to paisa, as two-decimal text. */
export function toPaisa(scaled: Decimal): string {
  return paisa(new Exact(scaled));
}

/** toPaisa of a decimal already made by Exact (its own precision governs the division). */
const paisa = (scaled: Decimal) => scaled.div(DIVISOR).toFixed(2, Decimal.ROUND_HALF_UP);

interface Run {
  from: number;
  to: number;
  unpaid: Decimal;
  rate: number;
}

/** The interest of one split at `asOf` under `terms` (prepared once for many splits, or not). */
export function splitInterest(
  ledger: SplitLedger,
  terms: InterestTerms | PreparedTerms,
  asOf: string,
): SplitInterest {
  const prepared = isPrepared(terms) ? terms : prepareTerms(terms);
  const first = dayNumber(ledger.dueDate) + prepared.graceDays + 1;
  const last = dayNumber(asOf);
  if (last < first) return { periods: [], scaled: new Exact(0), accrued: '0.00' };

  const amount = new Exact(ledger.amount);
  // What was paid on day d stops bearing interest from d + 1.
  const steps = ledger.payments
    .map((p) => ({ day: dayNumber(p.date) + 1, amount: p.amount }))
    .filter((s) => s.day <= last + 1)
    .sort((a, b) => a.day - b.day);
  const rates = prepared.rates;

  // The days in [first, last] where the unpaid amount or the rate may change.
  const changes = [first];
  for (const s of steps) if (s.day > first && s.day <= last) changes.push(s.day);
  for (const r of rates) if (r.day > first && r.day <= last) changes.push(r.day);
  changes.sort((a, b) => a - b);
  const starts = changes.filter((day, i) => i === 0 || day !== changes[i - 1]);

  const runs: Run[] = [];
  let unpaid = amount;
  let step = 0;
  let rate = -1;
  for (let i = 0; i < starts.length; i++) {
    const from = starts[i];
    const to = i + 1 < starts.length ? starts[i + 1] - 1 : last;
    while (step < steps.length && steps[step].day <= from) {
      unpaid = unpaid.minus(steps[step++].amount);
    }
    while (rate + 1 < rates.length && rates[rate + 1].day <= from) rate++;
    if (rate < 0 || unpaid.lte(0)) continue;
    const previous = runs[runs.length - 1];
    if (
      previous &&
      previous.to === from - 1 &&
      previous.unpaid.eq(unpaid) &&
      rates[previous.rate].rate.eq(rates[rate].rate)
    ) {
      previous.to = to;
    } else {
      runs.push({ from, to, unpaid, rate });
    }
  }

  let total = new Exact(0);
  const periods = runs.map((run): InterestPeriod => {
    const days = run.to - run.from + 1;
    const scaled = run.unpaid.times(days).times(rates[run.rate].rate);
    total = total.plus(scaled);
    return {
      from: dayText(run.from),
      to: dayText(run.to),
      days,
      unpaid: run.unpaid.toFixed(2),
      annualRatePercent: rates[run.rate].percent,
      scaled,
      interest: paisa(scaled),
    };
  });
  return { periods, scaled: total, accrued: paisa(total) };
}

function isPrepared(terms: InterestTerms | PreparedTerms): terms is PreparedTerms {
  return 'prepared' in terms;
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
        accrued: new Decimal(0),
        demanded: new Decimal(0),
        waived: new Decimal(0),
        due: new Decimal(0),
      };
      payers.set(payerId, p);
    }
    return p;
  };
  for (const a of accrued) payer(a.payerId).accrued = payer(a.payerId).accrued.plus(a.amount);
  for (const d of demanded) payer(d.payerId).demanded = payer(d.payerId).demanded.plus(d.amount);
  for (const w of waived) payer(w.payerId).waived = payer(w.payerId).waived.plus(w.amount);
  for (const p of payers.values())
    p.due = Decimal.max(p.accrued.minus(p.demanded).minus(p.waived), 0);
  return [...payers.values()];
}
