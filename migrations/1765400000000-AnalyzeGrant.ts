import { MigrationInterface, QueryRunner } from 'typeorm';

const TABLES = 'bookings, demands, demand_splits, receipts';

/**
 * Lets the application role ANALYZE the record tables (PostgreSQL 17's MAINTAIN privilege; a
 * no-op on older servers, where the demo seed's ANALYZE is skipped with a warning).
 *
 * The demo seed writes thousands of rows and then imports and matches a bank statement in the
 * same transaction. Without statistics for the rows it has just written, the planner takes the
 * tables as empty and scans the tenant's receipts once per statement line (about 20 s per demo
 * tenant); after ANALYZE, which counts the transaction's own rows, it probes the indexes.
 */
export class AnalyzeGrant1765400000000 implements MigrationInterface {
  name = 'AnalyzeGrant1765400000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`DO $$ BEGIN
      IF current_setting('server_version_num')::int >= 170000 THEN
        EXECUTE 'GRANT MAINTAIN ON ${TABLES} TO finance_app';
      END IF;
    END $$`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DO $$ BEGIN
      IF current_setting('server_version_num')::int >= 170000 THEN
        EXECUTE 'REVOKE MAINTAIN ON ${TABLES} FROM finance_app';
      END IF;
    END $$`);
  }
}
