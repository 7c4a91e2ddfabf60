import { MigrationInterface, QueryRunner } from 'typeorm';

const TABLES = `'bookings'::regclass, 'demands'::regclass, 'demand_splits'::regclass, 'receipts'::regclass`;

/**
 * The demo seed on a fresh database builds its indexes and checks its foreign keys once, after its
 * rows are in (issue 42, part 2): half of its insert time was the receipts' trigram index, then the
 * demands' and the foreign-key checks, one entry and one look-up per row.
 *
 * `seed_defer_indexes()`, called by the seed (as the application role) first in its transaction:
 * when bookings, demands, demand_splits and receipts hold no row of any tenant (locked first, so
 * none can be committed meanwhile), drops their indexes that back no constraint and their
 * foreign keys, keeping each definition in `seed_deferred_indexes`; otherwise it does nothing.
 * Answers how many it dropped. `seed_restore_indexes()` builds them again (a sorted build each, a
 * join per foreign key) and empties the table. A deferred constraint trigger refuses to commit a
 * transaction that left a definition there: a seed that fails, or forgets the restore, rolls back
 * and leaves nothing, the indexes included.
 *
 * Both are SECURITY DEFINER (the application role owns no table), owned by the role that runs
 * the migrations; when that role cannot see every tenant's rows (not a superuser, no BYPASSRLS)
 * the check could not be trusted and nothing is deferred. The seed's transaction holds the four
 * tables locked to its commit: only the first start's seed defers (seedDemoTenants'
 * `deferIndexes`), before the service listens.
 */
export class SeedDeferredIndexes1765672000000 implements MigrationInterface {
  name = 'SeedDeferredIndexes1765672000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE seed_deferred_indexes (
      position serial PRIMARY KEY,
      kind text NOT NULL CHECK (kind IN ('INDEX', 'FOREIGN KEY')),
      definition text NOT NULL)`);
    await q.query(`REVOKE ALL ON seed_deferred_indexes FROM PUBLIC`);
    await q.query(`
      CREATE FUNCTION seed_deferred_indexes_restored() RETURNS trigger
      LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
      BEGIN
        IF EXISTS (SELECT 1 FROM seed_deferred_indexes) THEN
          RAISE EXCEPTION 'seed_defer_indexes() without seed_restore_indexes() in the same transaction';
        END IF;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE CONSTRAINT TRIGGER seed_deferred_indexes_restored
        AFTER INSERT ON seed_deferred_indexes DEFERRABLE INITIALLY DEFERRED
        FOR EACH ROW EXECUTE FUNCTION seed_deferred_indexes_restored()`);
    await q.query(`
      CREATE FUNCTION seed_defer_indexes() RETURNS integer
      LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
      DECLARE
        item record;
        dropped integer := 0;
      BEGIN
        IF NOT coalesce((SELECT r.rolsuper OR r.rolbypassrls FROM pg_roles r
                          WHERE r.rolname = current_user), false) THEN
          RETURN 0;
        END IF;
        LOCK TABLE bookings, demands, demand_splits, receipts IN ACCESS EXCLUSIVE MODE;
        IF EXISTS (SELECT 1 FROM bookings) OR EXISTS (SELECT 1 FROM demands)
           OR EXISTS (SELECT 1 FROM demand_splits) OR EXISTS (SELECT 1 FROM receipts)
           OR EXISTS (SELECT 1 FROM seed_deferred_indexes) THEN
          RETURN 0;
        END IF;
        FOR item IN
          SELECT c.conrelid::regclass AS tab, c.conname,
                 pg_get_constraintdef(c.oid) AS definition
            FROM pg_constraint c
           WHERE c.conrelid IN (${TABLES}) AND c.contype = 'f'
           ORDER BY c.conrelid::regclass::text, c.conname
        LOOP
          INSERT INTO seed_deferred_indexes (kind, definition)
          VALUES ('FOREIGN KEY', format('ALTER TABLE %s ADD CONSTRAINT %I %s',
                                        item.tab, item.conname, item.definition));
          EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I', item.tab, item.conname);
          dropped := dropped + 1;
        END LOOP;
        FOR item IN
          SELECT i.indexrelid::regclass AS ix, pg_get_indexdef(i.indexrelid) AS definition
            FROM pg_index i
           WHERE i.indrelid IN (${TABLES})
             AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)
             AND NOT EXISTS (SELECT 1 FROM pg_depend d
                              WHERE d.refobjid = i.indexrelid AND d.deptype = 'n')
           ORDER BY i.indexrelid::regclass::text
        LOOP
          INSERT INTO seed_deferred_indexes (kind, definition) VALUES ('INDEX', item.definition);
          EXECUTE format('DROP INDEX %s', item.ix);
          dropped := dropped + 1;
        END LOOP;
        RETURN dropped;
      END $$`);
    await q.query(`
      CREATE FUNCTION seed_restore_indexes() RETURNS integer
      LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp
      SET maintenance_work_mem = '256MB' AS $$
      DECLARE
        item record;
        built integer := 0;
      BEGIN
        -- Indexes first: the foreign keys' checks read the referenced tables' keys.
        FOR item IN
          WITH gone AS (DELETE FROM seed_deferred_indexes RETURNING kind, position, definition)
          SELECT definition FROM gone ORDER BY kind = 'FOREIGN KEY', position
        LOOP
          EXECUTE item.definition;
          built := built + 1;
        END LOOP;
        RETURN built;
      END $$`);
    await q.query(`REVOKE ALL ON FUNCTION seed_defer_indexes() FROM PUBLIC`);
    await q.query(`REVOKE ALL ON FUNCTION seed_restore_indexes() FROM PUBLIC`);
    await q.query(`GRANT EXECUTE ON FUNCTION seed_defer_indexes() TO finance_app`);
    await q.query(`GRANT EXECUTE ON FUNCTION seed_restore_indexes() TO finance_app`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION seed_restore_indexes()`);
    await q.query(`DROP FUNCTION seed_defer_indexes()`);
    await q.query(`DROP TABLE seed_deferred_indexes`);
    await q.query(`DROP FUNCTION seed_deferred_indexes_restored()`);
  }
}
