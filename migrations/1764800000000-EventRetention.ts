import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Event retention (EVENTS_RETENTION_DAYS, docs/api.md): the housekeeping job deletes events older
 * than the retention, tenant by tenant in bounded batches, through a SECURITY DEFINER function
 * (the application role has no DELETE on events, and row-level security would hide other
 * tenants' rows from it), as it does for idempotency keys. The sequence counter is kept, so a
 * reader can tell "purged" from "never written".
 */
export class EventRetention1764800000000 implements MigrationInterface {
  name = 'EventRetention1764800000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION purge_expired_events(max_age interval, batch_size integer)
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
          -- Oldest first, so what is kept is always a suffix of the sequence.
          DELETE FROM events
           WHERE tenant_id = tenant.id
             AND sequence <= (SELECT max(sequence) FROM (
                   SELECT sequence FROM events
                    WHERE tenant_id = tenant.id
                      AND occurred_at < now() - GREATEST(max_age, interval '1 day')
                    ORDER BY sequence LIMIT batch_size - total) oldest);
          GET DIAGNOSTICS removed = ROW_COUNT;
          total := total + removed;
        END LOOP;
        PERFORM set_config('app.tenant_id', '', true);
        RETURN total;
      END
      $$`);
    await q.query(`REVOKE ALL ON FUNCTION purge_expired_events(interval, integer) FROM PUBLIC`);
    await q.query(
      `GRANT EXECUTE ON FUNCTION purge_expired_events(interval, integer) TO finance_app`,
    );
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION purge_expired_events(interval, integer)`);
  }
}
