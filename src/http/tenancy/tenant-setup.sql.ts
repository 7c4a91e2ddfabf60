/**
 * The first statement of every tenant transaction, one round trip: the tenant for row-level
 * security and bounded waits, all transaction-local, and whether the tenant is (still) active.
 * The tenant record itself may come from a short-lived cache; this check makes a deactivation
 * effective on every instance from the next request, not after the cache expires.
 * Binds: $1 tenant id, $2 lock_timeout, $3 statement_timeout.
 */
export const TENANT_SETUP_SQL = `SELECT set_config('app.tenant_id', $1, true),
       set_config('lock_timeout', $2, true),
       set_config('statement_timeout', $3, true),
       EXISTS (SELECT 1 FROM tenants WHERE id = $1::uuid AND active) AS active`;

/** Every tenant, active or not, for work that goes over all of them (secrets:rotate). */
export const ALL_TENANT_IDS_SQL = `SELECT id FROM tenants ORDER BY id`;

/** Binds the transaction to a tenant for row-level security (transaction-local). $1 tenant id. */
export const BIND_TENANT_SQL = `SELECT set_config('app.tenant_id', $1, true)`;

export interface TenantSetupRow {
  active: boolean;
}

/** TENANT_SETUP_SQL on a read replica, plus how far it has replayed the primary's WAL. */
export const REPLICA_TENANT_SETUP_SQL = `${TENANT_SETUP_SQL},
       pg_last_wal_replay_lsn()::text AS replayed`;

export interface ReplicaTenantSetupRow extends TenantSetupRow {
  replayed?: string | null;
}
