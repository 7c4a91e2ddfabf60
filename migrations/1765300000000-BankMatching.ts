import { MigrationInterface, QueryRunner } from 'typeorm';

const MATCH_EVENTS = [
  'bank-line.matched',
  'bank-line.unmatched',
  'bank-line.ignored',
  'receipt.realised',
  'receipt.unrealised',
];

/**
 * Matching statement lines to receipts, and realisation (docs/bank.md).
 *
 * - `bank_reference_key(text)`: a receipt's `transaction_ref` as compared with a line's UTR,
 *   cheque number or bank reference (upper case, a leading `UTR`/`RRN`/`CHQ`/`NO` label and
 *   separators removed, leading zeros ignored). Immutable, so `receipts_bank_ref_idx` can index it.
 * - `receipts.realised_on` / `bank_line_id`: set when a credit line is matched to the receipt,
 *   cleared on unmatch. On the receipts row so every receipt view reads them without bank code.
 *   The application may update only these two of the new columns.
 * - `bank_line_matches`: which receipts a line accounts for. `UNIQUE (tenant_id, receipt_id,
 *   kind)`: a receipt is matched to at most one credit line and one RETURN debit line, whatever
 *   runs concurrently (matching also locks the receipts it matches; this is the backstop).
 * - `bank_lines.suggestions`: the line's current suggestions (rewritten by each matching run).
 * - `bank_line_history`: every match, unmatch and ignore with actor, rule, time and reason. An
 *   UNMATCHED entry keeps the pair from ever being matched automatically again.
 */
export class BankMatching1765300000000 implements MigrationInterface {
  name = 'BankMatching1765300000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION bank_reference_key(ref text) RETURNS text
        LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
        AS $$ SELECT ltrim(regexp_replace(
                regexp_replace(upper(ref), '^[^A-Z0-9]*((UTR|RRN|CHQ|NO)([^A-Z0-9]+|(?=[0-9])))+', ''),
                '[^A-Z0-9]', '', 'g'), '0') $$`);
    await q.query(`ALTER TABLE receipts ADD COLUMN realised_on date, ADD COLUMN bank_line_id uuid`);
    await q.query(`GRANT UPDATE (realised_on, bank_line_id) ON receipts TO finance_app`);
    // Rules REFERENCE and GROUP: the open receipts of a tenant by reference.
    await q.query(`
      CREATE INDEX receipts_bank_ref_idx ON receipts (tenant_id, bank_reference_key(transaction_ref))
        WHERE status = 'ACTIVE' AND bank_line_id IS NULL AND transaction_ref <> ''`);
    // Rule AMOUNT_DATE: the open receipts of a tenant by amount and date.
    await q.query(`
      CREATE INDEX receipts_unrealised_amount_idx ON receipts (tenant_id, amount, received_date)
        WHERE status = 'ACTIVE' AND bank_line_id IS NULL`);

    await q.query(`ALTER TABLE bank_lines ADD COLUMN suggestions jsonb NOT NULL DEFAULT '[]'`);
    await q.query(`CREATE INDEX bank_lines_statement_idx ON bank_lines (tenant_id, statement_id)`);
    // Later receipts try the tenant's UNMATCHED credit lines by amount.
    await q.query(`
      CREATE INDEX bank_lines_open_idx ON bank_lines (tenant_id, amount)
        WHERE status = 'UNMATCHED' AND direction = 'CREDIT'`);

    await q.query(`
      CREATE TABLE bank_line_matches (
        tenant_id uuid NOT NULL REFERENCES tenants(id),
        bank_line_id uuid NOT NULL,
        receipt_id uuid NOT NULL,
        kind text NOT NULL CHECK (kind IN ('CREDIT', 'RETURN')),
        amount numeric(18,2) NOT NULL,
        rule text NOT NULL
          CHECK (rule IN ('REFERENCE', 'GROUP', 'AMOUNT_DATE', 'MANUAL', 'RETURN')),
        score numeric(4,3) NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (tenant_id, bank_line_id, receipt_id),
        UNIQUE (tenant_id, receipt_id, kind),
        FOREIGN KEY (tenant_id, bank_line_id) REFERENCES bank_lines (tenant_id, id),
        FOREIGN KEY (tenant_id, receipt_id) REFERENCES receipts (tenant_id, id)
      )`);
    await q.query(`
      CREATE TABLE bank_line_history (
        tenant_id uuid NOT NULL REFERENCES tenants(id),
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        bank_line_id uuid NOT NULL,
        at timestamptz NOT NULL DEFAULT clock_timestamp(),
        actor text NOT NULL,
        action text NOT NULL CHECK (action IN ('MATCHED', 'UNMATCHED', 'IGNORED')),
        rule text CHECK (rule IN ('REFERENCE', 'GROUP', 'AMOUNT_DATE', 'MANUAL', 'RETURN')),
        reason text,
        receipts uuid[] NOT NULL DEFAULT '{}',
        PRIMARY KEY (tenant_id, id),
        FOREIGN KEY (tenant_id, bank_line_id) REFERENCES bank_lines (tenant_id, id)
      )`);
    await q.query(
      `CREATE INDEX bank_line_history_line_idx ON bank_line_history (tenant_id, bank_line_id, at)`,
    );
    for (const table of ['bank_line_matches', 'bank_line_history']) {
      await q.query(`ALTER TABLE ${table} ENABLE ROW LEVEL SECURITY`);
      await q.query(`ALTER TABLE ${table} FORCE ROW LEVEL SECURITY`);
      await q.query(`
        CREATE POLICY tenant_isolation ON ${table}
          USING (tenant_id = (SELECT NULLIF(current_setting('app.tenant_id', true), '')::uuid))
          WITH CHECK (tenant_id = (SELECT NULLIF(current_setting('app.tenant_id', true), '')::uuid))`);
    }
    await q.query(`GRANT SELECT, INSERT, DELETE ON bank_line_matches TO finance_app`);
    await q.query(`GRANT SELECT, INSERT ON bank_line_history TO finance_app`);
    await this.eventTypes(q, (types) => [...new Set([...types, ...MATCH_EVENTS])]);
  }

  public async down(q: QueryRunner): Promise<void> {
    await this.eventTypes(q, (types) => types.filter((t) => !MATCH_EVENTS.includes(t)));
    await q.query(`DROP TABLE bank_line_history`);
    await q.query(`DROP TABLE bank_line_matches`);
    await q.query(`DROP INDEX bank_lines_open_idx`);
    await q.query(`DROP INDEX bank_lines_statement_idx`);
    await q.query(`ALTER TABLE bank_lines DROP COLUMN suggestions`);
    await q.query(`DROP INDEX receipts_unrealised_amount_idx`);
    await q.query(`DROP INDEX receipts_bank_ref_idx`);
    await q.query(`ALTER TABLE receipts DROP COLUMN realised_on, DROP COLUMN bank_line_id`);
    await q.query(`DROP FUNCTION bank_reference_key(text)`);
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
