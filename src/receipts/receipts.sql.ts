/**
 * The statements that read receipts, with the row they return: a receipt joined to its split
 * and demand (ReceiptRow), which every receipt view is made from. The search page
 * (search/search-page.ts), the writes (receipt-writes.sql.ts) and the exports select the same
 * columns through the same joins. Writes are in receipt-writes.sql.ts.
 */

/** One receipt with its split and demand, as the joined query returns it. */
export interface ReceiptRow {
  id: string;
  demand_split_id: string;
  demand_id: string;
  booking_id: string;
  payer_type: string;
  receipt_number: string;
  amount: string;
  payment_mode: string;
  transaction_ref: string;
  received_date: string;
  status: string;
  status_reason: string | null;
  status_changed_on: string | null;
  status_changed_by: string | null;
  realised_on: string | null;
  bank_line_id: string | null;
  refunded_on: string | null;
  s_payer_type: string;
  s_payer_id: string;
  s_number: string;
  s_amount: string;
  s_tax_amount: string;
  s_paid_amount: string;
  s_status: string;
  d_booking_id: string;
  d_unit_id: string;
  d_milestone_id: string | null;
  d_demand_type: string;
  d_number: string;
  d_total_amount: string;
  d_tax_amount: string;
  d_received_amount: string;
  d_due_date: string;
  d_remarks: string;
  d_status: string;
  d_buyer_name: string;
}

/** The columns of a ReceiptRow, over `r` joined by RECEIPT_ROW_JOINS. */
export const RECEIPT_ROW_COLUMNS = `
         r.id, r.demand_split_id, r.demand_id, r.booking_id, r.payer_type, r.receipt_number,
         r.amount::text AS amount, r.payment_mode, r.transaction_ref,
         r.received_date::text AS received_date, r.status, r.status_reason,
         r.status_changed_on::text AS status_changed_on, r.status_changed_by,
         r.realised_on::text AS realised_on, r.bank_line_id, r.refunded_on::text AS refunded_on,
         s.payer_type AS s_payer_type, s.payer_id AS s_payer_id, s.demand_split_number AS s_number,
         s.amount::text AS s_amount, s.tax_amount::text AS s_tax_amount,
         s.paid_amount::text AS s_paid_amount, s.status AS s_status,
         d.booking_id AS d_booking_id, d.unit_id AS d_unit_id, d.milestone_id AS d_milestone_id,
         d.demand_type AS d_demand_type, d.demand_number AS d_number,
         d.total_amount::text AS d_total_amount, d.tax_amount::text AS d_tax_amount,
         d.received_amount::text AS d_received_amount,
         d.due_date::text AS d_due_date, d.remarks AS d_remarks, d.status AS d_status,
         d.buyer_name AS d_buyer_name`;

/** A receipt `r`'s split `s` and demand `d`. */
export const RECEIPT_ROW_JOINS = `
    JOIN demand_splits s ON s.tenant_id = r.tenant_id AND s.id = r.demand_split_id
    JOIN demands d ON d.tenant_id = r.tenant_id AND d.id = r.demand_id`;

/** The ReceiptRows of some receipts of a tenant, in no particular order. */
export const RECEIPTS_BY_IDS_SQL = `SELECT ${RECEIPT_ROW_COLUMNS}
         FROM receipts r ${RECEIPT_ROW_JOINS}
        WHERE r.tenant_id = $1 AND r.id = ANY($2::uuid[])`;

export const receiptsByIdsParams = (p: { tenantId: string; ids: string[] }): unknown[] => [
  p.tenantId,
  p.ids,
];

/**
 * A ReceiptRow, when the receipt was created (the printed receipt dates its file by it) and the
 * names it is printed with: its booking's number, unit name and buyer, its split's payer name.
 */
export type PrintableReceiptRow = ReceiptRow & {
  created_at: Date;
  b_booking_number: string;
  b_unit_name: string | null;
  b_buyer_name: string;
  s_payer_name: string | null;
};

export const PRINTABLE_RECEIPT_SQL = `SELECT ${RECEIPT_ROW_COLUMNS}, r.created_at,
         b.booking_number AS b_booking_number, b.unit_name AS b_unit_name,
         b.buyer_name AS b_buyer_name, s.payer_name AS s_payer_name
         FROM receipts r ${RECEIPT_ROW_JOINS}
         JOIN bookings b ON b.tenant_id = r.tenant_id AND b.id = r.booking_id
        WHERE r.tenant_id = $1 AND r.id = $2`;

export const printableReceiptParams = (p: { tenantId: string; id: string }): unknown[] => [
  p.tenantId,
  p.id,
];
