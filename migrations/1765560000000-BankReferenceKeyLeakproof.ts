import { MigrationInterface, QueryRunner } from 'typeorm';

const BODY = `SELECT ltrim(regexp_replace(
                regexp_replace(upper(ref), '^[^A-Z0-9]*((UTR|RRN|CHQ|NO)([^A-Z0-9]+|(?=[0-9])))+', ''),
                '[^A-Z0-9]', '', 'g'), '0')`;

/**
 * `bank_reference_key(text)` made usable by the application role's index look-ups, when
 * migrations run as a superuser (only a superuser may declare a function leakproof; otherwise
 * nothing changes and matching hashes the tenant's open receipts as before).
 *
 * Matching (docs/bank.md) finds a line's receipts by `bank_reference_key(transaction_ref) =
 * key`. Under row-level security a join condition may be pushed into an index scan only if it is
 * leakproof, and PostgreSQL inlined this SQL function into its body, whose upper and
 * regexp_replace are not declared so: each matching run hashed every open receipt of the tenant
 * (0.65 s per statement at 350,000 receipts, twice per import) instead of probing
 * `receipts_bank_ref_idx` once per key. With `SET search_path` the function is no longer inlined
 * (the index, built on the call, still matches it) and its own LEAKPROOF holds. It is leakproof
 * in fact: a fixed composition over its argument that raises no error for any text and has no
 * side effect, so nothing of a row the policy hides can be learnt through it. Same results, so
 * the index stays valid.
 */
export class BankReferenceKeyLeakproof1765560000000 implements MigrationInterface {
  name = 'BankReferenceKeyLeakproof1765560000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`DO $do$ BEGIN
      IF (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
        CREATE OR REPLACE FUNCTION bank_reference_key(ref text) RETURNS text
          LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF SET search_path = pg_catalog
          AS $fn$ ${BODY} $fn$;
      END IF;
    END $do$`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DO $do$ BEGIN
      IF (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
        CREATE OR REPLACE FUNCTION bank_reference_key(ref text) RETURNS text
          LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE NOT LEAKPROOF RESET search_path
          AS $fn$ ${BODY} $fn$;
      END IF;
    END $do$`);
  }
}
