import { MigrationInterface, QueryRunner } from 'typeorm';

const BANK_EVENTS = ['bank-account.created', 'bank-statement.imported'];

/**
 * Bank accounts and imported statements (docs/bank.md).
 *
 * - `bank_accounts`: the tenant's accounts; `account_number` stored without spaces and hyphens,
 *   unique per tenant. `last_line_sequence` numbers the account's lines: an import takes the
 *   account row (FOR NO KEY UPDATE) before writing lines, so imports of one account queue and
 *   their lines are numbered in commit order (the cursor of GET /bank-accounts/{id}/lines).
 * - `bank_statements`: one row per imported file, keyed by the file's SHA-256 (the same file
 *   again answers with this row), with the import's summary.
 * - `bank_lines`: one row per transaction. `UNIQUE (tenant_id, bank_account_id, line_key)` is
 *   what makes a repeated line a duplicate and never a second line, also between two imports
 *   running at once (lines are written with ON CONFLICT DO NOTHING). `status` and `match_rule`
 *   are there for matching (§11.2); every line starts UNMATCHED. `raw` keeps the line as the file
 *   wrote it. `bank_lines_look_alike_idx` finds a line of another format with the same value
 *   date, direction, amount and reference (a possible duplicate).
 *
 * Tenant-owned, under row-level security like every other table; `tenant_id` leads every key.
 * The events CHECK gains the two new types, keeping whatever types it already lists.
 */
export class BankStatements1765200000000 implements MigrationInterface {
  name = 'BankStatements1765200000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE bank_accounts (
        tenant_id uuid NOT NULL REFERENCES tenants(id),
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
        account_number text NOT NULL CHECK (account_number ~ '^[A-Z0-9]{6,34}$'),
        ifsc text CHECK (ifsc ~ '^[A-Z]{4}0[A-Z0-9]{6}$'),
        currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
        last_line_sequence bigint NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        created_by text NOT NULL,
        PRIMARY KEY (tenant_id, id),
        UNIQUE (tenant_id, account_number)
      )`);
    await q.query(`
      CREATE INDEX bank_accounts_list_idx ON bank_accounts (tenant_id, created_at, id)`);
    await q.query(`
      CREATE TABLE bank_statements (
        tenant_id uuid NOT NULL REFERENCES tenants(id),
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        bank_account_id uuid NOT NULL,
        file_sha256 bytea NOT NULL CHECK (octet_length(file_sha256) = 32),
        file_bytes integer NOT NULL,
        format text NOT NULL CHECK (format IN ('csv', 'camt053', 'mt940')),
        layout text,
        encoding text NOT NULL,
        line_count integer NOT NULL DEFAULT 0,
        imported integer NOT NULL DEFAULT 0,
        duplicates integer NOT NULL DEFAULT 0,
        possible_duplicates integer NOT NULL DEFAULT 0,
        pending integer NOT NULL DEFAULT 0,
        from_date date,
        to_date date,
        opening_balance numeric(18,2),
        closing_balance numeric(18,2),
        balance_check text NOT NULL DEFAULT 'OK' CHECK (balance_check IN ('OK', 'MISMATCH')),
        first_mismatch_line integer,
        matched_auto integer NOT NULL DEFAULT 0,
        matched_suggested integer NOT NULL DEFAULT 0,
        matched_unmatched integer NOT NULL DEFAULT 0,
        imported_at timestamptz NOT NULL DEFAULT now(),
        imported_by text NOT NULL,
        PRIMARY KEY (tenant_id, id),
        UNIQUE (tenant_id, bank_account_id, file_sha256),
        FOREIGN KEY (tenant_id, bank_account_id) REFERENCES bank_accounts (tenant_id, id)
      )`);
    await q.query(`
      CREATE TABLE bank_lines (
        tenant_id uuid NOT NULL REFERENCES tenants(id),
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        bank_account_id uuid NOT NULL,
        statement_id uuid NOT NULL,
        sequence bigint NOT NULL,
        line_key bytea NOT NULL CHECK (octet_length(line_key) = 32),
        format text NOT NULL CHECK (format IN ('csv', 'camt053', 'mt940')),
        file_line integer NOT NULL,
        value_date date NOT NULL,
        booking_date date,
        direction text NOT NULL CHECK (direction IN ('CREDIT', 'DEBIT')),
        amount numeric(18,2) NOT NULL CHECK (amount > 0),
        narration text NOT NULL,
        reference text NOT NULL,
        reference_key text NOT NULL,
        utr text,
        cheque_number text,
        balance numeric(18,2),
        reversal boolean NOT NULL DEFAULT false,
        possible_duplicate boolean NOT NULL DEFAULT false,
        status text NOT NULL DEFAULT 'UNMATCHED'
          CHECK (status IN ('UNMATCHED', 'SUGGESTED', 'MATCHED', 'IGNORED')),
        match_rule text
          CHECK (match_rule IN ('REFERENCE', 'GROUP', 'AMOUNT_DATE', 'MANUAL', 'RETURN')),
        status_changed_at timestamptz,
        raw text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (tenant_id, id),
        UNIQUE (tenant_id, bank_account_id, line_key),
        UNIQUE (tenant_id, bank_account_id, sequence),
        FOREIGN KEY (tenant_id, bank_account_id) REFERENCES bank_accounts (tenant_id, id),
        FOREIGN KEY (tenant_id, statement_id) REFERENCES bank_statements (tenant_id, id)
      )`);
    await q.query(`
      CREATE INDEX bank_lines_look_alike_idx
        ON bank_lines (tenant_id, value_date, reference_key)`);
    for (const table of ['bank_accounts', 'bank_statements', 'bank_lines']) {
      await q.query(`ALTER TABLE ${table} ENABLE ROW LEVEL SECURITY`);
      await q.query(`ALTER TABLE ${table} FORCE ROW LEVEL SECURITY`);
      await q.query(`
        CREATE POLICY tenant_isolation ON ${table}
          USING (tenant_id = (SELECT NULLIF(current_setting('app.tenant_id', true), '')::uuid))
          WITH CHECK (tenant_id = (SELECT NULLIF(current_setting('app.tenant_id', true), '')::uuid))`);
      await q.query(`GRANT SELECT, INSERT, UPDATE ON ${table} TO finance_app`);
    }
    await this.eventTypes(q, (types) => [...new Set([...types, ...BANK_EVENTS])]);
  }

  public async down(q: QueryRunner): Promise<void> {
    await this.eventTypes(q, (types) => types.filter((t) => !BANK_EVENTS.includes(t)));
    await q.query(`DROP TABLE bank_lines`);
    await q.query(`DROP TABLE bank_statements`);
    await q.query(`DROP TABLE bank_accounts`);
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
