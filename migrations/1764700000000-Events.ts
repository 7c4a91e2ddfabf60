import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The transactional outbox and its feed (docs/api.md, Events).
 *
 * - `events`: one row per change, written in the change's transaction, with the tenant's
 *   sequence number; `data` is the record as its GET returns it.
 * - `event_sequences`: the tenant's sequence counter, in a table of its own (never the tenants
 *   row). Every transaction that records events takes it in its last statement before commit,
 *   so the row lock is held for microseconds and commit order equals sequence order: a reader
 *   never sees sequence n + 1 before n.
 *
 * Both are tenant-owned, under row-level security like every other table. `id` (a random UUID)
 * has no index of its own: each receipt write pays for one index entry (the sequence), not two.
 */
export class Events1764700000000 implements MigrationInterface {
  name = 'Events1764700000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE event_sequences (
        tenant_id uuid PRIMARY KEY REFERENCES tenants(id),
        last_sequence bigint NOT NULL
      )`);
    await q.query(`
      CREATE TABLE events (
        tenant_id uuid NOT NULL REFERENCES tenants(id),
        sequence bigint NOT NULL,
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        type text NOT NULL CHECK (type IN ('booking.created', 'booking.cancelled',
          'demand.created', 'demand.cancelled', 'receipt.recorded', 'receipt.cancelled',
          'receipt.bounced', 'tenant-configuration.updated')),
        occurred_at timestamptz NOT NULL DEFAULT now(),
        actor text NOT NULL,
        -- json, not jsonb: stored as written (the GET's bytes), no conversion on the write path
        data json NOT NULL,
        PRIMARY KEY (tenant_id, sequence)
      )`);
    for (const table of ['event_sequences', 'events']) {
      await q.query(`ALTER TABLE ${table} ENABLE ROW LEVEL SECURITY`);
      await q.query(`ALTER TABLE ${table} FORCE ROW LEVEL SECURITY`);
      await q.query(`
        CREATE POLICY tenant_isolation ON ${table}
          USING (tenant_id = (SELECT NULLIF(current_setting('app.tenant_id', true), '')::uuid))
          WITH CHECK (tenant_id = (SELECT NULLIF(current_setting('app.tenant_id', true), '')::uuid))`);
    }
    await q.query(`GRANT SELECT, INSERT, UPDATE ON event_sequences TO finance_app`);
    await q.query(`GRANT SELECT, INSERT ON events TO finance_app`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE events`);
    await q.query(`DROP TABLE event_sequences`);
  }
}
