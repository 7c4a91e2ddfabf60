/** The statements the read-replica router and the consistency check run. */

/** A replica's replay position, asked on the read's own connection. */
export const REPLAYED_SQL = 'SELECT pg_last_wal_replay_lsn()::text AS replayed';

/** The primary's WAL insert position now (the lag check's sample). */
export const PRIMARY_POSITION_SQL = 'SELECT pg_current_wal_insert_lsn()::text AS lsn';

/** Whether a replica is a standby, and how far it has replayed. */
export const REPLICA_STATE_SQL =
  'SELECT pg_is_in_recovery() AS standby, pg_last_wal_replay_lsn()::text AS replayed';

/**
 * A write's COMMIT and the token in one round trip (one simple-protocol message: no bind
 * parameters, so PostgreSQL accepts two statements). The SELECT runs after the COMMIT has
 * returned, so the primary's WAL insert position is past the commit record: a replica that has
 * replayed that far sees the write. The insert position, not the write position: with
 * synchronous_commit off a commit returns before its record is written. An extra statement on
 * another connection after the commit would cost every write one round trip more.
 */
export const COMMIT_RETURNING_POSITION_SQL =
  'COMMIT; SELECT pg_current_wal_insert_lsn()::text AS lsn';
