import { MigrationInterface, QueryRunner } from 'typeorm';

const MODES = `'CASH', 'CHEQUE', 'DEMAND_DRAFT', 'NEFT', 'RTGS', 'IMPS', 'UPI', 'CARD', 'ONLINE', 'OTHER'`;

/**
 * TDS receipts and INTEREST demands (docs/api.md).
 *
 * - A receipt may be paid by `TDS`: the 1 % the buyer deducted and deposited as tax (Form 26QB,
 *   section 194-IA); its transaction reference is the 26QB acknowledgement number.
 * - A demand may be of type `INTEREST` (interest on late payment).
 *
 * Only the CHECK constraints listing the values change. `down` fails while rows use the new
 * values, on purpose: it cannot drop them silently.
 */
export class TdsAndInterest1765024000000 implements MigrationInterface {
  name = 'TdsAndInterest1765024000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE receipts DROP CONSTRAINT receipts_payment_mode_check`);
    await q.query(`ALTER TABLE receipts ADD CONSTRAINT receipts_payment_mode_check
      CHECK (payment_mode IN (${MODES}, 'TDS'))`);
    await q.query(`ALTER TABLE demands DROP CONSTRAINT demands_demand_type_check`);
    await q.query(`ALTER TABLE demands ADD CONSTRAINT demands_demand_type_check
      CHECK (demand_type IN ('MANUAL', 'MILESTONE', 'INTEREST'))`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE demands DROP CONSTRAINT demands_demand_type_check`);
    await q.query(`ALTER TABLE demands ADD CONSTRAINT demands_demand_type_check
      CHECK (demand_type IN ('MANUAL', 'MILESTONE'))`);
    await q.query(`ALTER TABLE receipts DROP CONSTRAINT receipts_payment_mode_check`);
    await q.query(`ALTER TABLE receipts ADD CONSTRAINT receipts_payment_mode_check
      CHECK (payment_mode IN (${MODES}))`);
  }
}
