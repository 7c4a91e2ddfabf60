import { DataSource } from 'typeorm';
import { dataSourceOptions } from './data-source-options';
import { MIGRATION_LOCK_SQL, MIGRATION_UNLOCK_SQL } from './database.sql';

// Any constant: serialises concurrent starters (several instances, parallel test workers).
const MIGRATION_LOCK = 7_340_001;

/** Runs pending migrations as the schema owner, one process at a time. Returns their names. */
export async function runMigrations(ownerUrl: string): Promise<string[]> {
  const ds = new DataSource(dataSourceOptions(ownerUrl, 2));
  await ds.initialize();
  const lock = ds.createQueryRunner();
  try {
    await lock.connect();
    await lock.query(MIGRATION_LOCK_SQL, [MIGRATION_LOCK]);
    const ran = await ds.runMigrations({ transaction: 'all' });
    return ran.map((m) => m.name);
  } finally {
    await lock.query(MIGRATION_UNLOCK_SQL, [MIGRATION_LOCK]).catch(() => undefined);
    await lock.release();
    await ds.destroy();
  }
}
