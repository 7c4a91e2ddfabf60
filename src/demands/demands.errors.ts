import { defineProblem } from '@/common/app-error';

/** Errors about demands and their splits, also thrown by the features that use them (receipts). */

export const DEMAND_NOT_FOUND = defineProblem({
  status: 404,
  code: 'DEMAND_NOT_FOUND',
  detail: (id: string) => `Demand ${id} was not found.`,
  example: ['9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d'],
});

export const DEMAND_SPLIT_NOT_FOUND = defineProblem({
  status: 404,
  code: 'DEMAND_SPLIT_NOT_FOUND',
  detail: (id: string) => `Demand split ${id} was not found.`,
  example: ['3f2e1d0c-9b8a-4f7e-8d6c-5b4a3f2e1d0c'],
});

/** A receipt against a split of a cancelled demand. */
export const DEMAND_CANCELLED = defineProblem({
  status: 409,
  code: 'DEMAND_CANCELLED',
  detail: (splitId: string, demandId: string) =>
    `Demand split ${splitId} belongs to demand ${demandId}, which is cancelled; it takes no receipts.`,
  example: ['3f1c2a9e-8b7d-4e6f-9a1b-2c3d4e5f6a7b', '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d'],
});

export const DEMAND_SPLIT_CANCELLED = defineProblem({
  status: 409,
  code: 'DEMAND_SPLIT_CANCELLED',
  detail: (splitId: string) => `Demand split ${splitId} is cancelled; it takes no receipts.`,
  example: ['3f1c2a9e-8b7d-4e6f-9a1b-2c3d4e5f6a7b'],
});

/** A new demand on a cancelled booking. */
export const BOOKING_CANCELLED = defineProblem({
  status: 409,
  code: 'BOOKING_CANCELLED',
  detail: (bookingId: string) => `Booking ${bookingId} is cancelled; it takes no demands.`,
  example: ['5b4a3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d'],
});

/** The splits of a new demand do not add up to its total (with a field error on `splits`). */
export const DEMAND_SPLITS_MISMATCH = defineProblem({
  status: 422,
  code: 'DEMAND_SPLITS_MISMATCH',
  detail: (sum: string, total: string) =>
    `The splits add up to ${sum} but totalAmount is ${total}; they must be equal.`,
  example: ['250000.00', '300000.00'],
});

/**
 * A taxed demand is a tax invoice dated its demand date: never after today, and never in or
 * before a month whose GST return is filed (lockedThrough).
 */
export const INVOICE_DATE_INVALID = defineProblem({
  status: 422,
  code: 'INVOICE_DATE_INVALID',
  detail: (demandDate: string, why: string) =>
    `A taxed demand is a tax invoice dated its demandDate ${demandDate}, which is not allowed: ${why}.`,
  example: [
    '2026-03-31',
    'the return of 2026-03 is filed: no invoice may be dated in or before it',
  ],
});

/** A tax invoice to a buyer without a GSTIN names the buyer's address from a taxable 50,000.00. */
export const BUYER_ADDRESS_REQUIRED = defineProblem({
  status: 422,
  code: 'BUYER_ADDRESS_REQUIRED',
  detail: (bookingId: string, taxableValue: string) =>
    `The tax invoice of this demand (taxable value ${taxableValue}) must name the buyer's address: set buyerAddress on booking ${bookingId} (PATCH /bookings/{id}) first.`,
  example: ['5b4a3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d', '666666.67'],
});

/** GET /demands/{id}/invoice of a demand that is not taxed. */
export const INVOICE_NOT_FOUND = defineProblem({
  status: 404,
  code: 'INVOICE_NOT_FOUND',
  detail: (demandId: string) => `Demand ${demandId} is not taxed: it has no tax invoice.`,
  example: ['9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d'],
});

export const CREDIT_NOTE_NOT_FOUND = defineProblem({
  status: 404,
  code: 'CREDIT_NOTE_NOT_FOUND',
  detail: (id: string) => `Credit note ${id} was not found.`,
  example: ['7c6d5e4f-3a2b-4c1d-9e8f-7a6b5c4d3e2f'],
});
