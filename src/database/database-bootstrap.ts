import { Logger } from '@nestjs/common';
import { Client } from 'pg';
import { appRoleLoginSql, CURRENT_ROLE_POWERS_SQL, CurrentRolePowersRow } from './database.sql';
import { AppConfig } from '@/platform/config/app-config';
import { startEmbeddedPostgres } from './embedded-postgres';
import { SupervisorLog } from './embedded-supervisor';
import { loadOrCreateLocalSecrets } from '@/platform/config/local-secrets';
import { secretBoxFor } from '@/platform/secrets/secrets-keyring';
import { runMigrations } from './migrate';

export const APP_ROLE = 'finance_app';

export interface PreparedDatabase {
  /** URL the application connects with: a role under row-level security. */
  appUrl: string;
  ownerUrl?: string;
  embedded: boolean;
  migrationsRun: string[];
  stop(): Promise<void>;
  /** Called if the embedded server died and could not be restarted. */
  onUnrecoverable(listener: (reason: string) => void): void;
}

/**
 * Where the embedded server's lifecycle messages go: the application log (Nest's logger, pino
 * once the app is up); with LOG_LEVEL=silent (the CLI commands) warnings still reach stderr.
 */
function supervisorLog(config: AppConfig): SupervisorLog {
  const logger = new Logger('EmbeddedPostgres');
  if (config.logLevel === 'silent') {
    return (level, line) => {
      if (level !== 'info') process.stderr.write(`${line}\n`);
    };
  }
  return (level, line) => (level === 'info' ? logger.log(line) : logger[level](line));
}

function withCredentials(url: string, user: string, password: string): string {
  const u = new URL(url);
  u.username = user;
  u.password = password;
  return u.toString();
}

/**
 * Brings the database to a usable state before Nest starts: the embedded server when no
 * DATABASE_URL is set, pending migrations as the owner, and a login for the application role.
 */
export async function prepareDatabase(
  config: AppConfig,
  log: SupervisorLog = supervisorLog(config),
): Promise<PreparedDatabase> {
  if (config.databaseUrl) {
    const migrationsRun = config.databaseMigrationUrl
      ? await runMigrations(config.databaseMigrationUrl, { secrets: secretBoxFor(config) })
      : [];
    await assertUnprivileged(config.databaseUrl);
    return {
      appUrl: config.databaseUrl,
      ownerUrl: config.databaseMigrationUrl,
      embedded: false,
      migrationsRun,
      stop: () => Promise.resolve(),
      onUnrecoverable: () => undefined,
    };
  }

  const secrets = loadOrCreateLocalSecrets(config.dataDir);
  const server = await startEmbeddedPostgres(config.dataDir, secrets.postgresPassword, log);
  try {
    const migrationsRun = await runMigrations(server.ownerUrl, { secrets: secretBoxFor(config) });
    const owner = new Client({ connectionString: server.ownerUrl });
    await owner.connect();
    try {
      await owner.query(appRoleLoginSql(APP_ROLE, secrets.appRolePassword));
    } finally {
      await owner.end();
    }
    const appUrl = withCredentials(server.ownerUrl, APP_ROLE, secrets.appRolePassword);
    await assertUnprivileged(appUrl);
    return {
      appUrl,
      ownerUrl: server.ownerUrl,
      embedded: true,
      migrationsRun,
      stop: () => server.stop(),
      onUnrecoverable: (listener) => server.onUnrecoverable(listener),
    };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/** Refuses to run as a role that row-level security would not apply to. */
export async function assertUnprivileged(appUrl: string): Promise<void> {
  const client = new Client({ connectionString: appUrl });
  await client.connect();
  try {
    const { rows } = await client.query<CurrentRolePowersRow>(CURRENT_ROLE_POWERS_SQL);
    const role = rows[0];
    if (role.rolsuper || role.rolbypassrls || role.owns) {
      throw new Error(
        `DATABASE_URL connects as "${role.rolname}", which is a superuser, has BYPASSRLS or owns tables; ` +
          `row-level security would not apply. Connect as a member of the ${APP_ROLE} role instead.`,
      );
    }
  } finally {
    await client.end();
  }
}
