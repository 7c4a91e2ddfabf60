import { MigrationInterface, QueryRunner } from 'typeorm';

const NEW_EVENTS = ['cancellation-policy.updated', 'refund.paid'];

const TENANT_ONLY = `tenant_id = (SELECT NULLIF(current_setting('app.tenant_id', true), '')::uuid)`;

/**
 * Cancelling a booking that has been paid for (docs/cancellation.md).
 *
 * - `cancellation_policies` and `cancellation_policy_history`: the tenant's policy in force (none
 *   until the first PUT: the defaults) and every stored version, append-only.
 * - `cancellations`: one per cancelled booking (`cancellations_booking_key`: two at once create
 *   one), its figures frozen as JSON when it was made, and the refund's columns, written once
 *   when it is paid. `cancellations_refunds_due_idx` serves the refunds queue.
 * - `credit_notes.cancellation_id`: the cancellation that issued a note (null for a demand's
 *   cancel). `receipts.refunded_on`: when the refund of the receipt's cancelled booking was paid;
 *   in no index, so writing it can be a HOT update.
 * - Events: `cancellation-policy.updated`, `refund.paid`.
 */
export class Cancellations1765670000000 implements MigrationInterface {
  name = 'Cancellations1765670000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE cancellation_policies (
        tenant_id uuid PRIMARY KEY REFERENCES tenants(id),
        version integer NOT NULL,
        rule text NOT NULL
          CONSTRAINT cancellation_policies_rule_check
          CHECK (rule IN ('MAHARERA_2022', 'PERCENT_OF_VALUE', 'BANDS')),
        percent numeric(5,2) NOT NULL
          CONSTRAINT cancellation_policies_percent_check CHECK (percent BETWEEN 0 AND 100),
        bands jsonb NOT NULL,
        refund_days integer NOT NULL
          CONSTRAINT cancellation_policies_refund_days_check CHECK (refund_days BETWEEN 1 AND 365),
        modified_at timestamptz NOT NULL DEFAULT now(),
        modified_by text NOT NULL
      )`);
    await q.query(`
      CREATE TABLE cancellation_policy_history (
        tenant_id uuid NOT NULL REFERENCES tenants(id),
        version integer NOT NULL,
        policy jsonb NOT NULL,
        changed_at timestamptz NOT NULL DEFAULT now(),
        changed_by text NOT NULL,
        PRIMARY KEY (tenant_id, version)
      )`);
    await q.query(`
      CREATE TABLE cancellations (
        tenant_id uuid NOT NULL REFERENCES tenants(id),
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        booking_id uuid NOT NULL,
        requested_on date NOT NULL,
        cancelled_on date NOT NULL,
        initiated_by text NOT NULL
          CONSTRAINT cancellations_initiated_by_check
          CHECK (initiated_by IN ('BUYER', 'PROMOTER_DEFAULT')),
        reason text NOT NULL,
        figures jsonb NOT NULL,
        refund_amount numeric(18,2) NOT NULL
          CONSTRAINT cancellations_refund_amount_check CHECK (refund_amount >= 0),
        refund_due_date date NOT NULL,
        refund_paid_on date,
        refund_interest numeric(18,2),
        refund_paid_amount numeric(18,2),
        refund_payment_mode text,
        refund_transaction_ref text,
        refund_voucher_number text,
        refunded_at timestamptz,
        refunded_by text,
        created_at timestamptz NOT NULL DEFAULT now(),
        created_by text NOT NULL,
        PRIMARY KEY (tenant_id, id),
        CONSTRAINT cancellations_booking_key UNIQUE (tenant_id, booking_id),
        CONSTRAINT cancellations_refund_paid_check CHECK (
          (refund_paid_on IS NULL) = (refund_paid_amount IS NULL)
          AND (refund_paid_on IS NULL) = (refund_interest IS NULL)),
        FOREIGN KEY (tenant_id, booking_id) REFERENCES bookings (tenant_id, id)
      )`);
    await q.query(`CREATE INDEX cancellations_refunds_due_idx
      ON cancellations (tenant_id, refund_due_date, id) WHERE refund_paid_on IS NULL`);
    for (const table of ['cancellation_policies', 'cancellation_policy_history', 'cancellations']) {
      await q.query(`ALTER TABLE ${table} ENABLE ROW LEVEL SECURITY`);
      await q.query(`ALTER TABLE ${table} FORCE ROW LEVEL SECURITY`);
      await q.query(`
        CREATE POLICY tenant_isolation ON ${table}
          USING (${TENANT_ONLY})
          WITH CHECK (${TENANT_ONLY})`);
    }
    await q.query(`GRANT SELECT, INSERT, UPDATE ON cancellation_policies TO finance_app`);
    // The history is append-only for the application.
    await q.query(`GRANT SELECT, INSERT ON cancellation_policy_history TO finance_app`);
    // A cancellation's figures never change; only its refund is written, once.
    await q.query(`GRANT SELECT, INSERT ON cancellations TO finance_app`);
    await q.query(`GRANT UPDATE (refund_paid_on, refund_interest, refund_paid_amount,
      refund_payment_mode, refund_transaction_ref, refund_voucher_number, refunded_at, refunded_by)
      ON cancellations TO finance_app`);

    await q.query(`ALTER TABLE credit_notes ADD COLUMN cancellation_id uuid`);
    await q.query(`ALTER TABLE receipts ADD COLUMN refunded_on date`);
    await q.query(`GRANT UPDATE (refunded_on) ON receipts TO finance_app`);
    await this.eventTypes(q, (types) => [...new Set([...types, ...NEW_EVENTS])]);
  }

  public async down(q: QueryRunner): Promise<void> {
    // Fails while events of the new types exist, on purpose: it cannot drop them silently.
    await this.eventTypes(q, (types) => types.filter((t) => !NEW_EVENTS.includes(t)));
    await q.query(`REVOKE UPDATE (refunded_on) ON receipts FROM finance_app`);
    await q.query(`ALTER TABLE receipts DROP COLUMN refunded_on`);
    await q.query(`ALTER TABLE credit_notes DROP COLUMN cancellation_id`);
    await q.query(`DROP TABLE cancellations`);
    await q.query(`DROP TABLE cancellation_policy_history`);
    await q.query(`DROP TABLE cancellation_policies`);
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
