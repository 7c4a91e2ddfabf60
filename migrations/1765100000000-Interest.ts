import { MigrationInterface, QueryRunner } from 'typeorm';

const EVENT_TYPES = `'booking.created', 'booking.cancelled', 'demand.created', 'demand.cancelled',
  'receipt.recorded', 'receipt.cancelled', 'receipt.bounced', 'tenant-configuration.updated'`;

const TENANT_ONLY = `tenant_id = (SELECT NULLIF(current_setting('app.tenant_id', true), '')::uuid)`;

/**
 * Interest on late payment (docs/interest.md).
 *
 * - `interest_policies`: the tenant's policy in force, one row per tenant (none until the first
 *   PUT: a tenant without a row has the default, disabled policy). Rates are a small JSON array
 *   read whole with the policy; covered demand and payer types are text arrays the interest
 *   statement matches with `= ANY`.
 * - `interest_policy_history`: every stored version, append-only, with who and when.
 * - `interest_waivers`: interest forgiven to a payer of a booking, append-only.
 * - `demands.interest_through`: the last day an INTEREST demand bills (null for every other
 *   demand, which a CHECK keeps so).
 * - Events: `interest.waived` and `interest-policy.updated`.
 *
 * Every new table is tenant-owned, under row-level security like the others, with `tenant_id`
 * first in its keys.
 */
export class Interest1765100000000 implements MigrationInterface {
  name = 'Interest1765100000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE demands ADD COLUMN interest_through date`);
    await q.query(`ALTER TABLE demands ADD CONSTRAINT demands_interest_through_check
      CHECK (interest_through IS NULL OR demand_type = 'INTEREST')`);

    await q.query(`
      CREATE TABLE interest_policies (
        tenant_id uuid PRIMARY KEY REFERENCES tenants(id),
        version integer NOT NULL,
        enabled boolean NOT NULL,
        grace_days integer NOT NULL CHECK (grace_days BETWEEN 0 AND 90),
        rates jsonb NOT NULL,
        demand_types text[] NOT NULL,
        payer_types text[] NOT NULL,
        modified_at timestamptz NOT NULL DEFAULT now(),
        modified_by text NOT NULL
      )`);
    await q.query(`
      CREATE TABLE interest_policy_history (
        tenant_id uuid NOT NULL REFERENCES tenants(id),
        version integer NOT NULL,
        policy jsonb NOT NULL,
        changed_at timestamptz NOT NULL DEFAULT now(),
        changed_by text NOT NULL,
        PRIMARY KEY (tenant_id, version)
      )`);
    await q.query(`
      CREATE TABLE interest_waivers (
        tenant_id uuid NOT NULL REFERENCES tenants(id),
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        booking_id uuid NOT NULL,
        payer_id uuid NOT NULL,
        amount numeric(18,2) NOT NULL CHECK (amount > 0),
        reason text NOT NULL,
        waived_on date NOT NULL,
        waived_by text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (tenant_id, id),
        FOREIGN KEY (tenant_id, booking_id) REFERENCES bookings(tenant_id, id)
      )`);
    await q.query(
      `CREATE INDEX interest_waivers_booking_idx ON interest_waivers (tenant_id, booking_id)`,
    );
    for (const table of ['interest_policies', 'interest_policy_history', 'interest_waivers']) {
      await q.query(`ALTER TABLE ${table} ENABLE ROW LEVEL SECURITY`);
      await q.query(`ALTER TABLE ${table} FORCE ROW LEVEL SECURITY`);
      await q.query(`
        CREATE POLICY tenant_isolation ON ${table}
          USING (${TENANT_ONLY})
          WITH CHECK (${TENANT_ONLY})`);
    }
    await q.query(`GRANT SELECT, INSERT, UPDATE ON interest_policies TO finance_app`);
    // The history and the waivers are append-only for the application.
    await q.query(
      `GRANT SELECT, INSERT ON interest_policy_history, interest_waivers TO finance_app`,
    );

    await q.query(`ALTER TABLE events DROP CONSTRAINT events_type_check`);
    await q.query(`ALTER TABLE events ADD CONSTRAINT events_type_check
      CHECK (type IN (${EVENT_TYPES}, 'interest.waived', 'interest-policy.updated'))`);
  }

  public async down(q: QueryRunner): Promise<void> {
    // Fails while events of the new types exist, on purpose: it cannot drop them silently.
    await q.query(`ALTER TABLE events DROP CONSTRAINT events_type_check`);
    await q.query(`ALTER TABLE events ADD CONSTRAINT events_type_check
      CHECK (type IN (${EVENT_TYPES}))`);
    await q.query(`DROP TABLE interest_waivers`);
    await q.query(`DROP TABLE interest_policy_history`);
    await q.query(`DROP TABLE interest_policies`);
    await q.query(`ALTER TABLE demands DROP CONSTRAINT demands_interest_through_check`);
    await q.query(`ALTER TABLE demands DROP COLUMN interest_through`);
  }
}
