import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Keyword search through the trigram indexes. Under row-level security PostgreSQL never uses an
 * index for `ILIKE`: the operator is not leakproof, so it may not run before the policy, and the
 * trigram indexes only ever served their `tenant_id` column (every keyword search scanned the
 * tenant). These two functions look the keyword up as their owner and return only ids of the
 * tenant set for the transaction (`app.tenant_id`, exactly what the policy allows): the caller
 * passes its tenant too, and a tenant other than the transaction's gets nothing.
 *
 * Their owner must not be subject to row-level security for the lookup to use the indexes. When
 * migrations run as a superuser, they belong to `finance_keyword_search`, a NOLOGIN role created
 * here with BYPASSRLS and SELECT on only the columns they read. Otherwise they stay with the
 * migrating role: still correct (the policy applies inside them), and indexed only if that role
 * bypasses row-level security (docs/search.md, "Keyword search").
 */
export class KeywordSearch1764300000000 implements MigrationInterface {
  name = 'KeywordSearch1764300000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION receipt_keyword_demand_ids(p_tenant uuid, p_pattern text, p_limit integer)
        RETURNS SETOF uuid
        LANGUAGE sql STABLE SECURITY DEFINER
        SET search_path = pg_catalog, pg_temp
        ROWS 1000
      AS $$
        SELECT d.id FROM public.demands d
         WHERE d.tenant_id = p_tenant
           AND p_tenant = NULLIF(current_setting('app.tenant_id', true), '')::uuid
           AND (d.demand_number ILIKE p_pattern OR d.buyer_name ILIKE p_pattern)
         LIMIT p_limit
      $$`);
    await q.query(`
      CREATE FUNCTION receipt_keyword_receipt_ids(p_tenant uuid, p_pattern text, p_limit integer)
        RETURNS SETOF uuid
        LANGUAGE sql STABLE SECURITY DEFINER
        SET search_path = pg_catalog, pg_temp
        ROWS 1000
      AS $$
        SELECT r.id FROM public.receipts r
         WHERE r.tenant_id = p_tenant
           AND p_tenant = NULLIF(current_setting('app.tenant_id', true), '')::uuid
           AND (r.receipt_number ILIKE p_pattern OR r.transaction_ref ILIKE p_pattern)
         LIMIT p_limit
      $$`);
    for (const fn of FUNCTIONS) {
      await q.query(`REVOKE ALL ON FUNCTION ${fn} FROM PUBLIC`);
      await q.query(`GRANT EXECUTE ON FUNCTION ${fn} TO finance_app`);
    }
    await q.query(`
      DO $$ BEGIN
        IF (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
          BEGIN
            CREATE ROLE finance_keyword_search NOLOGIN NOINHERIT BYPASSRLS;
          EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
          END;
          GRANT USAGE ON SCHEMA public TO finance_keyword_search;
          GRANT SELECT (tenant_id, id, demand_number, buyer_name) ON demands TO finance_keyword_search;
          GRANT SELECT (tenant_id, id, receipt_number, transaction_ref) ON receipts
            TO finance_keyword_search;
          ALTER FUNCTION receipt_keyword_demand_ids(uuid, text, integer) OWNER TO finance_keyword_search;
          ALTER FUNCTION receipt_keyword_receipt_ids(uuid, text, integer) OWNER TO finance_keyword_search;
        END IF;
      END $$`);
  }

  public async down(q: QueryRunner): Promise<void> {
    for (const fn of FUNCTIONS) await q.query(`DROP FUNCTION ${fn}`);
    // The role is cluster-wide (other databases may use it): only this database's grants go.
    await q.query(`
      DO $$ BEGIN
        IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'finance_keyword_search') THEN
          REVOKE ALL ON demands, receipts FROM finance_keyword_search;
          REVOKE USAGE ON SCHEMA public FROM finance_keyword_search;
        END IF;
      END $$`);
  }
}

const FUNCTIONS = [
  'receipt_keyword_demand_ids(uuid, text, integer)',
  'receipt_keyword_receipt_ids(uuid, text, integer)',
];
