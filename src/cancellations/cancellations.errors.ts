import { defineProblem } from '@/common/app-error';

export const ALREADY_CANCELLED = defineProblem({
  status: 409,
  code: 'ALREADY_CANCELLED',
  detail: (record: 'Demand' | 'Booking', id: string) => `${record} ${id} is already cancelled.`,
  example: ['Demand', '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d'],
});

export const DEMAND_HAS_RECEIPTS = defineProblem({
  status: 409,
  code: 'DEMAND_HAS_RECEIPTS',
  detail: (id: string) => `Demand ${id} has ACTIVE receipts; cancel or bounce them first.`,
  example: ['9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d'],
});

export const BOOKING_HAS_RECEIPTS = defineProblem({
  status: 409,
  code: 'BOOKING_HAS_RECEIPTS',
  detail: (id: string) => `Booking ${id} has ACTIVE receipts; cancel or bounce them first.`,
  example: ['5b4a3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d'],
});

/** PUT /tenant/cancellation-policy with an If-Match that is not the current ETag. */
export const CANCELLATION_POLICY_CHANGED = defineProblem({
  status: 412,
  code: 'CANCELLATION_POLICY_CHANGED',
  detail: () =>
    'The cancellation policy changed since it was read (If-Match does not match the current ETag); GET it again and retry.',
  example: [],
});

/** A buyer's cancellation needs the agreement's value: the cap on what is kept is a share of it. */
export const AGREEMENT_VALUE_REQUIRED = defineProblem({
  status: 422,
  code: 'AGREEMENT_VALUE_REQUIRED',
  detail: (bookingId: string) =>
    `Booking ${bookingId} has no agreementValue: what the developer may keep when the buyer withdraws is a share of it. PATCH the booking first.`,
  example: ['5b4a3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d'],
});

export const CANCELLATION_NOT_FOUND = defineProblem({
  status: 404,
  code: 'CANCELLATION_NOT_FOUND',
  detail: (what: string) => `No cancellation ${what}.`,
  example: ['of booking 5b4a3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d'],
});

/** Income-tax section 269T: a refund of 20,000 or more is paid by account payee cheque, draft or bank. */
export const REFUND_MODE_NOT_ALLOWED = defineProblem({
  status: 422,
  code: 'REFUND_MODE_NOT_ALLOWED',
  detail: (mode: string, amount: string) =>
    `A refund of ${amount} cannot be paid by ${mode}: from 20,000.00 it goes through a bank (income-tax section 269T).`,
  example: ['CASH', '1298000.00'],
});

export const REFUND_ALREADY_PAID = defineProblem({
  status: 409,
  code: 'REFUND_ALREADY_PAID',
  detail: (id: string, paidOn: string) => `The refund of cancellation ${id} was paid on ${paidOn}.`,
  example: ['7c6b5a4d-3e2f-4a1b-9c8d-7e6f5a4b3c2d', '2026-08-14'],
});
