import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The receipts that left ACTIVE, by the business date they left it (docs/receivables.md).
 *
 * The ageing report reads what was paid on `asOf` as the splits' `paid_amount` (what ACTIVE
 * receipts pay now) corrected by the few receipts whose standing on `asOf` differs from now:
 * ACTIVE ones received after `asOf` (found through receipts_default_sort_idx) and cancelled or
 * bounced ones that left ACTIVE after `asOf` (this index: a few per cent of the rows).
 */
export class ReceiptsLeftActive1765050000000 implements MigrationInterface {
  name = 'ReceiptsLeftActive1765050000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX receipts_left_active_idx ON receipts (tenant_id, status_changed_on)
      INCLUDE (demand_split_id, amount, received_date) WHERE status <> 'ACTIVE'`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX receipts_left_active_idx`);
  }
}
