/**
 * The statements of one payment over many dues, with their row types and parameter builders.
 * They take, in the lock order every writer shares (cancellations.service.ts): the booking (FOR
 * SHARE, as a new demand does), then the splits by id, then their demands by id. The receipts
 * themselves are then recorded by ReceiptWritesService, whose split and demand locks are already
 * held, so only the number counter and the search version are left to take.
 */

/** The booking paid, taken FOR SHARE: a booking cancel waits for the payment, or it for the cancel. */
export const SHARE_BOOKING_SQL = `SELECT status FROM bookings WHERE tenant_id = $1 AND id = $2 FOR SHARE`;

export interface PaymentBookingRow {
  status: string;
}

export const bookingParams = (p: { tenantId: string; bookingId: string }): unknown[] => [
  p.tenantId,
  p.bookingId,
];

/**
 * Locks the payer's splits on the booking that are not cancelled, in id order. Params:
 * payerSplitsParams.
 */
export const LOCK_PAYER_SPLITS_SQL = `SELECT s.id FROM demand_splits s
        WHERE s.tenant_id = $1 AND s.payer_id = $3 AND s.status <> 'CANCELLED'
          AND s.demand_id IN (SELECT d.id FROM demands d WHERE d.tenant_id = $1 AND d.booking_id = $2)
        ORDER BY s.id FOR UPDATE`;

export const payerSplitsParams = (p: {
  tenantId: string;
  bookingId: string;
  payerId: string;
}): unknown[] => [p.tenantId, p.bookingId, p.payerId];

/** Locks the listed splits of the tenant, in id order. Params: splitIdsParams. */
export const LOCK_LISTED_SPLITS_SQL = `SELECT s.id FROM demand_splits s
        WHERE s.tenant_id = $1 AND s.id = ANY($2::uuid[])
        ORDER BY s.id FOR UPDATE`;

export interface LockedIdRow {
  id: string;
}

/** Locks the demands of the (already locked) splits, in id order. Params: splitIdsParams. */
export const LOCK_SPLIT_DEMANDS_SQL = `SELECT d.id FROM demands d
        WHERE d.tenant_id = $1
          AND d.id IN (SELECT s.demand_id FROM demand_splits s
                        WHERE s.tenant_id = $1 AND s.id = ANY($2::uuid[]))
        ORDER BY d.id FOR UPDATE`;

export const splitIdsParams = (p: { tenantId: string; splitIds: string[] }): unknown[] => [
  p.tenantId,
  p.splitIds,
];

/**
 * The locked splits as they stand, oldest due first: by the demand's due date, then its number
 * (shorter first, so DEM/9 before DEM/10), then the split id. Params: splitIdsParams.
 */
export const PAYMENT_SPLITS_SQL = `SELECT s.id, s.payer_id, s.gross_amount::text AS amount,
       s.paid_amount::text AS paid_amount, s.status, d.booking_id, d.status AS demand_status,
       d.demand_date::text AS demand_date, d.tax IS NOT NULL AS taxed
  FROM demand_splits s
  JOIN demands d ON d.tenant_id = s.tenant_id AND d.id = s.demand_id
 WHERE s.tenant_id = $1 AND s.id = ANY($2::uuid[])
 ORDER BY d.due_date, length(d.demand_number), d.demand_number, s.id`;

export interface PaymentSplitRow {
  id: string;
  payer_id: string;
  /** What the split owes in all: its amount plus its share of the tax (gross_amount). */
  amount: string;
  paid_amount: string;
  status: string;
  booking_id: string;
  demand_status: string;
  demand_date: string;
  /** A taxed demand takes no payment dated before its invoice (its demand date). */
  taxed: boolean;
}
