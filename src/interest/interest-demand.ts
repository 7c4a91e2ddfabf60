import Decimal from 'decimal.js';
import { dayNumber, dayText } from './interest-rule';

/** What of a booking's interest (interest.service.ts BookingInterest) the demand is built from. */
export interface RecordedInterest {
  enabled: boolean;
  /** The latest interestThrough of the booking's interest demands not cancelled now. */
  demandedThrough: string | null;
  payers: readonly { payerId: string; due: Decimal }[];
  splits: readonly {
    split: { payerId: string; payerType: string };
    interest: { periods: readonly { from: string }[] };
  }[];
}

/** What an interest demand bills, or why none can be raised. */
export type InterestDemandPlan =
  | { kind: 'DISABLED' }
  | { kind: 'ALREADY_DEMANDED'; through: string }
  | { kind: 'NOTHING_DUE' }
  | {
      kind: 'DEMAND';
      /** Two-decimal text: the sum of the splits. */
      total: string;
      /** The first day billed: the day after the last one billed, else the first day charged. */
      from: string;
      splits: { payerId: string; payerType: string; amount: string }[];
    };

/**
 * The interest demand of a booking through `asOf`, pure: from the booking's interest counted as
 * recorded (every interest demand not cancelled now and every waiver), one split per payer with
 * something due, in the order the payers first appear. Refused while the policy is disabled,
 * when `asOf` is not after the last day already billed, and when nothing is due.
 */
export function planInterestDemand(interest: RecordedInterest, asOf: string): InterestDemandPlan {
  if (!interest.enabled) return { kind: 'DISABLED' };
  if (interest.demandedThrough !== null && asOf <= interest.demandedThrough) {
    return { kind: 'ALREADY_DEMANDED', through: interest.demandedThrough };
  }
  const due = interest.payers.filter((p) => p.due.gt(0));
  if (due.length === 0) return { kind: 'NOTHING_DUE' };
  const payerType = new Map<string, string>();
  for (const { split } of interest.splits) {
    if (!payerType.has(split.payerId)) payerType.set(split.payerId, split.payerType);
  }
  const firstCharged = interest.splits
    .flatMap((s) => s.interest.periods.map((p) => p.from))
    .sort()[0];
  const from =
    interest.demandedThrough !== null
      ? dayText(dayNumber(interest.demandedThrough) + 1)
      : (firstCharged ?? asOf);
  return {
    kind: 'DEMAND',
    total: due.reduce((a, p) => a.plus(p.due), new Decimal(0)).toFixed(2),
    from,
    splits: due.map((p) => ({
      payerId: p.payerId,
      payerType: payerType.get(p.payerId) ?? 'BUYER',
      amount: p.due.toFixed(2),
    })),
  };
}
