/**
 * The SQL of `Idempotency-Key` handling, shared by IdempotencyInterceptor and the benchmark's bare
 * floor (bench/floor-server.ts), so both run the same statements by construction.
 */

/** Serialises requests with one key. Param: idempotencyLockKey(tenant, key). */
export const IDEMPOTENCY_LOCK_SQL = `SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`;

export const idempotencyLockKey = (tenantId: string, key: string): string =>
  `idempotency\n${tenantId}\n${key}`;

/** The stored response of a key, if any. Params: tenant, key. */
export const IDEMPOTENCY_FIND_SQL = `SELECT request_hash, response_status, response_body #>> '{}' AS response_body
         FROM idempotency_keys WHERE tenant_id = $1 AND key = $2`;

/** Params: tenant, key, request hash, status, response JSON text. */
export const IDEMPOTENCY_STORE_SQL = `INSERT INTO idempotency_keys (tenant_id, key, request_hash, response_status, response_body)
       VALUES ($1, $2, $3, $4, to_jsonb($5::text))`;
