import { defineProblem } from '@/common/app-error';

/** The split's own refusals, declared once by demands (which own splits). */
export {
  DEMAND_CANCELLED,
  DEMAND_SPLIT_CANCELLED,
  DEMAND_SPLIT_NOT_FOUND,
} from '@/demands/demands.errors';

export const RECEIPT_NOT_FOUND = defineProblem({
  status: 404,
  code: 'RECEIPT_NOT_FOUND',
  detail: (id: string) => `Receipt ${id} was not found.`,
  example: ['e7d6c5b4-a3f2-4e1d-9c0b-8a7f6e5d4c3b'],
});

/** Thrown with the field error `amount: must be greater than 0`. */
export const RECEIPT_AMOUNT_NOT_POSITIVE = defineProblem({
  status: 422,
  code: 'RECEIPT_AMOUNT_NOT_POSITIVE',
  detail: (amount: string) => `A receipt amount must be greater than 0; got ${amount}.`,
  example: ['0.00'],
});

/** Thrown with a field error on `amount`; concurrent receipts never overpay a split. */
export const RECEIPT_EXCEEDS_PENDING = defineProblem({
  status: 422,
  code: 'RECEIPT_EXCEEDS_PENDING',
  detail: (amount: string, pending: string, splitId: string) =>
    `The amount ${amount} exceeds the pending amount ${pending} of demand split ${splitId}.`,
  example: ['200000.00', '150000.50', '3f1c2a9e-8b7d-4e6f-9a1b-2c3d4e5f6a7b'],
});

/**
 * A taxed demand is a tax invoice: money received before it would need a receipt voucher for an
 * advance, which the service does not issue. Raise the demand dated on or before the payment.
 */
export const RECEIPT_BEFORE_INVOICE = defineProblem({
  status: 422,
  code: 'RECEIPT_BEFORE_INVOICE',
  detail: (receivedDate: string, demandDate: string, splitId: string) =>
    `A receipt dated ${receivedDate} is before the tax invoice of demand split ${splitId}, dated ${demandDate}; raise the demand dated on or before the payment.`,
  example: ['2026-04-01', '2026-04-15', '3f1c2a9e-8b7d-4e6f-9a1b-2c3d4e5f6a7b'],
});

/** Cancelled, or bounced: only an ACTIVE receipt leaves ACTIVE. */
export const RECEIPT_NOT_ACTIVE = defineProblem({
  status: 409,
  code: 'RECEIPT_NOT_ACTIVE',
  detail: (id: string, status: string) =>
    `Receipt ${id} is ${status}; only an ACTIVE receipt can be cancelled or bounce.`,
  example: ['e7d6c5b4-a3f2-4e1d-9c0b-8a7f6e5d4c3b', 'CANCELLED'],
});

/** Only paper instruments (BOUNCEABLE_MODES) can bounce. */
export const RECEIPT_NOT_BOUNCEABLE = defineProblem({
  status: 409,
  code: 'RECEIPT_NOT_BOUNCEABLE',
  detail: (id: string, paymentMode: string) =>
    `Receipt ${id} was paid by ${paymentMode}; only CHEQUE and DEMAND_DRAFT receipts can bounce.`,
  example: ['e7d6c5b4-a3f2-4e1d-9c0b-8a7f6e5d4c3b', 'NEFT'],
});

/** Thrown with a field error on `bouncedOn`. */
export const BOUNCE_BEFORE_RECEIPT = defineProblem({
  status: 422,
  code: 'BOUNCE_BEFORE_RECEIPT',
  detail: (id: string, receivedDate: string, bouncedOn: string) =>
    `Receipt ${id} was received on ${receivedDate}; it cannot bounce on ${bouncedOn}.`,
  example: ['e7d6c5b4-a3f2-4e1d-9c0b-8a7f6e5d4c3b', '2026-11-22', '2026-11-20'],
});

/** A receipt matched to a bank statement line (realised) is unmatched before it is cancelled. */
export const RECEIPT_REALISED = defineProblem({
  status: 409,
  code: 'RECEIPT_REALISED',
  detail: (id: string, line: string) =>
    `Receipt ${id} is realised (matched to bank statement line ${line}); unmatch the line first (POST /bank-lines/{id}/unmatch).`,
  example: ['e7d6c5b4-a3f2-4e1d-9c0b-8a7f6e5d4c3b', '8d7c6b5a-4f3e-4d2c-9b1a-0f9e8d7c6b5a'],
});

/** The bounce's bankLine is not a statement line of this tenant. */
export const RETURN_LINE_NOT_FOUND = defineProblem({
  status: 404,
  code: 'RETURN_LINE_NOT_FOUND',
  detail: (line: string) => `Bank statement line ${line} was not found.`,
  example: ['8d7c6b5a-4f3e-4d2c-9b1a-0f9e8d7c6b5a'],
});

/** The bounce's bankLine cannot be the return of this receipt (says why). */
export const RETURN_LINE_NOT_MATCHABLE = defineProblem({
  status: 409,
  code: 'RETURN_LINE_NOT_MATCHABLE',
  detail: (line: string, why: string) =>
    `Bank statement line ${line} cannot be matched as this receipt's return: ${why}.`,
  example: ['8d7c6b5a-4f3e-4d2c-9b1a-0f9e8d7c6b5a', 'it is a CREDIT'],
});
