/**
 * Appends a transaction's events (docs/api.md), shared by OutboxService and the benchmark's bare
 * floor. One statement, the last before commit: it takes the tenant's sequence row (held until
 * commit, so commit order equals sequence order and no reader ever sees a gap) and inserts the
 * events numbered after it, in the order they were recorded. Params: tenant, actor, types
 * (text[]), data (JSON texts, text[]).
 */
export const APPEND_EVENTS_SQL = `WITH seq AS (
       INSERT INTO event_sequences AS s (tenant_id, last_sequence)
       VALUES ($1::uuid, cardinality($3::text[]))
       ON CONFLICT (tenant_id) DO UPDATE SET last_sequence = s.last_sequence + cardinality($3::text[])
       RETURNING last_sequence)
INSERT INTO events (tenant_id, sequence, type, actor, data)
SELECT $1::uuid, seq.last_sequence - cardinality($3::text[]) + e.ord, e.type, $2::text, e.data::json
  FROM seq, unnest($3::text[], $4::text[]) WITH ORDINALITY AS e(type, data, ord)`;

/**
 * APPEND_EVENTS_SQL and the request's Idempotency-Key record in one statement (one round trip
 * instead of two on every idempotent write). Params: those of APPEND_EVENTS_SQL, then key,
 * request hash, response status, response JSON text, sealed secret fields or null (as
 * IDEMPOTENCY_STORE_SQL's $2..$6).
 */
export const APPEND_EVENTS_AND_IDEMPOTENCY_SQL = `WITH stored AS (
       INSERT INTO idempotency_keys (tenant_id, key, request_hash, response_status, response_body,
              response_secrets)
       VALUES ($1::uuid, $5, $6, $7, to_jsonb($8::text), $9::bytea)),
     ${APPEND_EVENTS_SQL.slice('WITH '.length)}`;
