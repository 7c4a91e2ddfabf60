import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The whole first schema. Runs as the owning role; the application logs in as `finance_app`
 * (or a role that is a member of it), which owns nothing, cannot bypass RLS and only gets DML.
 *
 * Every tenant-owned table: tenant_id leads the primary key, unique constraints, foreign keys
 * and indexes (shard-ready on tenant_id), and row-level security is ENABLEd and FORCEd with a
 * policy that fails closed when app.tenant_id is unset ('' after a transaction ends, hence NULLIF).
 */
export class InitialSchema1763776800000 implements MigrationInterface {
  name = 'InitialSchema1763776800000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
    await q.query(`CREATE EXTENSION IF NOT EXISTS btree_gin`);
    await q.query(`
      DO $$ BEGIN
        IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'finance_app') THEN
          CREATE ROLE finance_app NOLOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE;
        END IF;
      END $$`);

    // Control plane: looked up by key before a tenant transaction exists, so not under RLS.
    await q.query(`
      CREATE TABLE tenants (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        key text NOT NULL UNIQUE CHECK (key ~ '^[a-z0-9][a-z0-9-]{0,62}$'),
        name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
        currency char(3) NOT NULL DEFAULT 'INR',
        locale text NOT NULL DEFAULT 'en-IN',
        timezone text NOT NULL DEFAULT 'Asia/Kolkata',
        fy_start_month smallint NOT NULL DEFAULT 4 CHECK (fy_start_month BETWEEN 1 AND 12),
        active boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);

    await q.query(`
      CREATE TABLE tenant_configurations (
        tenant_id uuid NOT NULL REFERENCES tenants(id),
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        version integer NOT NULL DEFAULT 1,
        booking_number_prefix text NOT NULL,
        booking_number_starting bigint NOT NULL,
        booking_number_pattern text NOT NULL,
        demand_number_prefix text NOT NULL,
        demand_number_starting bigint NOT NULL,
        demand_number_pattern text NOT NULL,
        demand_split_number_prefix text NOT NULL,
        demand_split_number_starting bigint NOT NULL,
        demand_split_number_pattern text NOT NULL,
        receipt_number_prefix text NOT NULL,
        receipt_number_starting bigint NOT NULL,
        receipt_number_pattern text NOT NULL,
        snag_number_prefix text NOT NULL,
        snag_number_starting bigint NOT NULL,
        snag_number_pattern text NOT NULL,
        separator text NOT NULL,
        active boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        created_by text NOT NULL,
        modified_at timestamptz NOT NULL DEFAULT now(),
        last_modified_by text NOT NULL,
        PRIMARY KEY (tenant_id, id),
        UNIQUE (tenant_id)
      )`);

    // Every replacement of the configuration, kept for audit.
    await q.query(`
      CREATE TABLE tenant_configuration_history (
        tenant_id uuid NOT NULL REFERENCES tenants(id),
        configuration_id uuid NOT NULL,
        version integer NOT NULL,
        snapshot jsonb NOT NULL,
        changes jsonb NOT NULL,
        changed_at timestamptz NOT NULL DEFAULT now(),
        changed_by text NOT NULL,
        PRIMARY KEY (tenant_id, configuration_id, version),
        FOREIGN KEY (tenant_id, configuration_id) REFERENCES tenant_configurations(tenant_id, id)
      )`);

    // One row per (document type, rendered number with the sequence masked).
    await q.query(`
      CREATE TABLE number_counters (
        tenant_id uuid NOT NULL REFERENCES tenants(id),
        document_type text NOT NULL,
        counter_key text NOT NULL,
        next_value bigint NOT NULL CHECK (next_value >= 0),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (tenant_id, document_type, counter_key)
      )`);

    // Every number ever issued: the backstop that makes a repeat impossible even after a
    // pattern or prefix change.
    await q.query(`
      CREATE TABLE issued_numbers (
        tenant_id uuid NOT NULL REFERENCES tenants(id),
        document_type text NOT NULL,
        number text NOT NULL,
        issued_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (tenant_id, document_type, number)
      )`);

    await q.query(`
      CREATE TABLE bookings (
        tenant_id uuid NOT NULL REFERENCES tenants(id),
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        booking_number text NOT NULL,
        unit_id uuid NOT NULL,
        buyer_name text NOT NULL,
        buyer_id uuid,
        booking_date date NOT NULL,
        status text NOT NULL DEFAULT 'ACTIVE' CHECK (status IN ('ACTIVE', 'CANCELLED')),
        created_at timestamptz NOT NULL DEFAULT now(),
        created_by text NOT NULL,
        PRIMARY KEY (tenant_id, id),
        UNIQUE (tenant_id, booking_number)
      )`);

    await q.query(`
      CREATE TABLE demands (
        tenant_id uuid NOT NULL REFERENCES tenants(id),
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        booking_id uuid NOT NULL,
        unit_id uuid NOT NULL,
        buyer_name text NOT NULL,
        milestone_id uuid,
        demand_type text NOT NULL CHECK (demand_type IN ('MANUAL', 'MILESTONE')),
        demand_number text NOT NULL,
        total_amount numeric(18,2) NOT NULL CHECK (total_amount > 0),
        received_amount numeric(18,2) NOT NULL DEFAULT 0,
        due_date date NOT NULL,
        demand_date date NOT NULL,
        remarks text NOT NULL DEFAULT '',
        status text NOT NULL DEFAULT 'PENDING'
          CHECK (status IN ('PENDING', 'PARTIALLY_PAID', 'PAID', 'CANCELLED')),
        created_at timestamptz NOT NULL DEFAULT now(),
        created_by text NOT NULL,
        modified_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (tenant_id, id),
        UNIQUE (tenant_id, demand_number),
        FOREIGN KEY (tenant_id, booking_id) REFERENCES bookings(tenant_id, id),
        CHECK (received_amount >= 0 AND received_amount <= total_amount)
      )`);

    await q.query(`
      CREATE TABLE demand_splits (
        tenant_id uuid NOT NULL REFERENCES tenants(id),
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        demand_id uuid NOT NULL,
        payer_type text NOT NULL CHECK (payer_type IN ('BUYER', 'CO_BUYER', 'BANK', 'OTHER')),
        payer_id uuid NOT NULL,
        demand_split_number text NOT NULL,
        amount numeric(18,2) NOT NULL CHECK (amount > 0),
        paid_amount numeric(18,2) NOT NULL DEFAULT 0,
        status text NOT NULL DEFAULT 'PENDING'
          CHECK (status IN ('PENDING', 'PARTIALLY_PAID', 'PAID', 'CANCELLED')),
        created_at timestamptz NOT NULL DEFAULT now(),
        modified_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (tenant_id, id),
        UNIQUE (tenant_id, demand_split_number),
        FOREIGN KEY (tenant_id, demand_id) REFERENCES demands(tenant_id, id),
        -- the database itself refuses an overpaid split, whatever the application does
        CHECK (paid_amount >= 0 AND paid_amount <= amount)
      )`);

    await q.query(`
      CREATE TABLE receipts (
        tenant_id uuid NOT NULL REFERENCES tenants(id),
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        demand_split_id uuid NOT NULL,
        demand_id uuid NOT NULL,
        booking_id uuid NOT NULL,
        payer_type text NOT NULL CHECK (payer_type IN ('BUYER', 'CO_BUYER', 'BANK', 'OTHER')),
        receipt_number text NOT NULL,
        amount numeric(18,2) NOT NULL CHECK (amount > 0),
        payment_mode text NOT NULL CHECK (payment_mode IN
          ('CASH', 'CHEQUE', 'DEMAND_DRAFT', 'NEFT', 'RTGS', 'IMPS', 'UPI', 'CARD', 'ONLINE', 'OTHER')),
        transaction_ref text NOT NULL DEFAULT '',
        received_date date NOT NULL,
        status text NOT NULL DEFAULT 'ACTIVE' CHECK (status IN ('ACTIVE', 'CANCELLED')),
        cancel_reason text,
        cancelled_at timestamptz,
        cancelled_by text,
        created_at timestamptz NOT NULL DEFAULT now(),
        created_by text NOT NULL,
        modified_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (tenant_id, id),
        UNIQUE (tenant_id, receipt_number),
        FOREIGN KEY (tenant_id, demand_split_id) REFERENCES demand_splits(tenant_id, id),
        FOREIGN KEY (tenant_id, demand_id) REFERENCES demands(tenant_id, id),
        FOREIGN KEY (tenant_id, booking_id) REFERENCES bookings(tenant_id, id)
      )`);

    // A retried POST with the same Idempotency-Key returns the stored response.
    await q.query(`
      CREATE TABLE idempotency_keys (
        tenant_id uuid NOT NULL REFERENCES tenants(id),
        key text NOT NULL,
        request_hash text NOT NULL,
        response_status integer NOT NULL,
        response_body jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (tenant_id, key)
      )`);

    // Search: tenant first, then the sort keys; the default sort is served by the first one.
    await q.query(`CREATE INDEX receipts_default_sort_idx ON receipts
      (tenant_id, received_date DESC, receipt_number DESC, id DESC)`);
    await q.query(`CREATE INDEX receipts_amount_idx ON receipts (tenant_id, amount, id)`);
    await q.query(`CREATE INDEX receipts_created_idx ON receipts (tenant_id, created_at, id)`);
    await q.query(
      `CREATE INDEX receipts_number_lower_idx ON receipts (tenant_id, lower(receipt_number))`,
    );
    await q.query(`CREATE INDEX receipts_split_idx ON receipts (tenant_id, demand_split_id)`);
    await q.query(`CREATE INDEX receipts_demand_idx ON receipts (tenant_id, demand_id)`);
    await q.query(`CREATE INDEX receipts_booking_idx ON receipts (tenant_id, booking_id)`);
    await q.query(`CREATE INDEX receipts_text_trgm_idx ON receipts USING gin
      (tenant_id, receipt_number gin_trgm_ops, transaction_ref gin_trgm_ops)`);
    await q.query(`CREATE INDEX demands_booking_idx ON demands (tenant_id, booking_id)`);
    await q.query(`CREATE INDEX demands_text_trgm_idx ON demands USING gin
      (tenant_id, buyer_name gin_trgm_ops, demand_number gin_trgm_ops)`);
    await q.query(`CREATE INDEX demand_splits_demand_idx ON demand_splits (tenant_id, demand_id)`);

    const tenantOwned = [
      'tenant_configurations',
      'tenant_configuration_history',
      'number_counters',
      'issued_numbers',
      'bookings',
      'demands',
      'demand_splits',
      'receipts',
      'idempotency_keys',
    ];
    for (const table of tenantOwned) {
      await q.query(`ALTER TABLE ${table} ENABLE ROW LEVEL SECURITY`);
      await q.query(`ALTER TABLE ${table} FORCE ROW LEVEL SECURITY`);
      await q.query(`
        CREATE POLICY tenant_isolation ON ${table}
          USING (tenant_id = (SELECT NULLIF(current_setting('app.tenant_id', true), '')::uuid))
          WITH CHECK (tenant_id = (SELECT NULLIF(current_setting('app.tenant_id', true), '')::uuid))`);
    }

    await q.query(`GRANT USAGE ON SCHEMA public TO finance_app`);
    await q.query(`GRANT SELECT, INSERT, UPDATE ON tenants TO finance_app`);
    await q.query(`GRANT SELECT, INSERT, UPDATE ON tenant_configurations, number_counters,
      bookings, demands, demand_splits, receipts TO finance_app`);
    // Audit trails and issued numbers are append-only for the application.
    await q.query(`GRANT SELECT, INSERT ON tenant_configuration_history, issued_numbers,
      idempotency_keys TO finance_app`);
  }

  public async down(q: QueryRunner): Promise<void> {
    for (const table of [
      'idempotency_keys',
      'receipts',
      'demand_splits',
      'demands',
      'bookings',
      'issued_numbers',
      'number_counters',
      'tenant_configuration_history',
      'tenant_configurations',
      'tenants',
    ]) {
      await q.query(`DROP TABLE IF EXISTS ${table}`);
    }
  }
}
