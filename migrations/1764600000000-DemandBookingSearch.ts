import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * POST /demands/search and POST /bookings/search (docs/api.md, docs/search.md).
 *
 * - `demands.pending_amount`: the amount still owed, stored (generated) so it filters and sorts
 *   like any column instead of an expression the catalogue cannot name.
 * - Indexes for the default orders (demands by due date, bookings by booking date, newest first),
 *   walked in order so a first page reads one page of index entries, and a partial index for the
 *   overdue query (due before today and still PENDING or PARTIALLY_PAID) that skips paid and
 *   cancelled demands entirely. Plans in docs/search.md.
 */
export class DemandBookingSearch1764600000000 implements MigrationInterface {
  name = 'DemandBookingSearch1764600000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE demands ADD COLUMN pending_amount numeric(18,2)
      GENERATED ALWAYS AS (total_amount - received_amount) STORED`);
    await q.query(`CREATE INDEX demands_due_date_idx ON demands (tenant_id, due_date, id)`);
    await q.query(`CREATE INDEX demands_open_due_date_idx ON demands (tenant_id, due_date, id)
      WHERE status IN ('PENDING', 'PARTIALLY_PAID')`);
    await q.query(`CREATE INDEX bookings_booking_date_idx
      ON bookings (tenant_id, booking_date DESC, id DESC)`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX bookings_booking_date_idx`);
    await q.query(`DROP INDEX demands_open_due_date_idx`);
    await q.query(`DROP INDEX demands_due_date_idx`);
    await q.query(`ALTER TABLE demands DROP COLUMN pending_amount`);
  }
}
