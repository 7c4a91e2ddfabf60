import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Realising a receipt (bank matching sets `realised_on` and `bank_line_id`) becomes a HOT update
 * (issue 42): PostgreSQL rewrites a row in place, touching no index, only when no indexed column
 * changes and the new row fits on the same page. `bank_line_id` sat in the predicates of
 * matching's two partial indexes (`WHERE status = 'ACTIVE' AND bank_line_id IS NULL`), and a column
 * of an index predicate counts as indexed: every realisation was a cold update that added an entry
 * to each of the table's ~15 indexes (41 WAL records a receipt, one per trigram in the trigram
 * index), and `receipts` kept no free space on its pages.
 *
 * - Both indexes now cover the ACTIVE receipts, realised or not (`bank_line_id IS NULL` is checked
 *   on the row they lead to); the amount index is renamed for it,
 *   `receipts_unrealised_amount_idx` -> `receipts_active_amount_idx`.
 * - `fillfactor = 90`: pages written from now on keep a tenth free for the new row versions.
 *   Pages already full stay so until rewritten (VACUUM FULL, pg_repack): their receipts are
 *   realised with a cold update, as before.
 *
 * The indexes are rebuilt in the migration's transaction: writes to receipts wait for it (seconds
 * per million receipts).
 */
export class RealisationHotUpdate1765671000000 implements MigrationInterface {
  name = 'RealisationHotUpdate1765671000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX receipts_bank_ref_idx`);
    await q.query(`DROP INDEX receipts_unrealised_amount_idx`);
    await q.query(`
      CREATE INDEX receipts_bank_ref_idx ON receipts (tenant_id, bank_reference_key(transaction_ref))
        WHERE status = 'ACTIVE' AND transaction_ref <> ''`);
    await q.query(`
      CREATE INDEX receipts_active_amount_idx
        ON receipts (tenant_id, amount_paise(amount), received_date) WHERE status = 'ACTIVE'`);
    await q.query(`ALTER TABLE receipts SET (fillfactor = 90)`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE receipts RESET (fillfactor)`);
    await q.query(`DROP INDEX receipts_active_amount_idx`);
    await q.query(`DROP INDEX receipts_bank_ref_idx`);
    await q.query(`
      CREATE INDEX receipts_bank_ref_idx ON receipts (tenant_id, bank_reference_key(transaction_ref))
        WHERE status = 'ACTIVE' AND bank_line_id IS NULL AND transaction_ref <> ''`);
    await q.query(`
      CREATE INDEX receipts_unrealised_amount_idx
        ON receipts (tenant_id, amount_paise(amount), received_date)
        WHERE status = 'ACTIVE' AND bank_line_id IS NULL`);
  }
}
