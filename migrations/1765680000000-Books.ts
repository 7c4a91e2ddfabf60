import { MigrationInterface, QueryRunner } from 'typeorm';

const TENANT_ONLY = `tenant_id = (SELECT NULLIF(current_setting('app.tenant_id', true), '')::uuid)`;

/**
 * The books settings (docs/returns-and-books.md, "Books"): the ledger names the accounting
 * vouchers of GET /books/vouchers post to. One row per tenant, none until the first PUT (the
 * defaults); `company` null means the tenant's name. `ledgers` is a small object read whole.
 */
export class Books1765680000000 implements MigrationInterface {
  name = 'Books1765680000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE books_settings (
        tenant_id uuid PRIMARY KEY REFERENCES tenants(id),
        version integer NOT NULL,
        company text,
        party_ledger text NOT NULL,
        party_group text NOT NULL,
        ledgers jsonb NOT NULL,
        modified_at timestamptz NOT NULL DEFAULT now(),
        modified_by text NOT NULL
      )`);
    await q.query(`ALTER TABLE books_settings ENABLE ROW LEVEL SECURITY`);
    await q.query(`ALTER TABLE books_settings FORCE ROW LEVEL SECURITY`);
    await q.query(`
      CREATE POLICY tenant_isolation ON books_settings
        USING (${TENANT_ONLY})
        WITH CHECK (${TENANT_ONLY})`);
    await q.query(`GRANT SELECT, INSERT, UPDATE ON books_settings TO finance_app`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE books_settings`);
  }
}
