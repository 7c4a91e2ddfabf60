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

/**
 * Appends events made by a query in SQL (OutboxService.recordQuery), numbered after the tenant's
 * last as APPEND_EVENTS_SQL numbers them, in the query's `ord` order. `made` answers (ord bigint
 * from 1, type text, data JSON text) and binds $1 (tenant) and its own parameters from $3.
 * Params: tenant, actor, then the query's.
 */
export const appendMadeEventsSql = (made: string): string => `WITH made AS MATERIALIZED (
       ${made}
     ), n AS (SELECT count(*)::bigint AS n FROM made),
     seq AS (
       INSERT INTO event_sequences AS s (tenant_id, last_sequence)
       SELECT $1::uuid, n.n FROM n WHERE n.n > 0
       ON CONFLICT (tenant_id) DO UPDATE SET last_sequence = s.last_sequence + EXCLUDED.last_sequence
       RETURNING last_sequence)
INSERT INTO events (tenant_id, sequence, type, actor, data)
SELECT $1::uuid, seq.last_sequence - n.n + m.ord, m.type, $2::text, m.data::json
  FROM seq, n, made m`;
