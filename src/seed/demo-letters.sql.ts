/** The statements that give the demo tenants what letters and reminders show (demo-letters.ts). */

/**
 * Every booking's agreement value: what its demands (not interest) ask for in all, so a letter's
 * TDS note appears on the larger bookings (50,00,000 and up). Params: the tenant id.
 */
export const AGREEMENT_VALUES_SQL = `UPDATE bookings b SET agreement_value = v.total
  FROM (SELECT d.booking_id, sum(d.total_amount) AS total
          FROM demands d
         WHERE d.tenant_id = $1 AND d.demand_type <> 'INTEREST'
         GROUP BY d.booking_id) v
 WHERE b.tenant_id = $1 AND b.id = v.booking_id AND v.total > 0`;

/**
 * A collection hold (a dispute, open-ended, from today) on the active booking whose open split
 * fell due most recently before today: its reminders are held back. Params: holdParams.
 */
export const HOLD_ONE_BOOKING_SQL = `INSERT INTO collection_holds (tenant_id, booking_id, reason, from_date, created_by)
SELECT $1, d.booking_id, 'Buyer disputes the latest demand', $2::date, $3
  FROM demands d
  JOIN bookings b ON b.tenant_id = $1 AND b.id = d.booking_id AND b.status = 'ACTIVE'
 WHERE d.tenant_id = $1 AND d.status IN ('PENDING', 'PARTIALLY_PAID') AND d.due_date < $2::date
 ORDER BY d.due_date DESC, d.demand_number DESC
 LIMIT 1`;

export const holdParams = (p: { tenantId: string; today: string; actor: string }): unknown[] => [
  p.tenantId,
  p.today,
  p.actor,
];
