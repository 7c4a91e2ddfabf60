import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Names on paper: a booking's unit name ("Tower B – 1203") and a split's payer name, so printed
 * documents and letters show names instead of ids. Both optional (null: print the unit's id,
 * or the buyer's name or the payer type's label). Adding nullable columns rewrites nothing.
 */
export class NamesOnPaper1765580000000 implements MigrationInterface {
  name = 'NamesOnPaper1765580000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE bookings ADD COLUMN unit_name text`);
    await q.query(`ALTER TABLE demand_splits ADD COLUMN payer_name text`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE demand_splits DROP COLUMN payer_name`);
    await q.query(`ALTER TABLE bookings DROP COLUMN unit_name`);
  }
}
