import { MigrationInterface, QueryRunner } from 'typeorm';

/** pg-boss queue of webhook deliveries: one queued job per subscription (singleton key). */
export const WEBHOOK_QUEUE = 'webhooks.deliver';
export const WEBHOOK_QUEUE_OPTIONS = {
  // 'short': at most one *queued* job per subscription, so several instances' dispatchers never
  // pile up work for one subscription. Exclusive delivery is a transaction advisory lock (below).
  policy: 'short',
  // Retries follow WEBHOOK_RETRY_SCHEDULE, kept on the subscription, not pg-boss' own backoff.
  retryLimit: 0,
  expireInSeconds: 300,
  retentionMinutes: 60,
};

/**
 * Webhooks (docs/api.md).
 *
 * - `webhook_subscriptions`: where a tenant wants its events POSTed, the signing secret(s) and
 *   the delivery cursor: `delivered_sequence` is the last event sequence handled (delivered, or
 *   skipped because its type is not subscribed); the event after it is the one being tried, with
 *   `failing_attempts` failures so far and `next_attempt_at` as the backoff. Deleted
 *   subscriptions are kept (`deleted_at`) with their delivery log; the application role has no
 *   DELETE anywhere.
 * - `webhook_deliveries`: one row per attempt (the paged log of GET /webhooks/{id}/deliveries).
 * - `webhook_due_subscriptions()`: what the dispatcher of any instance polls: enabled
 *   subscriptions with an undelivered event and no pending backoff, across tenants, under each
 *   tenant's own policy (the function sets each tenant in turn; FORCE RLS applies to its owner).
 * - the pg-boss queue the dispatcher fills and the delivery workers drain.
 *
 * Both tables are tenant-owned, with `tenant_id` leading every key, under row-level security.
 */
export class Webhooks1764900000000 implements MigrationInterface {
  name = 'Webhooks1764900000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE webhook_subscriptions (
        tenant_id uuid NOT NULL REFERENCES tenants(id),
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        url text NOT NULL,
        event_types text[] NOT NULL,
        description text,
        enabled boolean NOT NULL DEFAULT true,
        disabled_reason text,
        disabled_at timestamptz,
        secret bytea NOT NULL,
        previous_secret bytea,
        previous_secret_expires_at timestamptz,
        delivered_sequence bigint NOT NULL,
        failing_attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz,
        last_error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        created_by text NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        deleted_at timestamptz,
        PRIMARY KEY (tenant_id, id),
        CHECK (octet_length(secret) = 32),
        CHECK (cardinality(event_types) > 0)
      )`);
    await q.query(`
      CREATE INDEX webhook_subscriptions_list_idx ON webhook_subscriptions (tenant_id, created_at, id)
        WHERE deleted_at IS NULL`);
    await q.query(`
      CREATE TABLE webhook_deliveries (
        tenant_id uuid NOT NULL,
        subscription_id uuid NOT NULL,
        id bigint GENERATED ALWAYS AS IDENTITY,
        event_id uuid NOT NULL,
        event_sequence bigint NOT NULL,
        event_type text NOT NULL,
        attempt integer NOT NULL,
        outcome text NOT NULL CHECK (outcome IN ('SUCCEEDED', 'RETRYING', 'FAILED')),
        status_code integer,
        duration_ms integer NOT NULL,
        error text,
        attempted_at timestamptz NOT NULL,
        next_retry_at timestamptz,
        PRIMARY KEY (tenant_id, subscription_id, id),
        FOREIGN KEY (tenant_id, subscription_id) REFERENCES webhook_subscriptions (tenant_id, id)
      )`);
    for (const table of ['webhook_subscriptions', 'webhook_deliveries']) {
      await q.query(`ALTER TABLE ${table} ENABLE ROW LEVEL SECURITY`);
      await q.query(`ALTER TABLE ${table} FORCE ROW LEVEL SECURITY`);
      await q.query(`
        CREATE POLICY tenant_isolation ON ${table}
          USING (tenant_id = (SELECT NULLIF(current_setting('app.tenant_id', true), '')::uuid))
          WITH CHECK (tenant_id = (SELECT NULLIF(current_setting('app.tenant_id', true), '')::uuid))`);
    }
    await q.query(`GRANT SELECT, INSERT, UPDATE ON webhook_subscriptions TO finance_app`);
    await q.query(`GRANT SELECT, INSERT ON webhook_deliveries TO finance_app`);

    // One tenant's due subscriptions: what the instance that committed its events asks for.
    await q.query(`
      CREATE FUNCTION webhook_due_subscriptions(p_tenant uuid)
      RETURNS TABLE (tenant_id uuid, subscription_id uuid)
      LANGUAGE plpgsql
      SECURITY DEFINER
      SET search_path = public, pg_temp
      AS $$
      BEGIN
        PERFORM set_config('app.tenant_id', p_tenant::text, true);
        RETURN QUERY
          SELECT s.tenant_id, s.id
            FROM webhook_subscriptions s
            JOIN event_sequences q ON q.tenant_id = s.tenant_id
           WHERE s.tenant_id = p_tenant
             AND s.enabled AND s.deleted_at IS NULL
             AND s.delivered_sequence < q.last_sequence
             AND (s.next_attempt_at IS NULL OR s.next_attempt_at <= now())
             AND EXISTS (SELECT 1 FROM tenants t WHERE t.id = p_tenant AND t.active);
        PERFORM set_config('app.tenant_id', '', true);
      END
      $$`);
    // Every active tenant's, tenant by tenant under its own policy: what the poll asks for.
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
    for (const fn of ['webhook_due_subscriptions(uuid)', 'webhook_due_subscriptions()']) {
      await q.query(`REVOKE ALL ON FUNCTION ${fn} FROM PUBLIC`);
      await q.query(`GRANT EXECUTE ON FUNCTION ${fn} TO finance_app`);
    }

    // The delivery log is kept as long as the events (EVENTS_RETENTION_DAYS), purged by the
    // housekeeping job like them: the application role has no DELETE.
    await q.query(`
      CREATE INDEX webhook_deliveries_attempted_idx ON webhook_deliveries (tenant_id, attempted_at)`);
    await q.query(`
      CREATE FUNCTION purge_expired_webhook_deliveries(max_age interval, batch_size integer)
      RETURNS integer
      LANGUAGE plpgsql
      SECURITY DEFINER
      SET search_path = public, pg_temp
      AS $$
      DECLARE
        tenant record;
        removed integer;
        total integer := 0;
      BEGIN
        IF batch_size < 1 OR batch_size > 10000 THEN
          RAISE EXCEPTION 'batch_size must be between 1 and 10000';
        END IF;
        FOR tenant IN SELECT id FROM tenants ORDER BY id LOOP
          EXIT WHEN total >= batch_size;
          PERFORM set_config('app.tenant_id', tenant.id::text, true);
          DELETE FROM webhook_deliveries
           WHERE tenant_id = tenant.id
             AND ctid IN (SELECT ctid FROM webhook_deliveries
                           WHERE tenant_id = tenant.id
                             AND attempted_at < now() - GREATEST(max_age, interval '1 day')
                           LIMIT batch_size - total);
          GET DIAGNOSTICS removed = ROW_COUNT;
          total := total + removed;
        END LOOP;
        PERFORM set_config('app.tenant_id', '', true);
        RETURN total;
      END
      $$`);
    await q.query(
      `REVOKE ALL ON FUNCTION purge_expired_webhook_deliveries(interval, integer) FROM PUBLIC`,
    );
    await q.query(
      `GRANT EXECUTE ON FUNCTION purge_expired_webhook_deliveries(interval, integer) TO finance_app`,
    );

    await q.query(`SELECT pgboss.create_queue($1, $2)`, [
      WEBHOOK_QUEUE,
      JSON.stringify(WEBHOOK_QUEUE_OPTIONS),
    ]);
    // The queue is a new partition table: the application reads and writes its rows.
    await q.query(
      `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA pgboss TO finance_app`,
    );
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`SELECT pgboss.delete_queue($1)`, [WEBHOOK_QUEUE]);
    await q.query(`DROP FUNCTION purge_expired_webhook_deliveries(interval, integer)`);
    await q.query(`DROP FUNCTION webhook_due_subscriptions()`);
    await q.query(`DROP FUNCTION webhook_due_subscriptions(uuid)`);
    await q.query(`DROP TABLE webhook_deliveries`);
    await q.query(`DROP TABLE webhook_subscriptions`);
  }
}
