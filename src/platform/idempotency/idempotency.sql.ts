/**
 * The SQL of `Idempotency-Key` handling, shared by IdempotencyInterceptor and the benchmark's bare
 * floor (bench/floor-server.ts), so both run the same statements by construction.
 */

/** Serialises requests with one key. Param: idempotencyLockKey(tenant, key). */
export const IDEMPOTENCY_LOCK_SQL = `SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`;

export const idempotencyLockKey = (tenantId: string, key: string): string =>
  `idempotency\n${tenantId}\n${key}`;

/** The stored response of a key, if any. Params: tenant, key. */
export const IDEMPOTENCY_FIND_SQL = `SELECT request_hash, response_status, response_body #>> '{}' AS response_body,
       response_secrets
         FROM idempotency_keys WHERE tenant_id = $1 AND key = $2`;

/**
 * Params: tenant, key, request hash, status, response JSON text, and the response's secret fields
 * sealed (null: none; the JSON text has them as null).
 */
export const IDEMPOTENCY_STORE_SQL = `INSERT INTO idempotency_keys (tenant_id, key, request_hash, response_status, response_body,
       response_secrets)
       VALUES ($1, $2, $3, $4, to_jsonb($5::text), $6)`;

/** A stored response with secret fields not under the current key, for secrets:rotate. */
export interface StoredSecretsRow {
  key: string;
  response_secrets: Buffer;
}

/**
 * The next stored responses whose sealed fields are under another key than $2 (the current
 * key's id: bytes 2 to 9), locked until re-sealed. $1 tenant, $3 how many.
 */
export const STORED_SECRETS_TO_RESEAL_SQL = `SELECT key, response_secrets FROM idempotency_keys
 WHERE tenant_id = $1 AND substring(response_secrets FROM 2 FOR 8) <> $2
 ORDER BY key
 LIMIT $3
 FOR UPDATE`;

export const storedSecretsToResealParams = (p: {
  tenantId: string;
  keyId: Buffer;
  limit: number;
}): unknown[] => [p.tenantId, p.keyId, p.limit];

/** The re-sealed fields of STORED_SECRETS_TO_RESEAL_SQL's rows (the schema owner's statement). */
export const RESEAL_STORED_SECRETS_SQL = `UPDATE idempotency_keys i SET response_secrets = r.sealed
  FROM unnest($2::text[], $3::bytea[]) AS r(key, sealed)
 WHERE i.tenant_id = $1 AND i.key = r.key`;

export const resealStoredSecretsParams = (p: {
  tenantId: string;
  keys: string[];
  sealed: Buffer[];
}): unknown[] => [p.tenantId, p.keys, p.sealed];
