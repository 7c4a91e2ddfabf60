import { MigrationInterface, QueryRunner } from 'typeorm';

const LETTER_EVENTS = [
  'reminder.due',
  'reminder-policy.updated',
  'collection-hold.created',
  'collection-hold.ended',
  'bank-account.updated',
];

const TENANT_ONLY = `tenant_id = (SELECT NULLIF(current_setting('app.tenant_id', true), '')::uuid)`;

/**
 * Demand letters and reminders (docs/letters.md).
 *
 * - `bookings.agreement_value`: the agreement's value (optional, > 0); a letter carries the TDS
 *   note from 50,00,000 up.
 * - `bank_accounts.collection`: the account buyers pay into, printed in full on letters. At most
 *   one per tenant and currency (`bank_accounts_collection_key`, a partial unique index); the
 *   application may change only `name` and `collection`.
 * - `reminder_policies`: the tenant's steps (none until the first PUT: the default policy).
 * - `collection_holds`: a booking's holds; `until` is the last day covered (null: open-ended).
 *   Ending a hold sets `until` to that day and `ended_at`: it still covers the day it ended.
 * - `reminders`: one row per split and step, SENT or SKIPPED (an earlier step a later one
 *   replaced). `UNIQUE (tenant_id, demand_split_id, step)` is what makes a step go out once,
 *   whatever runs concurrently: a run inserts with ON CONFLICT DO NOTHING and writes events only
 *   for the rows it inserted.
 */
export class Letters1765530000000 implements MigrationInterface {
  name = 'Letters1765530000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE bookings ADD COLUMN agreement_value numeric(18,2)
      CONSTRAINT bookings_agreement_value_check CHECK (agreement_value > 0)`);
    // The demo seed values its bookings after writing them (set-based, from their demands).
    await q.query(`GRANT UPDATE (agreement_value) ON bookings TO finance_app`);
    await q.query(`ALTER TABLE bank_accounts ADD COLUMN collection boolean NOT NULL DEFAULT false`);
    await q.query(`CREATE UNIQUE INDEX bank_accounts_collection_key
      ON bank_accounts (tenant_id, currency) WHERE collection`);
    // The table grant of bank accounts predates this: the account's own update is narrowed here.
    await q.query(`REVOKE UPDATE ON bank_accounts FROM finance_app`);
    await q.query(
      `GRANT UPDATE (name, collection, last_line_sequence) ON bank_accounts TO finance_app`,
    );

    await q.query(`
      CREATE TABLE reminder_policies (
        tenant_id uuid PRIMARY KEY REFERENCES tenants(id),
        version integer NOT NULL,
        enabled boolean NOT NULL,
        steps jsonb NOT NULL,
        modified_at timestamptz NOT NULL DEFAULT now(),
        modified_by text NOT NULL
      )`);
    await q.query(`
      CREATE TABLE collection_holds (
        tenant_id uuid NOT NULL REFERENCES tenants(id),
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        booking_id uuid NOT NULL,
        reason text NOT NULL,
        from_date date NOT NULL,
        until_date date,
        created_at timestamptz NOT NULL DEFAULT now(),
        created_by text NOT NULL,
        ended_at timestamptz,
        ended_by text,
        PRIMARY KEY (tenant_id, id),
        FOREIGN KEY (tenant_id, booking_id) REFERENCES bookings (tenant_id, id),
        CONSTRAINT collection_holds_until_check CHECK (until_date >= from_date)
      )`);
    await q.query(
      `CREATE INDEX collection_holds_booking_idx ON collection_holds (tenant_id, booking_id)`,
    );
    await q.query(`
      CREATE TABLE reminders (
        tenant_id uuid NOT NULL REFERENCES tenants(id),
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        demand_split_id uuid NOT NULL,
        demand_id uuid NOT NULL,
        step text NOT NULL,
        status text NOT NULL CHECK (status IN ('SENT', 'SKIPPED')),
        as_of date NOT NULL,
        sent_at timestamptz NOT NULL DEFAULT now(),
        run_id uuid NOT NULL,
        PRIMARY KEY (tenant_id, id),
        CONSTRAINT reminders_split_step_key UNIQUE (tenant_id, demand_split_id, step),
        FOREIGN KEY (tenant_id, demand_split_id) REFERENCES demand_splits (tenant_id, id),
        FOREIGN KEY (tenant_id, demand_id) REFERENCES demands (tenant_id, id)
      )`);
    await q.query(`CREATE INDEX reminders_demand_idx ON reminders (tenant_id, demand_id)`);
    for (const table of ['reminder_policies', 'collection_holds', 'reminders']) {
      await q.query(`ALTER TABLE ${table} ENABLE ROW LEVEL SECURITY`);
      await q.query(`ALTER TABLE ${table} FORCE ROW LEVEL SECURITY`);
      await q.query(`
        CREATE POLICY tenant_isolation ON ${table}
          USING (${TENANT_ONLY})
          WITH CHECK (${TENANT_ONLY})`);
    }
    await q.query(`GRANT SELECT, INSERT, UPDATE ON reminder_policies TO finance_app`);
    await q.query(`GRANT SELECT, INSERT ON collection_holds TO finance_app`);
    await q.query(
      `GRANT UPDATE (until_date, ended_at, ended_by) ON collection_holds TO finance_app`,
    );
    // Reminders are append-only for the application: a sent reminder is never unsent.
    await q.query(`GRANT SELECT, INSERT ON reminders TO finance_app`);
    await this.eventTypes(q, (types) => [...new Set([...types, ...LETTER_EVENTS])]);
  }

  public async down(q: QueryRunner): Promise<void> {
    await this.eventTypes(q, (types) => types.filter((t) => !LETTER_EVENTS.includes(t)));
    await q.query(`DROP TABLE reminders`);
    await q.query(`DROP TABLE collection_holds`);
    await q.query(`DROP TABLE reminder_policies`);
    await q.query(
      `REVOKE UPDATE (name, collection, last_line_sequence) ON bank_accounts FROM finance_app`,
    );
    await q.query(`GRANT UPDATE ON bank_accounts TO finance_app`);
    await q.query(`DROP INDEX bank_accounts_collection_key`);
    await q.query(`ALTER TABLE bank_accounts DROP COLUMN collection`);
    await q.query(`REVOKE UPDATE (agreement_value) ON bookings FROM finance_app`);
    await q.query(`ALTER TABLE bookings DROP COLUMN agreement_value`);
  }

  /** Rewrites the events type CHECK from the types it lists now (other migrations add theirs). */
  private async eventTypes(q: QueryRunner, change: (types: string[]) => string[]): Promise<void> {
    const [row] = (await q.query(
      `SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint
        WHERE conrelid = 'events'::regclass AND conname = 'events_type_check'`,
    )) as { def: string }[];
    const current = [...(row?.def ?? '').matchAll(/'([^']+)'/g)].map((m) => m[1]);
    const types = change(current)
      .map((t) => `'${t.replace(/'/g, "''")}'`)
      .join(', ');
    await q.query(`ALTER TABLE events DROP CONSTRAINT events_type_check`);
    await q.query(`ALTER TABLE events ADD CONSTRAINT events_type_check CHECK (type IN (${types}))`);
  }
}
