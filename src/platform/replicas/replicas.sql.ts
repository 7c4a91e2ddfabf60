/** The statements the read-replica router and the consistency check run. */

/** A replica's replay position, asked on the read's own connection. */
export const REPLAYED_SQL = 'SELECT pg_last_wal_replay_lsn()::text AS replayed';

/** The primary's WAL insert position now (the lag check's sample). */
export const PRIMARY_POSITION_SQL = 'SELECT pg_current_wal_insert_lsn()::text AS lsn';

/** Whether a replica is a standby, and how far it has replayed. */
export const REPLICA_STATE_SQL =
  'SELECT pg_is_in_recovery() AS standby, pg_last_wal_replay_lsn()::text AS replayed';
