/**
 * The statements of the ledger (docs/ledger.md): what a booking's records are, and the fragments
 * every set-based statement of "owed on a date" is built from (the ageing, the reminders' due
 * list). The per-booking readers (statement, interest, letters) apply the same rules in
 * as-of.ts; test/ledger-agreement.e2e-spec.ts checks on random histories that both agree.
 */

/**
 * Everything "owed as of a date" needs of some bookings, one row per booking (none for a booking
 * that is not the tenant's): the booking, its demands with their splits and its receipts.
 *
 * - Every record of the booking, whatever its date: the rules (as-of.ts) decide what counted
 *   on a date, and a booking's records are a few hundred rows at most.
 * - A demand's `cancelledOn` is the date of its cancel in the tenant's zone (`$3`), null while not
 *   cancelled; a split is `cancelled` when its status is (a demand's cancel cancels its splits).
 * - A receipt's `statusChangedOn` is when it left ACTIVE (a bounce's bouncedOn).
 * - Lists are in no particular order but splits, which keep the order they were created in.
 *
 * Reads demands by demands_booking_idx, splits by demand_splits_demand_idx and receipts by
 * receipts_booking_idx; a receipt's due date and payer come from its split in as-of.ts
 * (withSplitFacts), not from a join per receipt. Money is numeric text and dates `YYYY-MM-DD` in the JSON, never floats.
 */
export const LEDGER_RECORDS_SQL = `SELECT b.id, b.booking_number, b.unit_id, b.unit_name, b.buyer_name, b.status,
       b.agreement_value::text AS agreement_value,
       (SELECT coalesce(json_agg(json_build_object(
                 'id', d.id, 'number', d.demand_number, 'type', d.demand_type,
                 'date', d.demand_date, 'dueDate', d.due_date,
                 'remarks', d.remarks, 'milestone', d.milestone_id,
                 'cancelledOn', CASE WHEN d.status = 'CANCELLED'
                                     THEN (d.cancelled_at AT TIME ZONE $3::text)::date END,
                 'cancelReason', d.cancel_reason, 'interestThrough', d.interest_through,
                 'chargeType', d.charge_type, 'invoiceNumber', d.invoice_number,
                 'tax', d.tax,
                 'splits', (SELECT coalesce(json_agg(json_build_object(
                                     'id', s.id, 'number', s.demand_split_number,
                                     'payerType', s.payer_type, 'payerId', s.payer_id,
                                     'payerName', s.payer_name, 'amount', s.gross_amount::text,
                                     'consideration', s.amount::text,
                                     'cancelled', s.status = 'CANCELLED')
                                   ORDER BY length(s.demand_split_number), s.demand_split_number),
                                   '[]'::json)
                              FROM demand_splits s
                             WHERE s.tenant_id = $1 AND s.demand_id = d.id))), '[]'::json)
          FROM demands d
         WHERE d.tenant_id = $1 AND d.booking_id = b.id) AS demands,
       (SELECT coalesce(json_agg(json_build_object(
                 'id', r.id, 'number', r.receipt_number, 'split', r.demand_split_id,
                 'demand', r.demand_id, 'date', r.received_date, 'amount', r.amount::text,
                 'mode', r.payment_mode, 'ref', r.transaction_ref, 'payerType', r.payer_type,
                 'status', r.status, 'statusChangedOn', r.status_changed_on,
                 'statusReason', r.status_reason)), '[]'::json)
          FROM receipts r
         WHERE r.tenant_id = $1 AND r.booking_id = b.id) AS receipts,
       (SELECT json_build_object(
                 'id', c.id, 'cancelledOn', c.cancelled_on, 'initiatedBy', c.initiated_by,
                 'deduction', c.figures -> 'deduction',
                 'taxCredited', coalesce(c.figures -> 'creditNote' -> 'tax', '"0.00"'::jsonb),
                 'refund', c.refund_amount::text, 'byPayer', c.figures -> 'byPayer',
                 'demandIds', (SELECT coalesce(json_agg(x ->> 'demand'), '[]'::json)
                                 FROM jsonb_array_elements(c.figures -> 'demands') x),
                 'creditNotes', (SELECT coalesce(json_agg(n.number ORDER BY length(n.number), n.number),
                                                 '[]'::json)
                                   FROM credit_notes n
                                  WHERE n.tenant_id = $1 AND n.cancellation_id = c.id),
                 'refundPaidOn', c.refund_paid_on, 'refundInterest', c.refund_interest::text,
                 'refundPaidAmount', c.refund_paid_amount::text,
                 'voucherNumber', c.refund_voucher_number)
          FROM cancellations c
         WHERE c.tenant_id = $1 AND c.booking_id = b.id) AS cancellation
  FROM bookings b
 WHERE b.tenant_id = $1 AND b.id = ANY ($2::uuid[])`;

export interface LedgerSplitRow {
  id: string;
  number: string;
  payerType: string;
  payerId: string;
  /** The payer's name as given on the split; null when none was. */
  payerName: string | null;
  /** Numeric text: what the split owes, its gross (its consideration plus its share of the tax). */
  amount: string;
  /** Numeric text: its consideration (the split's `amount` in the API). */
  consideration: string;
  cancelled: boolean;
}

export interface LedgerDemandRow {
  id: string;
  number: string;
  type: string;
  /** demandDate. */
  date: string;
  dueDate: string;
  remarks: string;
  milestone: string | null;
  /** The cancel's date in the tenant's zone; null while not cancelled. */
  cancelledOn: string | null;
  cancelReason: string | null;
  /** INTEREST demands: the last day they bill; null otherwise. */
  interestThrough: string | null;
  chargeType: string;
  /** The tax invoice's number; null while untaxed. */
  invoiceNumber: string | null;
  /** A taxed demand's breakdown (money as two-decimal text); null while untaxed. */
  tax: { total: string; cgst: string; sgst: string } | null;
  splits: LedgerSplitRow[];
}

export interface LedgerReceiptRow {
  id: string;
  number: string;
  /** Its demand split. */
  split: string;
  demand: string;
  /** Its demand's due date. */
  dueDate: string;
  /** Its split's payer, and its name as given on the split (null when none was). */
  payerId: string;
  payerName: string | null;
  /** receivedDate. */
  date: string;
  /** Numeric text. */
  amount: string;
  mode: string;
  ref: string;
  payerType: string;
  status: string;
  /** When it left ACTIVE (a bounce's bouncedOn); null while ACTIVE. */
  statusChangedOn: string | null;
  statusReason: string | null;
}

/** A booking's cancellation (docs/cancellation.md) as the ledger reads it; money as text. */
export interface LedgerCancellationRow {
  id: string;
  cancelledOn: string;
  initiatedBy: string;
  deduction: string;
  /** The GST its credit notes credit (0.00 when none). */
  taxCredited: string;
  refund: string;
  byPayer: { payerId: string; payerType: string; paid: string; refund: string }[];
  /** The demands it cancelled. */
  demandIds: string[];
  creditNotes: string[];
  /** Null while the refund is due. */
  refundPaidOn: string | null;
  refundInterest: string | null;
  refundPaidAmount: string | null;
  voucherNumber: string | null;
}

export interface LedgerRecordsRow {
  id: string;
  booking_number: string;
  unit_id: string;
  /** The unit's name as printed; null when the booking has none. */
  unit_name: string | null;
  buyer_name: string;
  status: string;
  /** Numeric text; null when the booking has none. */
  agreement_value: string | null;
  demands: LedgerDemandRow[];
  receipts: LedgerReceiptRow[];
  /** Its cancellation when it was cancelled after being paid for; null otherwise. */
  cancellation: LedgerCancellationRow | null;
}

export const ledgerRecordsParams = (p: {
  tenantId: string;
  bookingIds: readonly string[];
  /** The tenant's IANA zone: the date a demand was cancelled. */
  timezone: string;
}): unknown[] => [p.tenantId, p.bookingIds, p.timezone];

/** The receipts of LEDGER_RECORDS_SQL as they arrive: their split's facts are added in as-of.ts. */
export type LedgerReceiptSqlRow = Omit<LedgerReceiptRow, 'dueDate' | 'payerId' | 'payerName'>;

/** A row of LEDGER_RECORDS_SQL as it arrives. */
export type LedgerRecordsSqlRow = Omit<LedgerRecordsRow, 'receipts'> & {
  receipts: LedgerReceiptSqlRow[];
};

// ---------------------------------------------------------------------------------------------
// Fragments of set-based statements (the same rules as as-of.ts, in SQL)

/**
 * Per split, the receipts whose standing on `asOf` differs from now (a CTE body, joined as `m`):
 * minus ACTIVE ones received after asOf, plus ones received by asOf that left ACTIVE after it.
 * Together with a split's `paid_amount` (what its ACTIVE receipts pay now, kept in the same
 * transaction as every receipt write) that is what it had been paid on asOf, from a handful of
 * rows instead of every receipt of the tenant (receipts_default_sort_idx,
 * receipts_left_active_idx). `scope` narrows both scans (`AND r.booking_id = $2`); `$1` is the
 * tenant.
 */
export const movedReceipts = (asOf: string, scope = ''): string => `
         SELECT demand_split_id, sum(amount) AS amount
           FROM (SELECT r.demand_split_id, -r.amount AS amount
                   FROM receipts r
                  WHERE r.tenant_id = $1 AND r.received_date > ${asOf} AND r.status = 'ACTIVE'${scope}
                 UNION ALL
                 SELECT r.demand_split_id, r.amount
                   FROM receipts r
                  WHERE r.tenant_id = $1 AND r.status <> 'ACTIVE'
                    AND r.status_changed_on > ${asOf} AND r.received_date <= ${asOf}${scope}) m
          GROUP BY demand_split_id`;

/**
 * The split `s` of demand `d` exists and owes on asOf: its demand is dated on or before asOf, and
 * it is not cancelled, or its demand was cancelled after asOf (the cancel's date in the zone).
 */
export const owesOn = (asOf: string, timezone: string): string =>
  `d.demand_date <= ${asOf}
            AND (s.status <> 'CANCELLED'
                 OR (d.cancelled_at AT TIME ZONE ${timezone})::date > ${asOf})`;

/**
 * What split `s` owes on asOf (its gross: amount plus its share of the tax), with `m` its moved
 * receipts, when it owes then (owesOn).
 */
export const OUTSTANDING = `s.gross_amount - s.paid_amount - coalesce(m.amount, 0)`;

/**
 * Split `s` counts towards what the booking owes on asOf: it owes then, or its receipts had paid
 * it something then although it does not owe (money received before its demand's date, an
 * advance), unless it was cancelled by then. Its balance: its amount when it owes, less what it had been paid. The statement of
 * account sums the same (a receipt is a credit from the day it was received).
 */
export const countsOn = (asOf: string, timezone: string): string =>
  `(${owesOn(asOf, timezone)} OR (s.paid_amount + coalesce(m.amount, 0) <> 0
                                       AND NOT ${goneOn(asOf, timezone)}))`;

/**
 * Split `s` was cancelled on or before asOf: from then on it counts for nothing, even with ACTIVE
 * receipts (a booking's cancellation keeps them: the refund settles them, not the split).
 */
export const goneOn = (asOf: string, timezone: string): string =>
  `(s.status = 'CANCELLED' AND (d.cancelled_at AT TIME ZONE ${timezone})::date <= ${asOf})`;

/**
 * The booking `d.booking_id` has a cancellation (it was cancelled after being paid for): no
 * reminder is sent for its splits, whatever asOf.
 */
export const NOT_CANCELLED_AFTER_PAYMENT = `NOT EXISTS (SELECT 1 FROM cancellations c
                WHERE c.tenant_id = d.tenant_id AND c.booking_id = d.booking_id)`;

export const balanceOn = (asOf: string, timezone: string): string =>
  `CASE WHEN ${owesOn(asOf, timezone)} THEN s.gross_amount ELSE 0 END - s.paid_amount - coalesce(m.amount, 0)`;
