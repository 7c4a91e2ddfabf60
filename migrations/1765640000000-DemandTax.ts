import { MigrationInterface, QueryRunner } from 'typeorm';

const TAX_EVENTS = ['credit-note.issued'];

const TENANT_ONLY = `tenant_id = (SELECT NULLIF(current_setting('app.tenant_id', true), '')::uuid)`;

/**
 * Tax on every demand (docs/gst.md).
 *
 * - `demands.charge_type`: CONSTRUCTION (default), OTHER_CHARGES, or INTEREST (always and only
 *   for INTEREST demands). `tax` holds a taxed demand's breakdown as computed when it was raised
 *   (land deduction, taxable value, rates, heads, SAC); null while untaxed. `tax_amount` is its
 *   total (0 untaxed), and `gross_amount` = total_amount + tax_amount is what is owed: receipts,
 *   pending amounts, statuses and every reader of what is owed use it. `pending_amount` is now
 *   gross - received. `invoice_id` and `invoice_number` name its tax invoice (dated its demand date) (tax_invoices refers to its demand, so
 *   the demand holds no second foreign key back); `gst_credit_time_barred` is set when a
 *   cancel could not credit its tax (section 34's window had closed).
 * - `demand_splits.tax_amount` / `gross_amount`: the split's share of the tax and what it owes.
 * - `tax_invoices`: the invoice as issued, frozen (`document`: supplier, recipient, lines,
 *   totals), numbered from the `tax-invoice` series in the demand's transaction.
 * - `credit_notes`: a credit note as issued, frozen, with the invoices it credits.
 *
 * Untaxed demands keep their figures: gross = total and pending as before. Adding the generated
 * columns rewrites demands and demand_splits once.
 */
export class DemandTax1765640000000 implements MigrationInterface {
  name = 'DemandTax1765640000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE demands
      ADD COLUMN charge_type text NOT NULL DEFAULT 'CONSTRUCTION'
        CONSTRAINT demands_charge_type_check
        CHECK (charge_type IN ('CONSTRUCTION', 'OTHER_CHARGES', 'INTEREST')
               AND (charge_type = 'INTEREST') = (demand_type = 'INTEREST')),
      ADD COLUMN tax jsonb,
      ADD COLUMN tax_amount numeric(18,2) NOT NULL DEFAULT 0
        CONSTRAINT demands_tax_amount_check CHECK (tax_amount >= 0),
      ADD COLUMN invoice_id uuid,
      ADD COLUMN invoice_number text,
      ADD COLUMN gst_credit_time_barred boolean NOT NULL DEFAULT false`);
    // Interest demands already raised are INTEREST by definition.
    await q.query(`UPDATE demands SET charge_type = 'INTEREST' WHERE demand_type = 'INTEREST'`);
    await q.query(`ALTER TABLE demands
      ADD COLUMN gross_amount numeric(18,2) GENERATED ALWAYS AS (total_amount + tax_amount) STORED`);
    await q.query(`DROP INDEX IF EXISTS demands_pending_amount_idx`);
    await q.query(`ALTER TABLE demands DROP COLUMN pending_amount`);
    await q.query(`ALTER TABLE demands ADD COLUMN pending_amount numeric(18,2)
      GENERATED ALWAYS AS (total_amount + tax_amount - received_amount) STORED`);
    await q.query(`ALTER TABLE demands DROP CONSTRAINT demands_check`);
    await q.query(`ALTER TABLE demands ADD CONSTRAINT demands_check
      CHECK (received_amount >= 0 AND received_amount <= total_amount + tax_amount)`);

    await q.query(`ALTER TABLE demand_splits
      ADD COLUMN tax_amount numeric(18,2) NOT NULL DEFAULT 0
        CONSTRAINT demand_splits_tax_amount_check CHECK (tax_amount >= 0)`);
    await q.query(`ALTER TABLE demand_splits
      ADD COLUMN gross_amount numeric(18,2) GENERATED ALWAYS AS (amount + tax_amount) STORED`);
    await q.query(`ALTER TABLE demand_splits DROP CONSTRAINT demand_splits_check`);
    await q.query(`ALTER TABLE demand_splits ADD CONSTRAINT demand_splits_check
      CHECK (paid_amount >= 0 AND paid_amount <= amount + tax_amount)`);

    await q.query(`
      CREATE TABLE tax_invoices (
        tenant_id uuid NOT NULL REFERENCES tenants(id),
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        demand_id uuid NOT NULL,
        number text NOT NULL,
        invoice_date date NOT NULL,
        recipient_gstin text,
        document jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (tenant_id, id),
        CONSTRAINT tax_invoices_number_key UNIQUE (tenant_id, number),
        CONSTRAINT tax_invoices_demand_key UNIQUE (tenant_id, demand_id),
        FOREIGN KEY (tenant_id, demand_id) REFERENCES demands (tenant_id, id)
      )`);
    await q.query(
      `CREATE INDEX tax_invoices_date_idx ON tax_invoices (tenant_id, invoice_date, id)`,
    );
    await q.query(`
      CREATE TABLE credit_notes (
        tenant_id uuid NOT NULL REFERENCES tenants(id),
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        booking_id uuid NOT NULL,
        number text NOT NULL,
        note_date date NOT NULL,
        recipient_gstin text,
        document jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        created_by text NOT NULL,
        PRIMARY KEY (tenant_id, id),
        CONSTRAINT credit_notes_number_key UNIQUE (tenant_id, number),
        FOREIGN KEY (tenant_id, booking_id) REFERENCES bookings (tenant_id, id)
      )`);
    await q.query(
      `CREATE INDEX credit_notes_booking_idx ON credit_notes (tenant_id, booking_id, note_date)`,
    );
    await q.query(`CREATE INDEX credit_notes_date_idx ON credit_notes (tenant_id, note_date, id)`);
    for (const table of ['tax_invoices', 'credit_notes']) {
      await q.query(`ALTER TABLE ${table} ENABLE ROW LEVEL SECURITY`);
      await q.query(`ALTER TABLE ${table} FORCE ROW LEVEL SECURITY`);
      await q.query(`
        CREATE POLICY tenant_isolation ON ${table}
          USING (${TENANT_ONLY})
          WITH CHECK (${TENANT_ONLY})`);
      // Issued documents are never changed or removed by the application.
      await q.query(`GRANT SELECT, INSERT ON ${table} TO finance_app`);
    }
    await q.query(
      `GRANT UPDATE (invoice_id, invoice_number, gst_credit_time_barred) ON demands TO finance_app`,
    );
    await this.eventTypes(q, (types) => [...new Set([...types, ...TAX_EVENTS])]);
  }

  public async down(q: QueryRunner): Promise<void> {
    await this.eventTypes(q, (types) => types.filter((t) => !TAX_EVENTS.includes(t)));
    await q.query(
      `REVOKE UPDATE (invoice_id, invoice_number, gst_credit_time_barred) ON demands FROM finance_app`,
    );
    await q.query(`DROP TABLE credit_notes`);
    await q.query(`DROP TABLE tax_invoices`);
    await q.query(`ALTER TABLE demand_splits DROP CONSTRAINT demand_splits_check`);
    await q.query(`ALTER TABLE demand_splits ADD CONSTRAINT demand_splits_check
      CHECK (paid_amount >= 0 AND paid_amount <= amount)`);
    await q.query(`ALTER TABLE demand_splits DROP COLUMN gross_amount, DROP COLUMN tax_amount`);
    await q.query(`ALTER TABLE demands DROP CONSTRAINT demands_check`);
    await q.query(`ALTER TABLE demands ADD CONSTRAINT demands_check
      CHECK (received_amount >= 0 AND received_amount <= total_amount)`);
    await q.query(`ALTER TABLE demands DROP COLUMN pending_amount`);
    await q.query(`ALTER TABLE demands ADD COLUMN pending_amount numeric(18,2)
      GENERATED ALWAYS AS (total_amount - received_amount) STORED`);
    await q.query(`ALTER TABLE demands DROP COLUMN gross_amount, DROP COLUMN gst_credit_time_barred,
      DROP COLUMN invoice_id, DROP COLUMN invoice_number, DROP COLUMN tax_amount, DROP COLUMN tax, DROP COLUMN charge_type`);
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
