/** The one statement of a statement of account (docs/statement.md), its row type and parameters. */

/**
 * Everything the ledger of one booking through `to` needs, in one statement and one row (none
 * when the booking is not the tenant's): the booking, its demands dated on or before `to` and its
 * receipts received on or before `to`, each with what it needs to become entries
 * (statement-ledger.ts turns them into DEMAND, DEMAND_CANCELLED, RECEIPT and RECEIPT_REVERSED
 * entries and leaves out the changes dated after `to`). Params: statementParams.
 *
 * - A demand's amount is the sum of its splits, or of the payer's splits with `payerId` (a demand
 *   with none of that payer's splits is left out); `cancelledOn` is the date of its cancel in the
 *   tenant's zone (null while not cancelled), as every view shows it.
 * - A receipt counts with `payerId` when its split is that payer's; it carries its demand's due
 *   date (for overdue), its status and `statusChangedOn` (a bounce's bouncedOn).
 * - Both lists are in no particular order: the ledger sorts its entries.
 *
 * Reads the booking's demands by demands_booking_idx, their splits by demand_splits_demand_idx and
 * the receipts by receipts_booking_idx. Money is numeric text and dates `YYYY-MM-DD` in the JSON,
 * never floats.
 */
export const STATEMENT_SQL = `SELECT b.id, b.booking_number, b.unit_id, b.unit_name, b.buyer_name,
       (SELECT coalesce(json_agg(json_build_object(
                 'id', d.id, 'number', d.demand_number, 'type', d.demand_type,
                 'date', d.demand_date, 'dueDate', d.due_date, 'amount', x.amount::text,
                 'remarks', d.remarks, 'milestone', d.milestone_id,
                 'cancelledOn', CASE WHEN d.status = 'CANCELLED'
                                     THEN (d.cancelled_at AT TIME ZONE $4::text)::date END,
                 'cancelReason', d.cancel_reason)), '[]'::json)
          FROM demands d
          CROSS JOIN LATERAL (SELECT sum(s.amount) AS amount
                                FROM demand_splits s
                               WHERE s.tenant_id = $1 AND s.demand_id = d.id
                                 AND ($3::uuid IS NULL OR s.payer_id = $3::uuid)) x
         WHERE d.tenant_id = $1 AND d.booking_id = $2 AND d.demand_date <= $5::date
           AND x.amount IS NOT NULL) AS demands,
       (SELECT coalesce(json_agg(json_build_object(
                 'id', r.id, 'number', r.receipt_number, 'date', r.received_date,
                 'dueDate', d.due_date, 'amount', r.amount::text, 'mode', r.payment_mode,
                 'ref', r.transaction_ref, 'payerType', r.payer_type, 'payerName', s.payer_name,
                 'status', r.status,
                 'statusChangedOn', r.status_changed_on, 'statusReason', r.status_reason)), '[]'::json)
          FROM receipts r
          JOIN demand_splits s ON s.tenant_id = $1 AND s.id = r.demand_split_id
          JOIN demands d ON d.tenant_id = $1 AND d.id = r.demand_id
         WHERE r.tenant_id = $1 AND r.booking_id = $2 AND r.received_date <= $5::date
           AND ($3::uuid IS NULL OR s.payer_id = $3::uuid)) AS receipts,
       (SELECT json_build_object('payerType', s.payer_type, 'payerName', s.payer_name)
          FROM demands d
          JOIN demand_splits s ON s.tenant_id = $1 AND s.demand_id = d.id
         WHERE d.tenant_id = $1 AND d.booking_id = $2 AND s.payer_id = $3::uuid
         ORDER BY s.payer_name IS NULL, s.created_at DESC
         LIMIT 1) AS payer
  FROM bookings b
 WHERE b.tenant_id = $1 AND b.id = $2`;

/** A demand of the booking as the ledger reads it. */
export interface StatementDemandRow {
  id: string;
  number: string;
  type: string;
  /** demandDate. */
  date: string;
  dueDate: string;
  /** Numeric text: the splits' sum (or the payer's). */
  amount: string;
  remarks: string;
  milestone: string | null;
  /** The cancel's date in the tenant's zone; null while not cancelled. */
  cancelledOn: string | null;
  cancelReason: string | null;
}

/** A receipt of the booking as the ledger reads it. */
export interface StatementReceiptRow {
  id: string;
  number: string;
  /** receivedDate. */
  date: string;
  /** Its demand's due date. */
  dueDate: string;
  /** Numeric text. */
  amount: string;
  mode: string;
  ref: string;
  payerType: string;
  payerName: string | null;
  status: string;
  /** When it left ACTIVE (a bounce's bouncedOn); null while ACTIVE. */
  statusChangedOn: string | null;
  statusReason: string | null;
}

export interface StatementRow {
  id: string;
  booking_number: string;
  unit_id: string;
  unit_name: string | null;
  buyer_name: string;
  demands: StatementDemandRow[];
  receipts: StatementReceiptRow[];
  /** With payerId: that payer's type and name (a named split first); else null. */
  payer: { payerType: string; payerName: string | null } | null;
}

export const statementParams = (p: {
  tenantId: string;
  bookingId: string;
  /** Only this payer's splits; undefined for all. */
  payerId?: string;
  /** The tenant's IANA zone: the date a demand was cancelled. */
  timezone: string;
  /** `YYYY-MM-DD`: the statement's last day (records dated after it are not read). */
  to: string;
}): unknown[] => [p.tenantId, p.bookingId, p.payerId ?? null, p.timezone, p.to];
