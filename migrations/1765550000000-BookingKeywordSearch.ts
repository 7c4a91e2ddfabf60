import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Keyword search on bookings through an index (issue 30.4), as receipts' and demands' do
 * (1764300000000-KeywordSearch.ts explains why: under row-level security `ILIKE` never uses an
 * index, the operator not being leakproof). A trigram index on the booking number and the
 * buyer's name, and a SECURITY DEFINER function returning the ids of the tenant's matching
 * bookings, only for the tenant set for the transaction. Demand search uses the existing
 * `receipt_keyword_demand_ids` (the same match over demands).
 *
 * Owned by `finance_keyword_search` (BYPASSRLS, SELECT on only the columns it reads) when
 * migrations run as a superuser, so that the lookup uses the index; otherwise it stays with the
 * migrating role: still correct, indexed only if that role bypasses row-level security.
 */
export class BookingKeywordSearch1765550000000 implements MigrationInterface {
  name = 'BookingKeywordSearch1765550000000';

  public async up(q: QueryRunner): Promise<void> {
    // Without GIN's pending list, as the other trigram indexes (1764400000000-SearchIndexUpkeep):
    // a lookup never reads an unsorted list of recent entries.
    await q.query(`CREATE INDEX bookings_text_trgm_idx ON bookings USING gin
      (tenant_id, booking_number gin_trgm_ops, buyer_name gin_trgm_ops) WITH (fastupdate = off)`);
    await q.query(`
      CREATE FUNCTION booking_keyword_ids(p_tenant uuid, p_pattern text, p_limit integer)
        RETURNS SETOF uuid
        LANGUAGE sql STABLE SECURITY DEFINER
        SET search_path = pg_catalog, pg_temp
        ROWS 1000
      AS $$
        SELECT b.id FROM public.bookings b
         WHERE b.tenant_id = p_tenant
           AND p_tenant = NULLIF(current_setting('app.tenant_id', true), '')::uuid
           AND (b.booking_number ILIKE p_pattern OR b.buyer_name ILIKE p_pattern)
         LIMIT p_limit
      $$`);
    await q.query(`REVOKE ALL ON FUNCTION ${FUNCTION} FROM PUBLIC`);
    await q.query(`GRANT EXECUTE ON FUNCTION ${FUNCTION} TO finance_app`);
    await q.query(`
      DO $$ BEGIN
        IF (SELECT rolsuper FROM pg_roles WHERE rolname = current_user)
           AND EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'finance_keyword_search') THEN
          GRANT SELECT (tenant_id, id, booking_number, buyer_name) ON bookings
            TO finance_keyword_search;
          ALTER FUNCTION ${FUNCTION} OWNER TO finance_keyword_search;
        END IF;
      END $$`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION ${FUNCTION}`);
    await q.query(`
      DO $$ BEGIN
        IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'finance_keyword_search') THEN
          REVOKE ALL ON bookings FROM finance_keyword_search;
        END IF;
      END $$`);
    await q.query(`DROP INDEX bookings_text_trgm_idx`);
  }
}

const FUNCTION = 'booking_keyword_ids(uuid, text, integer)';
