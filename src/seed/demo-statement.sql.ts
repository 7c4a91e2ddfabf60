/** The statements the demo's showcase statement of account is checked with (demo-statement.ts). */

/**
 * The booking of the tenant's interest demand (the one the docs open first), whether it has a
 * bounced receipt, and the cheque or draft to bounce if not: its latest ACTIVE one received on or
 * before `$2` (a few days before today, so the bounce follows the receipt's entry). No row when
 * the tenant has no interest demand. Params: showcaseParams.
 */
export const SHOWCASE_SQL = `SELECT d.booking_id,
       EXISTS (SELECT 1 FROM receipts r
                WHERE r.tenant_id = $1 AND r.booking_id = d.booking_id
                  AND r.status = 'BOUNCED') AS has_bounced,
       (SELECT r.id FROM receipts r
         WHERE r.tenant_id = $1 AND r.booking_id = d.booking_id AND r.status = 'ACTIVE'
           AND r.payment_mode IN ('CHEQUE', 'DEMAND_DRAFT') AND r.received_date <= $2::date
         ORDER BY r.received_date DESC, r.receipt_number DESC
         LIMIT 1) AS cheque_id,
       (SELECT r.received_date::text FROM receipts r
         WHERE r.tenant_id = $1 AND r.booking_id = d.booking_id AND r.status = 'ACTIVE'
           AND r.payment_mode IN ('CHEQUE', 'DEMAND_DRAFT') AND r.received_date <= $2::date
         ORDER BY r.received_date DESC, r.receipt_number DESC
         LIMIT 1) AS cheque_received
  FROM demands d
 WHERE d.tenant_id = $1 AND d.demand_type = 'INTEREST'
 ORDER BY d.demand_date DESC, d.demand_number DESC
 LIMIT 1`;

export interface ShowcaseRow {
  booking_id: string;
  has_bounced: boolean;
  cheque_id: string | null;
  cheque_received: string | null;
}

export const showcaseParams = (p: { tenantId: string; receivedBy: string }): unknown[] => [
  p.tenantId,
  p.receivedBy,
];

/**
 * The seed is one bulk load: no receipt count cached before it survives it, the bounce written
 * through the API's service included (as ADVANCE_SEARCH_VERSION_SQL leaves the version). Params:
 * the tenant id.
 */
export const RESET_SEARCH_VERSION_SQL = `UPDATE receipt_search_versions SET reset_version = version WHERE tenant_id = $1`;
