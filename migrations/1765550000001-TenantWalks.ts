import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Cross-tenant work that no longer grows with tenants that have none (issue 30.5).
 *
 * - `webhook_due_subscriptions()` (the dispatcher's poll, every WEBHOOK_POLL_MS on every
 *   instance) walked every active tenant, one policy-scoped lookup each. It now reads the enabled
 *   subscriptions directly (a partial index holds only those), joined to their tenant's event
 *   counter: its cost follows the subscriptions, not the tenants.
 * - The three housekeeping purges walked every tenant, one DELETE each, every HOUSEKEEPING_CRON
 *   slot. They now walk only the tenants with an expired row, found by a skip scan of the
 *   table's `(tenant_id, ...)` index (one probe per tenant that has rows there), and delete as
 *   before, tenant by tenant under its own policy.
 *
 * Both need to see across tenants, which a function's owner can only do if it bypasses row-level
 * security (a superuser, as when migrations run as the cluster's owner; FORCE ROW LEVEL SECURITY
 * applies to any other owner). Under another owner they keep the tenant-by-tenant walk, which is
 * correct either way (as for keyword search, 1764300000000-KeywordSearch.ts).
 */
export class TenantWalks1765550000001 implements MigrationInterface {
  name = 'TenantWalks1765550000001';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX webhook_subscriptions_enabled_idx
      ON webhook_subscriptions (tenant_id, id) WHERE enabled AND deleted_at IS NULL`);
    await q.query(`
      CREATE OR REPLACE FUNCTION webhook_due_subscriptions()
      RETURNS TABLE (tenant_id uuid, subscription_id uuid)
      LANGUAGE plpgsql
      SECURITY DEFINER
      SET search_path = public, pg_temp
      AS $$
      BEGIN
        IF ${SEES_ALL_TENANTS} THEN
          RETURN QUERY
            SELECT s.tenant_id, s.id
              FROM webhook_subscriptions s
              JOIN event_sequences q ON q.tenant_id = s.tenant_id
              JOIN tenants t ON t.id = s.tenant_id
             WHERE s.enabled AND s.deleted_at IS NULL
               AND s.delivered_sequence < q.last_sequence
               AND (s.next_attempt_at IS NULL OR s.next_attempt_at <= now())
               AND t.active;
        ELSE
          RETURN QUERY
            SELECT d.tenant_id, d.subscription_id
              FROM tenants t, LATERAL webhook_due_subscriptions(t.id) d
             WHERE t.active;
        END IF;
      END
      $$`);
    for (const purge of PURGES) await q.query(purgeFunction(purge, true));
  }

  public async down(q: QueryRunner): Promise<void> {
    for (const purge of PURGES) await q.query(purgeFunction(purge, false));
    await q.query(`DROP FUNCTION webhook_due_subscriptions()`);
    await q.query(`
      CREATE FUNCTION webhook_due_subscriptions()
      RETURNS TABLE (tenant_id uuid, subscription_id uuid)
      LANGUAGE sql
      SECURITY DEFINER
      SET search_path = public, pg_temp
      AS $$
        SELECT d.tenant_id, d.subscription_id
          FROM tenants t, LATERAL webhook_due_subscriptions(t.id) d
         WHERE t.active
      $$`);
    await q.query(`REVOKE ALL ON FUNCTION webhook_due_subscriptions() FROM PUBLIC`);
    await q.query(`GRANT EXECUTE ON FUNCTION webhook_due_subscriptions() TO finance_app`);
    await q.query(`DROP INDEX webhook_subscriptions_enabled_idx`);
  }
}

/** Whether the function's owner (current_user inside it) reads past row-level security. */
const SEES_ALL_TENANTS = `(SELECT r.rolsuper OR r.rolbypassrls FROM pg_roles r WHERE r.rolname = current_user)`;

interface Purge {
  name: string;
  table: string;
  /** The shortest age a row is kept, whatever max_age says. */
  floor: string;
  /** Over the table aliased `x` for tenant `k.tenant_id`: the tenant has an expired row (one index probe). */
  expired: string;
  /** The DELETE of one tenant's batch (tenant.id, cutoff, batch_size - total). */
  remove: string;
}

const PURGES: Purge[] = [
  {
    name: 'purge_expired_idempotency_keys',
    table: 'idempotency_keys',
    floor: '1 hour',
    // The tenant's oldest key: one probe of the (tenant_id, created_at) index. (An EXISTS may be
    // planned as a semi-join over the whole index, which grows with the keys, not the tenants.)
    expired: `(SELECT min(x.created_at) FROM idempotency_keys x
                WHERE x.tenant_id = k.tenant_id) < cutoff`,
    // tenant_id on the outer DELETE too: a ctid means something within one shard only (Citus).
    remove: `DELETE FROM idempotency_keys
              WHERE tenant_id = tenant.id
                AND ctid IN (SELECT ctid FROM idempotency_keys
                              WHERE tenant_id = tenant.id AND created_at < cutoff
                              LIMIT batch_size - total)`,
  },
  {
    name: 'purge_expired_events',
    table: 'events',
    floor: '1 day',
    // Events go oldest first (what is kept is a suffix of the sequence): the tenant's first
    // event, by the primary key, is the one to look at.
    expired: `(SELECT x.occurred_at FROM events x WHERE x.tenant_id = k.tenant_id
                ORDER BY x.sequence LIMIT 1) < cutoff`,
    remove: `DELETE FROM events
              WHERE tenant_id = tenant.id
                AND sequence <= (SELECT max(sequence) FROM (
                      SELECT sequence FROM events
                       WHERE tenant_id = tenant.id AND occurred_at < cutoff
                       ORDER BY sequence LIMIT batch_size - total) oldest)`,
  },
  {
    name: 'purge_expired_webhook_deliveries',
    table: 'webhook_deliveries',
    floor: '1 day',
    // The tenant's oldest attempt: one probe of the (tenant_id, attempted_at) index.
    expired: `(SELECT min(x.attempted_at) FROM webhook_deliveries x
                WHERE x.tenant_id = k.tenant_id) < cutoff`,
    remove: `DELETE FROM webhook_deliveries
              WHERE tenant_id = tenant.id
                AND ctid IN (SELECT ctid FROM webhook_deliveries
                              WHERE tenant_id = tenant.id AND attempted_at < cutoff
                              LIMIT batch_size - total)`,
  },
];

/**
 * A purge function: at most batch_size rows older than max_age (never younger than the floor),
 * tenant by tenant under each tenant's policy. `skipScan`: only the tenants with an expired row
 * when the owner sees across tenants (the recursive CTE walks the distinct tenant ids of the
 * table's leading index column); false: every tenant, as before this migration.
 */
function purgeFunction(p: Purge, skipScan: boolean): string {
  const walk = skipScan
    ? `WITH RECURSIVE k AS (
           (SELECT x.tenant_id FROM ${p.table} x ORDER BY x.tenant_id LIMIT 1)
           UNION ALL
           SELECT (SELECT x.tenant_id FROM ${p.table} x WHERE x.tenant_id > k.tenant_id
                    ORDER BY x.tenant_id LIMIT 1)
             FROM k WHERE k.tenant_id IS NOT NULL)
         SELECT k.tenant_id AS id FROM k
          WHERE sees_all AND k.tenant_id IS NOT NULL AND ${p.expired}
         UNION ALL
         SELECT t.id FROM tenants t WHERE NOT sees_all
         ORDER BY 1`
    : `SELECT id FROM tenants ORDER BY id`;
  return `
    CREATE OR REPLACE FUNCTION ${p.name}(max_age interval, batch_size integer)
    RETURNS integer
    LANGUAGE plpgsql
    SECURITY DEFINER
    SET search_path = public, pg_temp
    AS $$
    DECLARE
      tenant record;
      removed integer;
      total integer := 0;
      cutoff timestamptz := now() - GREATEST(max_age, interval '${p.floor}');
      sees_all boolean := coalesce(${SEES_ALL_TENANTS}, false);
    BEGIN
      IF batch_size < 1 OR batch_size > 10000 THEN
        RAISE EXCEPTION 'batch_size must be between 1 and 10000';
      END IF;
      -- The tenants are listed before the first one is set (the walk reads across tenants).
      FOR tenant IN SELECT w.id FROM (${walk}) w LOOP
        EXIT WHEN total >= batch_size;
        PERFORM set_config('app.tenant_id', tenant.id::text, true);
        ${p.remove};
        GET DIAGNOSTICS removed = ROW_COUNT;
        total := total + removed;
      END LOOP;
      PERFORM set_config('app.tenant_id', '', true);
      RETURN total;
    END
    $$`;
}
