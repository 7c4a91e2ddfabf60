/**
 * The SQL of recording a receipt, shared by ReceiptWritesService and the benchmark's bare floor
 * (bench/floor-server.ts), so both run the same statements by construction.
 */

/** Locks a split (first in the lock order). Params: tenant, split id. */
export const LOCK_SPLIT_SQL = `SELECT id, demand_id, payer_type, amount::text AS amount, paid_amount::text AS paid_amount, status
         FROM demand_splits WHERE tenant_id = $1 AND id = $2 FOR UPDATE`;

/** Locks the split's demand. Params: tenant, demand id. */
export const LOCK_DEMAND_SQL = `SELECT id, booking_id, total_amount::text AS total_amount,
              received_amount::text AS received_amount, status
         FROM demands WHERE tenant_id = $1 AND id = $2 FOR UPDATE`;

/** Params: tenant, split id, paid amount, status. */
export const UPDATE_SPLIT_SQL = `UPDATE demand_splits SET paid_amount = $3::numeric, status = $4, modified_at = now()
        WHERE tenant_id = $1 AND id = $2`;

/** Params: tenant, demand id, received amount, status. */
export const UPDATE_DEMAND_SQL = `UPDATE demands SET received_amount = $3::numeric, status = $4, modified_at = now()
        WHERE tenant_id = $1 AND id = $2`;

/**
 * Params: tenant, split, demand, booking, payer type, number, amount, payment mode, transaction
 * ref, received date, actor.
 */
export const INSERT_RECEIPT_SQL = `INSERT INTO receipts (tenant_id, demand_split_id, demand_id, booking_id, payer_type,
                             receipt_number, amount, payment_mode, transaction_ref, received_date,
                             status, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7::numeric, $8, $9, $10, 'ACTIVE', $11)
       RETURNING id`;
