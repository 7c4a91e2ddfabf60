/** The statement the demo's interest picks its late booking with (demo-interest.ts). */

/**
 * The tenant's bookings paid latest, worst first: each weighed by rupee-days late on `asOf` over
 * covered splits (receipts received after the due date, and what is still unpaid past it).
 * Params: lateBookingsParams.
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
SELECT booking_id FROM late GROUP BY booking_id ORDER BY sum(weight) DESC, booking_id LIMIT $5`;

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
