/** The statement of the event feed (GET /events), with its row type and parameter builder. */

/**
 * One event of the page (null columns: an empty page) and, on every row, the tenant's last and
 * oldest kept sequence and its counter (the last sequence ever assigned).
 */
export interface EventRow {
  id: string | null;
  sequence: string | null;
  type: string | null;
  occurred_at: Date | null;
  actor: string | null;
  data: Record<string, unknown> | null;
  last: string | null;
  oldest: string | null;
  counter: string | null;
}

/** The page and the tenant's sequences from one statement, so from one snapshot. */
export const EVENTS_PAGE_SQL = `SELECT e.id, e.sequence::text AS sequence, e.type, e.occurred_at, e.actor, e.data,
       l.last::text AS last, l.oldest::text AS oldest, l.counter::text AS counter
  FROM (SELECT max(sequence) AS last, min(sequence) AS oldest,
               (SELECT last_sequence FROM event_sequences WHERE tenant_id = $1::uuid) AS counter
          FROM events WHERE tenant_id = $1::uuid) l
  LEFT JOIN LATERAL (
    SELECT id, sequence, type, occurred_at, actor, data FROM events
     WHERE tenant_id = $1::uuid AND sequence > $2::bigint
       AND ($4::text[] IS NULL OR type = ANY($4::text[]))
     ORDER BY sequence LIMIT $3) e ON true
 ORDER BY e.sequence`;

/** `types`: null for every type. */
export const eventsPageParams = (p: {
  tenantId: string;
  after: number;
  limit: number;
  types: string[] | null;
}): unknown[] => [p.tenantId, String(p.after), p.limit, p.types];
