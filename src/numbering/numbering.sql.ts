/**
 * The SQL of issuing a document number, shared by NumberingService and the benchmark's bare
 * floor (bench/floor-server.ts), so both run the same statements by construction.
 */

/**
 * Takes the next value of a counter, locking its row until commit. next_value is the next
 * number to issue; Starting only ever moves a counter forward. Params: tenant, document type,
 * counter key, starting value. Returns `value`, the number to render.
 */
export const NEXT_COUNTER_VALUE_SQL = `INSERT INTO number_counters (tenant_id, document_type, counter_key, next_value)
         VALUES ($1, $2, $3, $4::bigint + 1)
         ON CONFLICT (tenant_id, document_type, counter_key) DO UPDATE
           SET next_value = GREATEST(number_counters.next_value, $4::bigint) + 1, updated_at = now()
         RETURNING (next_value - 1)::text AS value`;

/** Claims a rendered number; no row back when it is taken. Params: tenant, document type, number. */
export const CLAIM_NUMBER_SQL = `INSERT INTO issued_numbers (tenant_id, document_type, number) VALUES ($1, $2, $3)
         ON CONFLICT DO NOTHING RETURNING number`;
