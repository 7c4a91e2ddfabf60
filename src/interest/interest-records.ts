import { paiseText } from '@/common/money/paise';
import { BookingRecords, splitsOwingOn } from '@/ledger/as-of';
import type { InterestRow, InterestTermsRow } from './interest.sql';

/**
 * The interest's input for one booking at asOf, pure: the splits the policy covers that owe on
 * asOf, each with the receipts that had paid it then (the ledger's rules, as-of.ts), and the
 * booking's interest demands; the terms (policy, waivers) as INTEREST_SQL read them.
 *
 * - Covered (only while the policy is enabled): demands of a type the policy covers (never
 *   INTEREST: interest bears no interest), splits of a payer type it covers.
 * - Interest demands (those with an interestThrough), one entry per split, whatever asOf: the
 *   caller decides which count (bookingInterest).
 */
export function interestRow(
  records: BookingRecords,
  terms: InterestTermsRow | undefined,
  asOf: string,
): InterestRow {
  const policy = terms?.policy ?? null;
  const covered = policy?.enabled
    ? splitsOwingOn(records, asOf).filter(
        (s) =>
          s.demand.type !== 'INTEREST' &&
          policy.demand_types.includes(s.demand.type) &&
          policy.payer_types.includes(s.split.payerType),
      )
    : [];
  return {
    id: records.id,
    booking_number: records.booking_number,
    unit_id: records.unit_id,
    buyer_name: records.buyer_name,
    status: records.status,
    policy,
    splits: covered.map((s) => ({
      id: s.split.id,
      demand: s.demand.id,
      demandNumber: s.demand.number,
      payerType: s.split.payerType,
      payerId: s.split.payerId,
      dueDate: s.demand.dueDate,
      amount: s.split.amount,
      payments: s.payments.map((p) => ({ date: p.date, amount: paiseText(p.amount) })),
    })),
    demanded: records.demands
      .filter((d) => d.type === 'INTEREST' && d.interestThrough !== null)
      .flatMap((d) =>
        d.splits.map((s) => ({
          demand: d.id,
          demandDate: d.date,
          interestThrough: d.interestThrough as string,
          cancelledOn: d.cancelledOn,
          payerId: s.payerId,
          // Interest demanded counts by its consideration; its tax is billed on top.
          amount: s.consideration,
        })),
      ),
    waivers: terms?.waivers ?? [],
  };
}
