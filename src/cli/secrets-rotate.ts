import { prepareDatabase } from '@/database/database-bootstrap';
import { loadConfig } from '@/platform/config/app-config';
import { secretBoxFor } from '@/platform/secrets/secrets-keyring';
import { fail } from './with-database';
import { rotateSecretsKey } from './secrets-rotation';

/**
 * `npm run -s secrets:rotate`: re-seals every stored secret with the current SECRETS_KEY; run it
 * after deploying SECRETS_KEY=<new> with SECRETS_KEY_PREVIOUS=<old> (docs/operations.md,
 * "Secrets at rest"). Prints one line; exits 1 on any error.
 */
async function main(): Promise<void> {
  const config = loadConfig({ LOG_LEVEL: 'silent', ...process.env });
  if (config.databaseUrl && !config.databaseMigrationUrl) {
    throw new Error(
      'DATABASE_MIGRATION_URL (the schema owner) is required to re-seal secrets in DATABASE_URL',
    );
  }
  const box = secretBoxFor(config);
  const db = await prepareDatabase(config); // embedded: started, or reused from npm start
  try {
    if (!db.ownerUrl) throw new Error('no schema owner connection to re-seal secrets with');
    const done = await rotateSecretsKey(db.ownerUrl, box);
    process.stdout.write(
      `Re-sealed with key ${done.keyId}: ${done.webhookSubscriptions} webhook subscriptions, ` +
        `${done.storedResponses} stored responses (${done.tenants} tenants)\n`,
    );
  } finally {
    await db.stop();
  }
}

main().catch(fail);
