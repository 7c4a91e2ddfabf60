/** The statement of the demo seed's bank data (src/seed/demo-bank.ts). */

/**
 * The receipts that reached the bank in a month: ACTIVE ones and bounced cheques (deposited,
 * then returned), not cash or TDS; with the buyer's name for the narration. Oldest first, at most
 * $4.
 */
export const DEMO_BANK_RECEIPTS_SQL = `SELECT r.received_date, r.amount::text AS amount, r.payment_mode, r.payer_type,
       r.transaction_ref, r.status, b.buyer_name
  FROM receipts r
  JOIN bookings b ON b.tenant_id = r.tenant_id AND b.id = r.booking_id
 WHERE r.tenant_id = $1 AND r.received_date BETWEEN $2::date AND $3::date
   AND r.status IN ('ACTIVE', 'BOUNCED') AND r.payment_mode NOT IN ('CASH', 'TDS')
 ORDER BY r.received_date, r.receipt_number
 LIMIT $4`;

export interface DemoBankReceiptRow {
  received_date: string;
  amount: string;
  payment_mode: string;
  payer_type: string;
  transaction_ref: string;
  status: 'ACTIVE' | 'BOUNCED';
  buyer_name: string;
}

export const demoBankReceiptsParams = (p: {
  tenantId: string;
  from: string;
  to: string;
  limit: number;
}): unknown[] => [p.tenantId, p.from, p.to, p.limit];
