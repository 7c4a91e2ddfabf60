import { ACTIVE_TENANT_KEYS_SQL } from './token-checks.sql';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { AppConfig } from '@/platform/config/app-config';
import { readLocalSecrets } from '@/platform/config/local-secrets';
import { startEmbeddedPostgres } from '@/database/embedded-postgres';
import { embeddedDataDir } from '@/database/state-location';
import { TokenRefused } from './dev-token';

/**
 * Refuses tenants the service's database does not have (or has deactivated): the token would be
 * 403 on every request. The database is the server's: DATABASE_URL, else the embedded one of
 * DATA_DIR (reused while the service runs it, else started for the look-up and stopped). With no
 * database to ask, it refuses rather than print a token nobody checked.
 */
export async function checkTenants(config: AppConfig, tenants: string[]): Promise<void> {
  if (config.databaseUrl) {
    await lookUp(config.databaseUrl, tenants, 'the database at DATABASE_URL', config);
    return;
  }
  const pgDir = embeddedDataDir(config.dataDir);
  const secrets = readLocalSecrets(config.dataDir);
  if (!secrets || !existsSync(join(pgDir, 'PG_VERSION'))) {
    throw new TokenRefused(
      `cannot check tenant ${tenants.join(', ')}: no database in DATA_DIR ${config.dataDir} and no DATABASE_URL; start the service once (npm start) with that DATA_DIR, or set DATABASE_URL`,
    );
  }
  const server = await startEmbeddedPostgres(
    config.dataDir,
    secrets.postgresPassword,
    (level, line) => {
      if (level !== 'info') process.stderr.write(`${line}\n`);
    },
  );
  try {
    await lookUp(server.ownerUrl, tenants, `the embedded database of ${config.dataDir}`, config);
  } finally {
    await server.stop();
  }
}

async function lookUp(url: string, tenants: string[], where: string, config: AppConfig) {
  const client = new Client({
    connectionString: url,
    connectionTimeoutMillis: config.dbConnectTimeoutMs,
  });
  client.on('error', () => undefined);
  let known: Set<string>;
  try {
    await client.connect();
    const { rows } = await client.query<{ key: string }>(ACTIVE_TENANT_KEYS_SQL, [tenants]);
    known = new Set(rows.map((row) => row.key));
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ');
    throw new TokenRefused(
      `cannot check tenant ${tenants.join(', ')}: ${where} cannot be read (${reason}); no token printed`,
    );
  } finally {
    await client.end().catch(() => undefined);
  }
  const unknown = tenants.filter((tenant) => !known.has(tenant));
  if (unknown.length > 0) {
    throw new TokenRefused(
      `unknown tenant ${unknown.map((t) => `"${t}"`).join(', ')}: not an active tenant in ${where} (create one: npm run -s tenant:create -- --key ${unknown[0]} --name "...")`,
    );
  }
}
