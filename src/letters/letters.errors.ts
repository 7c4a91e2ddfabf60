import { defineProblem } from '@/common/app-error';

/** Errors of demand letters, reminders and collection holds (docs/letters.md). */

/** A letter for a cancelled demand. */
export const LETTER_DEMAND_CANCELLED = defineProblem({
  status: 409,
  code: 'DEMAND_CANCELLED',
  detail: (demandId: string) => `Demand ${demandId} is cancelled; it has no letter.`,
  example: ['9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d'],
});

/**
 * A letter whose totalPayable is 0 (the demand, previous dues and interest all paid): it would
 * ask for nothing, and a bank would be asked to disburse zero.
 */
export const LETTER_NOTHING_PAYABLE = defineProblem({
  status: 409,
  code: 'NOTHING_PAYABLE',
  detail: (demandId: string, asOf: string) =>
    `Nothing is payable on demand ${demandId} at ${asOf} (its total payable is 0); it has no letter.`,
  example: ['9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d', '2026-11-30'],
});

/** payerId names nobody who pays a split of the demand. */
export const LETTER_PAYER_NOT_FOUND = defineProblem({
  status: 404,
  code: 'PAYER_NOT_FOUND',
  detail: (payerId: string, demandId: string) =>
    `Payer ${payerId} pays no split of demand ${demandId}.`,
  example: ['0d9c8b7a-6f5e-4d3c-9b2a-1f0e9d8c7b6a', '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d'],
});

/** PUT /tenant/reminder-policy with an If-Match that is not the current ETag. */
export const REMINDER_POLICY_CHANGED = defineProblem({
  status: 412,
  code: 'REMINDER_POLICY_CHANGED',
  detail: () =>
    'The reminder policy changed since it was read (If-Match does not match the current ETag); GET it again and retry.',
  example: [],
});

/** A second active hold on a booking. */
export const HOLD_ACTIVE = defineProblem({
  status: 409,
  code: 'HOLD_ACTIVE',
  detail: (bookingId: string, holdId: string) =>
    `Booking ${bookingId} already has an active collection hold (${holdId}); end it first.`,
  example: ['5b4a3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d', '7e6d5c4b-3a2f-4e1d-8c9b-0a1f2e3d4c5b'],
});

export const HOLD_NOT_FOUND = defineProblem({
  status: 404,
  code: 'HOLD_NOT_FOUND',
  detail: (holdId: string) => `Collection hold ${holdId} was not found on this booking.`,
  example: ['7e6d5c4b-3a2f-4e1d-8c9b-0a1f2e3d4c5b'],
});

/** Ending a hold that has already ended. */
export const HOLD_ENDED = defineProblem({
  status: 409,
  code: 'HOLD_ENDED',
  detail: (holdId: string) => `Collection hold ${holdId} has already ended.`,
  example: ['7e6d5c4b-3a2f-4e1d-8c9b-0a1f2e3d4c5b'],
});
