import { paiseText, toPaise } from '@/common/money/paise';
import { PolicyRate, splitInterest, toPaisa } from '@/interest/interest-rule';
import type { InitiatedBy } from './cancellation-quote';

/**
 * The interest a developer owes on a refund (RERA prescribes one rate both ways), pure: the
 * interest policy's dated rates per day exactly as the buyer is charged on late dues (docs/interest.md), with
 * no grace days, the exact sum rounded half-up to the paisa once.
 *
 * - BUYER (the buyer withdrew or defaulted): on the refund, for each day after `dueDate` through
 *   `paidOn`; nothing when paid by the due date.
 * - PROMOTER_DEFAULT (RERA section 18): on every ACTIVE receipt's whole amount, for each day after
 *   it was received through `paidOn`.
 *
 * `rates` null: the interest policy is disabled, and no interest is owed either way.
 */
export function refundInterest(input: {
  initiatedBy: InitiatedBy;
  /** Paise. */
  refund: bigint;
  dueDate: string;
  paidOn: string;
  receipts: readonly { amount: string; receivedDate: string }[];
  rates: readonly PolicyRate[] | null;
}): bigint {
  if (input.rates === null) return 0n;
  const terms = { graceDays: 0, rates: input.rates };
  const owed =
    input.initiatedBy === 'BUYER'
      ? [{ amount: paiseText(input.refund), from: input.dueDate }]
      : input.receipts.map((r) => ({ amount: r.amount, from: r.receivedDate }));
  const scaled = owed.reduce(
    (sum, o) =>
      sum +
      splitInterest({ amount: o.amount, dueDate: o.from, payments: [] }, terms, input.paidOn)
        .scaled,
    0n,
  );
  return toPaise(toPaisa(scaled));
}
