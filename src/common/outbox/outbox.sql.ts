/**
 * Appends a transaction's events (contract §8), shared by OutboxService and the benchmark's bare
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
