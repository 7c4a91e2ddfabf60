import { DataSource } from 'typeorm';
import { dataSourceOptions } from './data-source-options';
import { MIGRATION_LOCK_SQL, MIGRATION_UNLOCK_SQL } from './database.sql';

// Any constant: serialises concurrent starters (several instances, parallel test workers).
const MIGRATION_LOCK = 7_340_001;

/** What a migration that seals or opens secrets is given (a SecretBox of src/platform/secrets). */
export interface MigrationSecrets {
  seal(plain: Buffer, context: string): Buffer;
  open(sealed: Buffer, context: string): Buffer;
}

export interface MigrationOptions {
  /**
   * The configured SECRETS_KEY, for the migrations that seal existing secrets (they refuse to
   * run without it only when there is something to seal).
   */
  secrets?: MigrationSecrets;
}

/** Gives the migrations of `ds` that take secrets (a `useSecrets` method) the key. */
export function provideMigrationSecrets(ds: DataSource, secrets: MigrationSecrets): void {
  for (const migration of ds.migrations as { useSecrets?: (s: MigrationSecrets) => void }[]) {
    migration.useSecrets?.(secrets);
  }
}

/** Runs pending migrations as the schema owner, one process at a time. Returns their names. */
export async function runMigrations(
  ownerUrl: string,
  options: MigrationOptions = {},
): Promise<string[]> {
  const ds = new DataSource(dataSourceOptions(ownerUrl, 2));
  await ds.initialize();
  if (options.secrets) provideMigrationSecrets(ds, options.secrets);
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
