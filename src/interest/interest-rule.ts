import Decimal from 'decimal.js';
import { paiseText, toPaise } from '@/common/money/paise';

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
 * days, divided once by 36,500. With money in paise and rates in ten-thousandths of a percent
 * (money has 2 decimals, rates at most 4, days are whole) those products are whole numbers, which
 * `scaled` carries in a BigInt: never rounded at any size, and a sum is one operation where
 * decimal.js allocated objects (a statement of account computes every split's interest per
 * request). The one division is the rounding to paisa at the end.
 */

/** rate % / 100 / 365: interest = unpaid x days x rate / DIVISOR. */
export const DIVISOR = 36_500;

/**
 * `scaled` per rupee of interest: unpaid in paise (x 100) times the rate in ten-thousandths of a
 * percent (x 10,000) times days is the interest times DIVISOR x 1,000,000.
 */
export const SCALED_PER_RUPEE = BigInt(DIVISOR) * 1_000_000n;
const SCALED_PER_PAISA = SCALED_PER_RUPEE / 100n;

/** `10.85` -> 108500n: a policy rate (0 to 36, at most 4 decimals) in ten-thousandths. */
const RATE_TEXT = /^(\d+)(?:\.(\d{1,4}))?$/;
function rateTenThousandths(percent: string): bigint {
  const m = RATE_TEXT.exec(percent);
  if (!m) throw new RangeError(`not a rate with at most four decimals: ${percent}`);
  return BigInt(m[1] + (m[2] ?? '').padEnd(4, '0'));
}

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
  /** `rate` in ten-thousandths of a percent. */
  rates: { day: number; rate: bigint; percent: string }[];
}

export function prepareTerms(terms: InterestTerms): PreparedTerms {
  return {
    prepared: true,
    graceDays: terms.graceDays,
    rates: terms.rates
      .map((r) => ({
        day: dayNumber(r.effectiveFrom),
        rate: rateTenThousandths(String(r.annualRatePercent)),
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
 * the exact interest comes out as `scaled` (interest x SCALED_PER_RUPEE).
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
  /** The period's exact interest times SCALED_PER_RUPEE (unpaid paise x days x rate). */
  scaled: bigint;
  /** The exact interest rounded half-up to paisa (two decimals): for reading only. */
  interest: string;
}

export interface SplitInterest {
  periods: InterestPeriod[];
  /** The split's exact interest times SCALED_PER_RUPEE (the sum of its periods' `scaled`). */
  scaled: bigint;
  /** The exact interest rounded half-up to paisa, once (two decimals). */
  accrued: string;
}

/** An exact interest (times SCALED_PER_RUPEE) rounded half-up to paisa, as two-decimal text. */
export function toPaisa(scaled: bigint): string {
  // Half-up: away from zero at exactly half a paisa (interest is never negative).
  const magnitude = scaled < 0n ? -scaled : scaled;
  const paise = (2n * magnitude + SCALED_PER_PAISA) / (2n * SCALED_PER_PAISA);
  return paiseText(scaled < 0n ? -paise : paise);
}

interface Run {
  from: number;
  to: number;
  /** Paise. */
  unpaid: bigint;
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
  if (last < first) return { periods: [], scaled: 0n, accrued: '0.00' };

  const amount = toPaise(ledger.amount);
  // What was paid on day d stops bearing interest from d + 1.
  const steps = ledger.payments
    .map((p) => ({ day: dayNumber(p.date) + 1, amount: toPaise(p.amount) }))
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
      unpaid -= steps[step++].amount;
    }
    while (rate + 1 < rates.length && rates[rate + 1].day <= from) rate++;
    if (rate < 0 || unpaid <= 0n) continue;
    const previous = runs[runs.length - 1];
    if (
      previous &&
      previous.to === from - 1 &&
      previous.unpaid === unpaid &&
      rates[previous.rate].rate === rates[rate].rate
    ) {
      previous.to = to;
    } else {
      runs.push({ from, to, unpaid, rate });
    }
  }

  let total = 0n;
  const periods = runs.map((run): InterestPeriod => {
    const days = run.to - run.from + 1;
    const scaled = run.unpaid * BigInt(days) * rates[run.rate].rate;
    total += scaled;
    return {
      from: dayText(run.from),
      to: dayText(run.to),
      days,
      unpaid: paiseText(run.unpaid),
      annualRatePercent: rates[run.rate].percent,
      scaled,
      interest: toPaisa(scaled),
    };
  });
  return { periods, scaled: total, accrued: toPaisa(total) };
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
