import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One row per tenant whose `version` moves with every receipt write (record, cancel). Search keys
 * its cache of exact counts by it, so a cached total is never older than the last committed write.
 */
export class ReceiptSearchVersions1763863200000 implements MigrationInterface {
  name = 'ReceiptSearchVersions1763863200000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE receipt_search_versions (
        tenant_id uuid NOT NULL REFERENCES tenants(id),
        version bigint NOT NULL DEFAULT 0,
        PRIMARY KEY (tenant_id)
      )`);
    await q.query(`ALTER TABLE receipt_search_versions ENABLE ROW LEVEL SECURITY`);
    await q.query(`ALTER TABLE receipt_search_versions FORCE ROW LEVEL SECURITY`);
    await q.query(`
      CREATE POLICY tenant_isolation ON receipt_search_versions
        USING (tenant_id = (SELECT NULLIF(current_setting('app.tenant_id', true), '')::uuid))
        WITH CHECK (tenant_id = (SELECT NULLIF(current_setting('app.tenant_id', true), '')::uuid))`);
    await q.query(`GRANT SELECT, INSERT, UPDATE ON receipt_search_versions TO finance_app`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE receipt_search_versions`);
  }
}
