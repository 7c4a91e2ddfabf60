/** The statement the demo's interest picks its late booking with (demo-interest.ts). */

/**
 * The tenant's bookings paid latest, worst first: each weighed by rupee-days late on `asOf` over
 * covered splits (receipts received after the due date, and what is still unpaid past it).
 * Bookings whose buyer deducts TDS come first, then those with a bounced cheque, then those paid
 * by cheque or draft at all: the statement of account of the booking the interest demand goes to
 * is the first a newcomer opens, and should show interest, TDS and a bounced cheque
 * (demo-statement.ts bounces one when none did). Params: lateBookingsParams.
 */
export const LATE_BOOKINGS_SQL = `WITH late AS (
       SELECT d.booking_id, r.amount * (least(r.received_date, $4::date) - d.due_date) AS weight
         FROM receipts r
         JOIN demands d ON d.tenant_id = r.tenant_id AND d.id = r.demand_id
        WHERE r.tenant_id = $1 AND r.status = 'ACTIVE' AND r.received_date > d.due_date
          AND d.demand_type = ANY ($2::text[]) AND r.payer_type = ANY ($3::text[])
       UNION ALL
       SELECT d.booking_id, (s.amount - s.paid_amount) * ($4::date - d.due_date)
         FROM demand_splits s
         JOIN demands d ON d.tenant_id = s.tenant_id AND d.id = s.demand_id
        WHERE s.tenant_id = $1 AND s.status IN ('PENDING', 'PARTIALLY_PAID')
          AND d.due_date < $4::date
          AND d.demand_type = ANY ($2::text[]) AND s.payer_type = ANY ($3::text[]))
SELECT l.booking_id
  FROM late l
 GROUP BY l.booking_id
 ORDER BY EXISTS (SELECT 1 FROM receipts x WHERE x.tenant_id = $1 AND x.booking_id = l.booking_id
                     AND x.payment_mode = 'TDS') DESC,
          EXISTS (SELECT 1 FROM receipts x WHERE x.tenant_id = $1 AND x.booking_id = l.booking_id
                     AND x.status = 'BOUNCED') DESC,
          EXISTS (SELECT 1 FROM receipts x WHERE x.tenant_id = $1 AND x.booking_id = l.booking_id
                     AND x.payment_mode IN ('CHEQUE', 'DEMAND_DRAFT')) DESC,
          sum(l.weight) DESC, l.booking_id
 LIMIT $5`;

export interface LateBookingRow {
  booking_id: string;
}

export const lateBookingsParams = (p: {
  tenantId: string;
  demandTypes: string[];
  payerTypes: string[];
  asOf: string;
  limit: number;
}): unknown[] => [p.tenantId, p.demandTypes, p.payerTypes, p.asOf, p.limit];
