import { defineProblem } from '@/common/app-error';

/** Errors of interest on late payment (docs/interest.md). */

/** PUT /tenant/interest-policy with an If-Match that is not the current ETag. */
export const INTEREST_POLICY_CHANGED = defineProblem({
  status: 412,
  code: 'INTEREST_POLICY_CHANGED',
  detail: () =>
    'The interest policy changed since it was read (If-Match does not match the current ETag); GET it again and retry.',
  example: [],
});

/** An interest demand while the tenant's policy is disabled. */
export const INTEREST_DISABLED = defineProblem({
  status: 422,
  code: 'INTEREST_DISABLED',
  detail: () =>
    "The tenant's interest policy is disabled (PUT /tenant/interest-policy enables it); no interest is due.",
  example: [],
});

/** asOf not after the period an earlier interest demand (not cancelled) already billed. */
export const INTEREST_ALREADY_DEMANDED = defineProblem({
  status: 422,
  code: 'INTEREST_ALREADY_DEMANDED',
  detail: (asOf: string, through: string) =>
    `Interest on this booking is already demanded through ${through}; asOf ${asOf} must be after it (no interest is billed twice).`,
  example: ['2026-09-30', '2026-09-30'],
});

/** Nothing is due from any payer of the booking at asOf. */
export const NO_INTEREST_DUE = defineProblem({
  status: 422,
  code: 'NO_INTEREST_DUE',
  detail: (asOf: string) => `No interest is due on this booking at ${asOf}; nothing was demanded.`,
  example: ['2026-09-30'],
});

/** A waiver of more than the payer's interest due today. */
export const WAIVER_EXCEEDS_DUE = defineProblem({
  status: 422,
  code: 'WAIVER_EXCEEDS_DUE',
  detail: (amount: string, due: string) =>
    `The waiver of ${amount} exceeds the ${due} of interest this payer owes on the booking today; nothing was waived.`,
  example: ['5000.00', '4210.55'],
});
