/**
 * The statements of a paid-for booking's cancellation (docs/cancellation.md): what its quote
 * reads, the cancellation's row, its refund, the refunds queue. Row types and parameter builders
 * beside each. The lock order is the cancel's (cancellations.sql.ts): booking, splits, demands.
 */
import type { DemandTaxRecord } from '@/demands/demands.sql';

/** The booking a quote is made for; FOR UPDATE in the cancellation's transaction. */
const quoteBookingSql = (lock: string) => `SELECT b.id, b.booking_number, b.status, b.buyer_name,
       b.booking_date::text AS booking_date,
       coalesce(b.allotment_date, b.booking_date)::text AS allotment_date,
       b.agreement_value::text AS agreement_value, b.buyer_gstin
  FROM bookings b WHERE b.tenant_id = $1 AND b.id = $2${lock}`;

export const QUOTE_BOOKING_SQL = quoteBookingSql('');
export const LOCK_QUOTE_BOOKING_SQL = quoteBookingSql(' FOR UPDATE');

export interface QuoteBookingRow {
  id: string;
  booking_number: string;
  status: string;
  buyer_name: string;
  booking_date: string;
  allotment_date: string;
  agreement_value: string | null;
  buyer_gstin: string | null;
}

export const bookingParams = (p: { tenantId: string; bookingId: string }): unknown[] => [
  p.tenantId,
  p.bookingId,
];

/**
 * The booking's demands not cancelled, with their invoice and what their ACTIVE receipts paid per
 * payer: a split's `paid_amount` is the sum of its ACTIVE receipts (kept in every receipt write's
 * transaction), so no receipt is read. Params: bookingParams.
 */
export const QUOTE_DEMANDS_SQL = `SELECT d.id, d.demand_number, d.demand_date::text AS demand_date, d.charge_type,
       d.total_amount::text AS total_amount, d.tax,
       i.number AS invoice_number, i.invoice_date::text AS invoice_date,
       (SELECT coalesce(json_agg(json_build_object('payerId', p.payer_id, 'payerType', p.payer_type,
                                                   'paid', p.paid::text)
                                 ORDER BY p.first_split), '[]'::json)
          FROM (SELECT s.payer_id, s.payer_type, sum(s.paid_amount) AS paid,
                       min(s.created_at) AS first_split
                  FROM demand_splits s
                 WHERE s.tenant_id = $1 AND s.demand_id = d.id
                 GROUP BY s.payer_id, s.payer_type) p) AS paid_by
  FROM demands d
  LEFT JOIN tax_invoices i ON i.tenant_id = d.tenant_id AND i.demand_id = d.id
 WHERE d.tenant_id = $1 AND d.booking_id = $2 AND d.status <> 'CANCELLED'
 ORDER BY d.demand_date, length(d.demand_number), d.demand_number`;

export interface QuoteDemandRow {
  id: string;
  demand_number: string;
  demand_date: string;
  charge_type: 'CONSTRUCTION' | 'OTHER_CHARGES' | 'INTEREST';
  total_amount: string;
  tax: DemandTaxRecord | null;
  invoice_number: string | null;
  invoice_date: string | null;
  paid_by: { payerId: string; payerType: string; paid: string }[];
}

/** Stores a cancellation, its figures frozen. Params: insertCancellationParams. */
export const INSERT_CANCELLATION_SQL = `INSERT INTO cancellations (tenant_id, booking_id, requested_on, cancelled_on, initiated_by, reason,
         figures, refund_amount, refund_due_date, refund_paid_on, refund_interest, refund_paid_amount,
         refunded_at, refunded_by, created_by)
       VALUES ($1, $2, $3::date, $4::date, $5, $6, $7::jsonb, $8::numeric, $9::date, $10::date,
               $11::numeric, $12::numeric, CASE WHEN $10::date IS NULL THEN NULL ELSE now() END,
               CASE WHEN $10::date IS NULL THEN NULL ELSE $13 END, $13)
       RETURNING id`;

export const insertCancellationParams = (p: {
  tenantId: string;
  bookingId: string;
  requestedOn: string;
  cancelledOn: string;
  initiatedBy: string;
  reason: string;
  figures: unknown;
  refundAmount: string;
  refundDueDate: string;
  /** Set when there is nothing to refund: paid on the day, with no interest. */
  settledOn: string | null;
  actor: string;
}): unknown[] => [
  p.tenantId,
  p.bookingId,
  p.requestedOn,
  p.cancelledOn,
  p.initiatedBy,
  p.reason,
  JSON.stringify(p.figures),
  p.refundAmount,
  p.refundDueDate,
  p.settledOn,
  p.settledOn === null ? null : '0.00',
  p.settledOn === null ? null : '0.00',
  p.actor,
];

const CANCELLATION_COLUMNS = `c.id, c.booking_id, c.requested_on::text AS requested_on,
       c.cancelled_on::text AS cancelled_on, c.initiated_by, c.reason, c.figures,
       c.refund_amount::text AS refund_amount, c.refund_due_date::text AS refund_due_date,
       c.refund_paid_on::text AS refund_paid_on, c.refund_interest::text AS refund_interest,
       c.refund_paid_amount::text AS refund_paid_amount, c.refund_payment_mode,
       c.refund_transaction_ref, c.refund_voucher_number, c.created_by,
       (SELECT coalesce(json_agg(json_build_object('id', n.id, 'number', n.number,
                                                   'date', n.note_date, 'totals', n.document -> 'totals')
                                 ORDER BY n.note_date, length(n.number), n.number), '[]'::json)
          FROM credit_notes n WHERE n.tenant_id = c.tenant_id AND n.cancellation_id = c.id) AS credit_notes`;

export interface CancellationRow {
  id: string;
  booking_id: string;
  requested_on: string;
  cancelled_on: string;
  initiated_by: 'BUYER' | 'PROMOTER_DEFAULT';
  reason: string;
  figures: FrozenFigures;
  refund_amount: string;
  refund_due_date: string;
  refund_paid_on: string | null;
  refund_interest: string | null;
  refund_paid_amount: string | null;
  refund_payment_mode: string | null;
  refund_transaction_ref: string | null;
  refund_voucher_number: string | null;
  created_by: string;
  credit_notes: {
    id: string;
    number: string;
    date: string;
    totals: { taxableValue: string; cgst: string; sgst: string; tax: string; value: string };
  }[];
}

/**
 * The quote as frozen in `cancellations.figures` (money as two-decimal text): what the view and
 * the statement of account read back.
 */
export interface FrozenFigures {
  rule: string;
  days: number;
  capPercent: string;
  cap: string;
  agreementValue: string | null;
  paid: { consideration: string; tax: string; total: string };
  deduction: string;
  taxRetained: string;
  refund: string;
  taxToClaim: string;
  demands: {
    demand: string;
    demandNumber: string;
    chargeType: string;
    /** Its totalAmount (what the credit note's line credits less what is retained). */
    consideration: string;
    invoice: { number: string; date: string } | null;
    grossAmount: string;
    paid: string;
    paidConsideration: string;
    paidTax: string;
    retained: string;
    keptTax: string;
    credit: { taxableValue: string; cgst: string; sgst: string };
    refund: string;
    taxToClaim: string;
    timeBarred: boolean;
  }[];
  creditNote: { taxableValue: string; cgst: string; sgst: string; tax: string } | null;
  refundDueDate: string;
  byPayer: { payerId: string; payerType: string; paid: string; refund: string }[];
}

export const CANCELLATION_BY_ID_SQL = `SELECT ${CANCELLATION_COLUMNS} FROM cancellations c WHERE c.tenant_id = $1 AND c.id = $2`;
export const LOCK_CANCELLATION_SQL = `${CANCELLATION_BY_ID_SQL} FOR UPDATE OF c`;
export const CANCELLATION_OF_BOOKING_SQL = `SELECT ${CANCELLATION_COLUMNS} FROM cancellations c WHERE c.tenant_id = $1 AND c.booking_id = $2`;

export const idParams = (p: { tenantId: string; id: string }): unknown[] => [p.tenantId, p.id];

/**
 * The booking's ACTIVE receipts: what a developer at fault pays interest on. Params:
 * bookingParams.
 */
export const ACTIVE_RECEIPTS_OF_BOOKING_SQL = `SELECT booking_id, amount::text AS amount, received_date::text AS received_date
  FROM receipts WHERE tenant_id = $1 AND booking_id = ANY ($2::uuid[]) AND status = 'ACTIVE'`;

export interface ActiveReceiptRow {
  booking_id: string;
  amount: string;
  received_date: string;
}

export const bookingsParams = (p: { tenantId: string; bookingIds: string[] }): unknown[] => [
  p.tenantId,
  p.bookingIds,
];

/**
 * Pays the refund (written once) and dates the booking's ACTIVE receipts `refundedOn`, in one
 * statement. Params: payRefundParams.
 */
export const PAY_REFUND_SQL = `WITH paid AS (
       UPDATE cancellations
          SET refund_paid_on = $3::date, refund_interest = $4::numeric, refund_paid_amount = $5::numeric,
              refund_payment_mode = $6, refund_transaction_ref = $7, refund_voucher_number = $8,
              refunded_at = now(), refunded_by = $9
        WHERE tenant_id = $1 AND id = $2
        RETURNING booking_id),
     receipts_refunded AS (
       UPDATE receipts r SET refunded_on = $3::date
         FROM paid
        WHERE r.tenant_id = $1 AND r.booking_id = paid.booking_id AND r.status = 'ACTIVE'
        RETURNING r.id)
SELECT count(*)::int AS receipts FROM receipts_refunded`;

export const payRefundParams = (p: {
  tenantId: string;
  id: string;
  paidOn: string;
  interest: string;
  paidAmount: string;
  paymentMode: string;
  transactionRef: string;
  voucherNumber: string;
  actor: string;
}): unknown[] => [
  p.tenantId,
  p.id,
  p.paidOn,
  p.interest,
  p.paidAmount,
  p.paymentMode,
  p.transactionRef,
  p.voucherNumber,
  p.actor,
];

export type RefundQueueStatus = 'DUE' | 'OVERDUE' | 'PAID';

const QUEUE_WHERE: Record<RefundQueueStatus, string> = {
  DUE: 'c.refund_paid_on IS NULL',
  OVERDUE: 'c.refund_paid_on IS NULL AND c.refund_due_date < $2::date',
  PAID: 'c.refund_paid_on IS NOT NULL',
};

/**
 * A page of the refunds queue, oldest due first, with the count of all. `$2` is today. Params:
 * refundsQueueParams. Unpaid refunds are read by cancellations_refunds_due_idx.
 */
export const REFUNDS_QUEUE_SQL = (status: RefundQueueStatus) => `SELECT ${CANCELLATION_COLUMNS},
       b.booking_number, b.buyer_name, count(*) OVER ()::int AS total
  FROM cancellations c
  JOIN bookings b ON b.tenant_id = c.tenant_id AND b.id = c.booking_id
 WHERE c.tenant_id = $1 AND ${QUEUE_WHERE[status]} AND $2::date IS NOT NULL
 ORDER BY c.refund_due_date, c.id
 LIMIT $3 OFFSET $4`;

export type RefundsQueueRow = CancellationRow & {
  booking_number: string;
  buyer_name: string;
  total: number;
};

export const refundsQueueParams = (p: {
  tenantId: string;
  today: string;
  page: number;
  size: number;
}): unknown[] => [p.tenantId, p.today, p.size, p.page * p.size];
