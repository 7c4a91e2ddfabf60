/** The purge statements of housekeeping, one per kind of expired row, with their parameters. */

/** What a purge removes: expired idempotency keys, events, or webhook delivery attempts. */
export type PurgeTarget = 'idempotency-keys' | 'events' | 'webhook-deliveries';

/**
 * One bounded batch of each purge function (migrations): at most `$2` rows older than the
 * interval `$1`; it answers how many rows it removed.
 */
export const PURGE_IDEMPOTENCY_KEYS_SQL =
  'SELECT purge_expired_idempotency_keys($1::interval, $2) AS purged';
export const PURGE_EVENTS_SQL = 'SELECT purge_expired_events($1::interval, $2) AS purged';
export const PURGE_WEBHOOK_DELIVERIES_SQL =
  'SELECT purge_expired_webhook_deliveries($1::interval, $2) AS purged';

const PURGE_SQL: Record<PurgeTarget, string> = {
  'idempotency-keys': PURGE_IDEMPOTENCY_KEYS_SQL,
  events: PURGE_EVENTS_SQL,
  'webhook-deliveries': PURGE_WEBHOOK_DELIVERIES_SQL,
};

export interface PurgeRow {
  purged: number;
}

/** The statement purging `target`. */
export const purgeSql = (target: PurgeTarget): string => PURGE_SQL[target];

/** `maxAge`: a PostgreSQL interval, e.g. `24 hours` or `90 days`. */
export const purgeParams = (p: { maxAge: string; batchSize: number }): unknown[] => [
  p.maxAge,
  p.batchSize,
];
