import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Keeps keyword lookups as fast at the end of a working day as at its start. Every receipt
 * inserts into `receipts_text_trgm_idx` and updates its demand row (which, on a full page, is a
 * new tuple and new entries in `demands_text_trgm_idx`). With GIN's default `fastupdate` those
 * entries pile up in the index's unsorted pending list, which every lookup reads in full until
 * autovacuum merges it: measured at 200,000 receipts, the "iyer" lookups went from 7 ms to 34 ms
 * after 3,000 demand updates, and back to 7 ms after `gin_clean_pending_list`. Without the pending
 * list each entry goes into the index at once (3,000 updates: 434 ms instead of 160 ms, ~0.1 ms
 * each) and the lookups stayed at 7 ms. A lower fillfactor leaves room on demand and split pages
 * so their payment updates are HOT (no index entries at all) on pages written from now on.
 */
export class SearchIndexUpkeep1764400000000 implements MigrationInterface {
  name = 'SearchIndexUpkeep1764400000000';

  public async up(q: QueryRunner): Promise<void> {
    for (const index of TRIGRAM_INDEXES) {
      await q.query(`ALTER INDEX ${index} SET (fastupdate = off)`);
      // What is already pending goes into the index now; nothing is added to the list any more.
      await q.query(`SELECT gin_clean_pending_list($1::regclass)`, [index]);
    }
    await q.query(`ALTER TABLE demands SET (fillfactor = 85)`);
    await q.query(`ALTER TABLE demand_splits SET (fillfactor = 85)`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE demand_splits RESET (fillfactor)`);
    await q.query(`ALTER TABLE demands RESET (fillfactor)`);
    for (const index of TRIGRAM_INDEXES) await q.query(`ALTER INDEX ${index} RESET (fastupdate)`);
  }
}

const TRIGRAM_INDEXES = ['receipts_text_trgm_idx', 'demands_text_trgm_idx'];
