import { DataSource } from 'typeorm';
import { dataSourceOptions } from './data-source-options';

// Any constant: serialises concurrent starters (several instances, parallel test workers).
const MIGRATION_LOCK = 7_340_001;

/** Runs pending migrations as the schema owner, one process at a time. Returns their names. */
export async function runMigrations(ownerUrl: string): Promise<string[]> {
  const ds = new DataSource(dataSourceOptions(ownerUrl, 2));
  await ds.initialize();
  const lock = ds.createQueryRunner();
  try {
    await lock.connect();
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    const ran = await ds.runMigrations({ transaction: 'all' });
    return ran.map((m) => m.name);
  } finally {
    await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    await lock.release();
    await ds.destroy();
  }
}
