import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Incremental exact counts (src/receipts/search/exact-counts.ts).
 *
 * - `receipts.inserted_version`: the tenant's receipt write version of the transaction that
 *   inserted the row; never updated (the application may update only status and cancellation
 *   columns). No default, so a writer that does not stamp its rows fails instead of silently
 *   hiding them from incremental counts. Rows that exist now keep 0 (every version is >= 0).
 * - `receipt_search_versions.receipt_status_version`: the version of the last write that changed
 *   a receipt's status (a cancel); `demand_status_version`: of the last write that changed a
 *   demand's or split's status; `reset_version`: of the last change that no incremental count may
 *   survive (bulk loads, repairs): set it to `version` to force every count to be recounted.
 */
export class IncrementalCounts1764200000000 implements MigrationInterface {
  name = 'IncrementalCounts1764200000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE receipts ADD COLUMN inserted_version bigint NOT NULL DEFAULT 0`);
    await q.query(`ALTER TABLE receipts ALTER COLUMN inserted_version DROP DEFAULT`);
    // The receipts a count gained since its cached version: a short range scan per tenant.
    await q.query(
      `CREATE INDEX receipts_inserted_version_idx ON receipts (tenant_id, inserted_version)`,
    );
    await q.query(`
      ALTER TABLE receipt_search_versions
        ADD COLUMN receipt_status_version bigint NOT NULL DEFAULT 0,
        ADD COLUMN demand_status_version bigint NOT NULL DEFAULT 0,
        ADD COLUMN reset_version bigint NOT NULL DEFAULT 0`);
    // Counts cached before this migration were keyed differently; start every tenant afresh.
    await q.query(`UPDATE receipt_search_versions SET reset_version = version`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE receipt_search_versions
        DROP COLUMN reset_version,
        DROP COLUMN demand_status_version,
        DROP COLUMN receipt_status_version`);
    await q.query(`DROP INDEX receipts_inserted_version_idx`);
    await q.query(`ALTER TABLE receipts DROP COLUMN inserted_version`);
  }
}
