import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * pg-boss 10 (schema version 24): its tables, created here by the schema owner so the
 * application login owns nothing and creates nothing at run time (pg-boss starts with
 * `migrate: false`). The statements are `PgBoss.getConstructionPlans('pgboss')` of pg-boss 10.4,
 * verbatim, without its BEGIN/advisory lock/COMMIT wrapper (TypeORM runs this migration in one
 * transaction). Queues are partitions that pg-boss' `create_queue` makes, so they are created here
 * too; the application only reads and writes rows.
 */
const PGBOSS_SCHEMA_V24 = [
  `
    CREATE SCHEMA IF NOT EXISTS pgboss
  `,
  `
    CREATE TYPE pgboss.job_state AS ENUM (
          'created',
          'retry',
          'active',
          'completed',
          'cancelled',
          'failed'
        )
  `,
  `
    CREATE TABLE pgboss.version (
          version int primary key,
          maintained_on timestamp with time zone,
          cron_on timestamp with time zone,
          monitored_on timestamp with time zone
        )
  `,
  `
    CREATE TABLE pgboss.queue (
          name text,
          policy text,
          retry_limit int,
          retry_delay int,
          retry_backoff bool,
          expire_seconds int,
          retention_minutes int,
          dead_letter text REFERENCES pgboss.queue (name),
          partition_name text,
          created_on timestamp with time zone not null default now(),
          updated_on timestamp with time zone not null default now(),
          PRIMARY KEY (name)
        )
  `,
  `
    CREATE TABLE pgboss.schedule (
          name text REFERENCES pgboss.queue ON DELETE CASCADE,
          cron text not null,
          timezone text,
          data jsonb,
          options jsonb,
          created_on timestamp with time zone not null default now(),
          updated_on timestamp with time zone not null default now(),
          PRIMARY KEY (name)
        )
  `,
  `
    CREATE TABLE pgboss.subscription (
          event text not null,
          name text not null REFERENCES pgboss.queue ON DELETE CASCADE,
          created_on timestamp with time zone not null default now(),
          updated_on timestamp with time zone not null default now(),
          PRIMARY KEY(event, name)
        )
  `,
  `
    CREATE TABLE pgboss.job (
          id uuid not null default gen_random_uuid(),
          name text not null,
          priority integer not null default(0),
          data jsonb,
          state pgboss.job_state not null default('created'),
          retry_limit integer not null default(2),
          retry_count integer not null default(0),
          retry_delay integer not null default(0),
          retry_backoff boolean not null default false,
          start_after timestamp with time zone not null default now(),
          started_on timestamp with time zone,
          singleton_key text,
          singleton_on timestamp without time zone,
          expire_in interval not null default interval '15 minutes',
          created_on timestamp with time zone not null default now(),
          completed_on timestamp with time zone,
          keep_until timestamp with time zone NOT NULL default now() + interval '14 days',
          output jsonb,
          dead_letter text,
          policy text
        ) PARTITION BY LIST (name)
  `,
  `
    ALTER TABLE pgboss.job ADD PRIMARY KEY (name, id);
    CREATE TABLE pgboss.archive (LIKE pgboss.job);
    ALTER TABLE pgboss.archive ADD PRIMARY KEY (name, id);
    ALTER TABLE pgboss.archive ADD archived_on timestamptz NOT NULL DEFAULT now();
    CREATE INDEX archive_i1 ON pgboss.archive(archived_on);

        CREATE FUNCTION pgboss.create_queue(queue_name text, options json)
        RETURNS VOID AS
        $$
        DECLARE
          table_name varchar := 'j' || encode(sha224(queue_name::bytea), 'hex');
          queue_created_on timestamptz;
        BEGIN

          WITH q as (
          INSERT INTO pgboss.queue (
            name,
            policy,
            retry_limit,
            retry_delay,
            retry_backoff,
            expire_seconds,
            retention_minutes,
            dead_letter,
            partition_name
          )
          VALUES (
            queue_name,
            options->>'policy',
            (options->>'retryLimit')::int,
            (options->>'retryDelay')::int,
            (options->>'retryBackoff')::bool,
            (options->>'expireInSeconds')::int,
            (options->>'retentionMinutes')::int,
            options->>'deadLetter',
            table_name
          )
          ON CONFLICT DO NOTHING
          RETURNING created_on
          )
          SELECT created_on into queue_created_on from q;

          IF queue_created_on IS NULL THEN
            RETURN;
          END IF;

          EXECUTE format('CREATE TABLE pgboss.%I (LIKE pgboss.job INCLUDING DEFAULTS)', table_name);

          EXECUTE format('ALTER TABLE pgboss.%1$I ADD PRIMARY KEY (name, id)', table_name);
          EXECUTE format('ALTER TABLE pgboss.%1$I ADD CONSTRAINT q_fkey FOREIGN KEY (name) REFERENCES pgboss.queue (name) ON DELETE RESTRICT DEFERRABLE INITIALLY DEFERRED', table_name);
          EXECUTE format('ALTER TABLE pgboss.%1$I ADD CONSTRAINT dlq_fkey FOREIGN KEY (dead_letter) REFERENCES pgboss.queue (name) ON DELETE RESTRICT DEFERRABLE INITIALLY DEFERRED', table_name);
          EXECUTE format('CREATE UNIQUE INDEX %1$s_i1 ON pgboss.%1$I (name, COALESCE(singleton_key, '''')) WHERE state = ''created'' AND policy = ''short''', table_name);
          EXECUTE format('CREATE UNIQUE INDEX %1$s_i2 ON pgboss.%1$I (name, COALESCE(singleton_key, '''')) WHERE state = ''active'' AND policy = ''singleton''', table_name);
          EXECUTE format('CREATE UNIQUE INDEX %1$s_i3 ON pgboss.%1$I (name, state, COALESCE(singleton_key, '''')) WHERE state <= ''active'' AND policy = ''stately''', table_name);
          EXECUTE format('CREATE UNIQUE INDEX %1$s_i4 ON pgboss.%1$I (name, singleton_on, COALESCE(singleton_key, '''')) WHERE state <> ''cancelled'' AND singleton_on IS NOT NULL', table_name);
          EXECUTE format('CREATE INDEX %1$s_i5 ON pgboss.%1$I (name, start_after) INCLUDE (priority, created_on, id) WHERE state < ''active''', table_name);

          EXECUTE format('ALTER TABLE pgboss.%I ADD CONSTRAINT cjc CHECK (name=%L)', table_name, queue_name);
          EXECUTE format('ALTER TABLE pgboss.job ATTACH PARTITION pgboss.%I FOR VALUES IN (%L)', table_name, queue_name);
        END;
        $$
        LANGUAGE plpgsql
  `,
  `
    CREATE FUNCTION pgboss.delete_queue(queue_name text)
        RETURNS VOID AS
        $$
        DECLARE
          table_name varchar;
        BEGIN
          WITH deleted as (
            DELETE FROM pgboss.queue
            WHERE name = queue_name
            RETURNING partition_name
          )
          SELECT partition_name from deleted INTO table_name;

          EXECUTE format('DROP TABLE IF EXISTS pgboss.%I', table_name);
        END;
        $$
        LANGUAGE plpgsql
  `,
  `
    INSERT INTO pgboss.version(version) VALUES ('24')
  `,
];

/** Queue of the idempotency-key purge; one job at a time across every instance. */
export const PURGE_QUEUE_OPTIONS = {
  policy: 'singleton',
  retryLimit: 2,
  retryDelay: 60,
  retryBackoff: true,
  expireInSeconds: 900,
  retentionMinutes: 1440,
};

export class Housekeeping1764000000000 implements MigrationInterface {
  name = 'Housekeeping1764000000000';

  public async up(q: QueryRunner): Promise<void> {
    for (const statement of PGBOSS_SCHEMA_V24) await q.query(statement);
    await q.query(`SELECT pgboss.create_queue($1, $2)`, [
      'idempotency-keys.purge',
      JSON.stringify(PURGE_QUEUE_OPTIONS),
    ]);
    // The application reads and writes pg-boss rows; it creates no table and runs no DDL.
    await q.query(`REVOKE ALL ON SCHEMA pgboss FROM PUBLIC`);
    await q.query(`REVOKE ALL ON ALL FUNCTIONS IN SCHEMA pgboss FROM PUBLIC`);
    await q.query(`GRANT USAGE ON SCHEMA pgboss TO finance_app`);
    await q.query(
      `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA pgboss TO finance_app`,
    );

    // Expired keys of every tenant, in bounded batches, without giving the application a way
    // around row-level security: the function sets each tenant in turn (FORCE RLS applies to
    // its owner too) and deletes at most batch_size rows per call.
    await q.query(
      `CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (tenant_id, created_at)`,
    );
    await q.query(`
      CREATE FUNCTION purge_expired_idempotency_keys(max_age interval, batch_size integer)
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
          DELETE FROM idempotency_keys
           WHERE ctid IN (SELECT ctid FROM idempotency_keys
                           WHERE tenant_id = tenant.id AND created_at < now() - max_age
                           LIMIT batch_size - total);
          GET DIAGNOSTICS removed = ROW_COUNT;
          total := total + removed;
        END LOOP;
        PERFORM set_config('app.tenant_id', '', true);
        RETURN total;
      END
      $$`);
    await q.query(
      `REVOKE ALL ON FUNCTION purge_expired_idempotency_keys(interval, integer) FROM PUBLIC`,
    );
    await q.query(
      `GRANT EXECUTE ON FUNCTION purge_expired_idempotency_keys(interval, integer) TO finance_app`,
    );

    // Least privilege: no route changes a tenant or a booking once written.
    await q.query(`REVOKE UPDATE ON tenants, bookings FROM finance_app`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`GRANT UPDATE ON tenants, bookings TO finance_app`);
    await q.query(`DROP FUNCTION purge_expired_idempotency_keys(interval, integer)`);
    await q.query(`DROP INDEX idempotency_keys_created_idx`);
    await q.query(`DROP SCHEMA pgboss CASCADE`);
  }
}
