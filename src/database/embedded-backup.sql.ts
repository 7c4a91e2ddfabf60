/** The statements `db:backup` and `db:restore` run on the embedded cluster, as its superuser. */

/**
 * $1 slot name. A temporary physical slot that reserves WAL at once: the segments from the
 * backup's start on stay in pg_wal until the backup's session ends, whatever checkpoints run
 * meanwhile. Dropped by the server when the session ends, however it ends.
 */
export const CREATE_BACKUP_SLOT_SQL =
  'SELECT pg_create_physical_replication_slot($1, immediately_reserve => true, temporary => true)';

/**
 * $1 label. Non-exclusive low-level backup (the session must stay open until pg_backup_stop);
 * fast: an immediate checkpoint, not one spread over checkpoint_timeout.
 */
export const BACKUP_START_SQL = 'SELECT pg_backup_start($1, fast => true)::text AS lsn';

export interface BackupStartRow {
  lsn: string;
}

/**
 * Ends the backup: the label file (and tablespace map) to write into the copy. The archive is
 * not waited for: there is none, the WAL is copied from pg_wal.
 */
export const BACKUP_STOP_SQL = `SELECT lsn::text AS lsn, labelfile, spcmapfile
  FROM pg_backup_stop(wait_for_archive => false)`;

export interface BackupStopRow {
  lsn: string;
  labelfile: string;
  spcmapfile: string | null;
}

/**
 * Completes the current WAL segment: every transaction committed before this call is in a
 * segment up to and including the one named. pg_switch_wal() returns the location just past the
 * switch (the next segment's start), hence the segment of the byte before it.
 */
export const SWITCH_WAL_SQL = `SELECT w.lsn::text AS lsn, pg_walfile_name(w.lsn - 1) AS walfile
  FROM pg_switch_wal() AS w(lsn)`;

export interface SwitchWalRow {
  lsn: string;
  walfile: string;
}

/** The WAL segment size in bytes (16 MB unless initdb was told otherwise). */
export const WAL_SEGMENT_SIZE_SQL = `SELECT setting::bigint::text AS bytes
  FROM pg_settings WHERE name = 'wal_segment_size'`;

export interface WalSegmentSizeRow {
  bytes: string;
}

/** What a restored cluster holds, for the command's summary (as the schema owner: no RLS). */
export const RESTORED_COUNTS_SQL = `SELECT (SELECT count(*) FROM tenants)::int AS tenants,
       (SELECT count(*) FROM receipts)::int AS receipts`;

export interface RestoredCountsRow {
  tenants: number;
  receipts: number;
}
