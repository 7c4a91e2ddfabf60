import { MigrationInterface, QueryRunner } from 'typeorm';

const OPEN = `status = 'ACTIVE' AND bank_line_id IS NULL`;

/**
 * Rule AMOUNT_DATE's look-up of a tenant's open receipts by amount through an index under
 * row-level security (docs/bank.md).
 *
 * Matching joined `receipts.amount = line.amount`. `numeric =` is not leakproof, so under the
 * policy PostgreSQL may not push it into an index scan: each import hashed the receipts of the
 * whole table (a sequential scan of all tenants' rows: 2.5 s of a 2,000-line import at 10,000,000
 * receipts, 0.25 s at 1,000,000). `amount_paise(amount)` is the amount in paise as a bigint, the
 * unit `bank_lines.amount_paise` already holds, and `bigint =` is leakproof;
 * `receipts_unrealised_amount_idx` is rebuilt on it. As a superuser the function is declared
 * LEAKPROOF with `SET search_path` (not inlined into its body, whose numeric product is not
 * declared so); it is leakproof in fact: `receipts.amount` is numeric(18,2), so the product fits
 * a bigint and nothing raises. Without a superuser the function is an ordinary one and matching
 * scans as before. The index is rebuilt in the migration's transaction: writes to receipts wait
 * for it (seconds per million receipts).
 */
export class ReceiptAmountPaise1765570000000 implements MigrationInterface {
  name = 'ReceiptAmountPaise1765570000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION amount_paise(amount numeric) RETURNS bigint
        LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
        AS $$ SELECT (amount * 100)::bigint $$`);
    await q.query(`DO $do$ BEGIN
      IF (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
        ALTER FUNCTION amount_paise(numeric) LEAKPROOF SET search_path = pg_catalog;
      END IF;
    END $do$`);
    await q.query(`DROP INDEX receipts_unrealised_amount_idx`);
    await q.query(`
      CREATE INDEX receipts_unrealised_amount_idx
        ON receipts (tenant_id, amount_paise(amount), received_date) WHERE ${OPEN}`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX receipts_unrealised_amount_idx`);
    await q.query(`
      CREATE INDEX receipts_unrealised_amount_idx
        ON receipts (tenant_id, amount, received_date) WHERE ${OPEN}`);
    await q.query(`DROP FUNCTION amount_paise(numeric)`);
  }
}
