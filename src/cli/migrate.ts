import { loadConfig } from '@/platform/config/app-config';
import { prepareDatabase } from '@/database/database-bootstrap';
import { runMigrations } from '@/database/migrate';
import { secretBoxFor } from '@/platform/secrets/secrets-keyring';

/**
 * `npm run migration:run`: applies pending migrations as the schema owner, with the service's
 * SECRETS_KEY (a migration seals the secrets already stored).
 */
async function main(): Promise<void> {
  const config = loadConfig();
  if (config.databaseUrl && !config.databaseMigrationUrl) {
    throw new Error(
      'DATABASE_MIGRATION_URL (the schema owner) is required to run migrations against DATABASE_URL',
    );
  }
  if (config.databaseMigrationUrl) {
    const ran = await runMigrations(config.databaseMigrationUrl, { secrets: secretBoxFor(config) });
    process.stdout.write(ran.length ? `Applied: ${ran.join(', ')}\n` : 'No pending migrations\n');
    return;
  }
  const db = await prepareDatabase(config); // embedded: starts, migrates, stops
  process.stdout.write(
    db.migrationsRun.length
      ? `Applied: ${db.migrationsRun.join(', ')}\n`
      : 'No pending migrations\n',
  );
  await db.stop();
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
