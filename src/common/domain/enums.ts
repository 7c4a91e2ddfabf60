/** The API's enumerations (docs/api.md). Arrays drive validation, Swagger and search. */
export const PAYER_TYPES = ['BUYER', 'CO_BUYER', 'BANK', 'OTHER'] as const;
export type PayerType = (typeof PAYER_TYPES)[number];

export const PAYMENT_MODES = [
  'CASH',
  'CHEQUE',
  'DEMAND_DRAFT',
  'NEFT',
  'RTGS',
  'IMPS',
  'UPI',
  'CARD',
  'ONLINE',
  'OTHER',
  'TDS',
] as const;
export type PaymentMode = (typeof PAYMENT_MODES)[number];

export const RECEIPT_STATUSES = ['ACTIVE', 'CANCELLED', 'BOUNCED'] as const;
export type ReceiptStatus = (typeof RECEIPT_STATUSES)[number];

export const DEMAND_STATUSES = ['PENDING', 'PARTIALLY_PAID', 'PAID', 'CANCELLED'] as const;
export type DemandStatus = (typeof DEMAND_STATUSES)[number];

export const DEMAND_TYPES = ['MANUAL', 'MILESTONE', 'INTEREST'] as const;
export type DemandType = (typeof DEMAND_TYPES)[number];
