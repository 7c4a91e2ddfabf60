import { defineProblem } from '@/common/app-error';

/** Errors of one payment over many dues (POST /bookings/{id}/payments). */

/**
 * The payment is more than the payer still owes on the booking, or a listed amount is more than
 * its split's pending amount.
 */
export const PAYMENT_EXCEEDS_OUTSTANDING = defineProblem({
  status: 422,
  code: 'PAYMENT_EXCEEDS_OUTSTANDING',
  detail: (amount: string, outstanding: string, what: string) =>
    `The payment ${amount} exceeds the ${outstanding} outstanding on ${what}; nothing was recorded.`,
  example: ['150000.00', '120000.00', 'the booking for this payer'],
});

/** The listed allocation amounts do not add up to the payment's amount. */
export const ALLOCATION_MISMATCH = defineProblem({
  status: 422,
  code: 'ALLOCATION_MISMATCH',
  detail: (sum: string, amount: string) =>
    `The allocation adds up to ${sum} but amount is ${amount}; they must be equal.`,
  example: ['100000.00', '150000.00'],
});

/** A listed split that this payment cannot pay: unknown, of another payer or booking, cancelled. */
export const ALLOCATION_INVALID = defineProblem({
  status: 422,
  code: 'ALLOCATION_INVALID',
  detail: (splitId: string, why: string) =>
    `Demand split ${splitId} cannot take this payment: ${why}; nothing was recorded.`,
  example: ['3f1c2a9e-8b7d-4e6f-9a1b-2c3d4e5f6a7b', 'it belongs to another payer'],
});
