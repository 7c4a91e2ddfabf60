/**
 * `db:backup` and `db:restore` of the embedded database on real processes and real clusters (not
 * the suite's database): a service writes receipts from four concurrent clients while the backup
 * runs; the copy is restored into a new DATA_DIR (as root one under a directory closed to others,
 * so the cluster is relocated), a second service starts there and holds every receipt acknowledged
 * before the backup ended, numbered without gaps, and accepts a token signed before the backup.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import type { BackupManifest } from '@/database/embedded-backup';
import { embeddedDataDir } from '@/database/state-location';
import { bookingBody, demandBody, receiptBody, split } from './support/factories';
import {
  ensureBuilt,
  freePort,
  postmastersOn,
  removeScratchDirs,
  ROOT,
  scratchDir,
  send,
  ServiceProcess,
} from './support/service-process';

const TENANT = 'backup-restore';
const DEADLINE = 120_000;
const WRITERS = 4;
const seqOf = (n: string) => Number(n.split('/')[2]);

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** A compiled CLI (`dist/src/cli/<name>.js`), asynchronously: the writers keep running meanwhile. */
function cli(name: string, args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((done) =>
    execFile(
      'node',
      [join(ROOT, 'dist/src/cli', `${name}.js`), ...args],
      { cwd: ROOT, env: { ...process.env, LOG_LEVEL: 'silent', ...env } },
      (error, stdout, stderr) =>
        done({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    ),
  );
}

interface Acknowledged {
  id: string;
  receiptNumber: string;
  at: number;
}

describe('db:backup and db:restore (embedded database, service processes)', () => {
  const sourceDir = join(scratchDir('finance-backup-source-'), 'data');
  const backupDir = join(scratchDir('finance-backup-copy-'), 'backup');
  const closed = join(scratchDir('finance-backup-restored-'), 'closed');
  const restoredDir = join(closed, 'data');
  const env = {
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
    SEED_DEMO_DATA: 'false',
    RATE_LIMIT_PER_MINUTE: '1000000',
    SHUTDOWN_DRAIN_MS: '200',
    JWT_SECRET: '', // the secret generated into DATA_DIR, which the backup must carry
    DATABASE_URL: '',
  };
  const services: ServiceProcess[] = [];
  const start = async (dataDir: string) => {
    const service = new ServiceProcess(await freePort(), { ...env, DATA_DIR: dataDir });
    services.push(service);
    await service.waitReady(DEADLINE);
    return service;
  };
  const clusters = () => [join(sourceDir, 'pg'), embeddedDataDir(restoredDir)];

  beforeAll(() => {
    ensureBuilt();
    mkdirSync(closed, { mode: 0o700 });
  }, 300_000);

  afterAll(async () => {
    for (const service of services) if (service.running) service.kill('SIGKILL');
    for (const pgDir of clusters()) {
      for (const pid of postmastersOn(pgDir)) process.kill(pid, 'SIGQUIT');
    }
    await sleep(500);
    const relocated = embeddedDataDir(restoredDir);
    if (relocated !== join(restoredDir, 'pg')) {
      rmSync(dirname(relocated), { recursive: true, force: true });
    }
    removeScratchDirs();
  });

  let token = '';
  let headers: Record<string, string> = {};
  const acknowledged: Acknowledged[] = [];
  let manifest: BackupManifest;

  it('backs up while four clients record receipts; refuses to restore over a database', async () => {
    const source = await start(sourceDir);
    const created = await cli('tenant-create', ['--key', TENANT, '--name', 'Backup'], {
      ...env,
      DATA_DIR: sourceDir,
    });
    expect(created).toMatchObject({ code: 0 });
    token = (
      await cli('token', ['--tenant', TENANT], { ...env, DATA_DIR: sourceDir })
    ).stdout.trim();
    headers = { authorization: `Bearer ${token}`, 'x-tenant-id': TENANT };
    // Any other file DATA_DIR holds (a key added later, say) travels with the backup.
    const extraKey = randomBytes(32).toString('base64');
    writeFileSync(join(sourceDir, 'extra.key'), extraKey, { mode: 0o600 });

    const booking = await send(source.port, 'POST', '/bookings', { headers, body: bookingBody() });
    expect(booking.status).toBe(201);
    const demand = await send(source.port, 'POST', '/demands', {
      headers,
      body: demandBody((JSON.parse(booking.body) as { id: string }).id, {
        splits: [split(10_000_000)],
      }),
    });
    expect(demand.status).toBe(201);
    const splitId = (JSON.parse(demand.body) as { splits: { id: string }[] }).splits[0].id;

    let running = true;
    const failures: string[] = [];
    const writer = async () => {
      while (running) {
        const res = await send(source.port, 'POST', '/receipts', {
          headers,
          body: receiptBody(splitId, { amount: 1 }),
        });
        const at = Date.now();
        if (res.status !== 201) failures.push(`${res.status} ${res.body}`);
        else {
          const { id, receiptNumber } = JSON.parse(res.body) as Acknowledged;
          acknowledged.push({ id, receiptNumber, at });
        }
      }
    };
    const writers = Array.from({ length: WRITERS }, writer);
    await sleep(1000);
    const backup = await cli('db-backup', [backupDir], { ...env, DATA_DIR: sourceDir });
    await sleep(500);
    running = false;
    await Promise.all(writers);

    expect(backup.stderr).toBe('');
    expect(backup).toMatchObject({ code: 0 });
    expect(backup.stdout).toMatch(/^Backed up the embedded database of DATA_DIR .* in [\d.]+ s:/);
    expect(failures).toEqual([]);
    manifest = JSON.parse(readFileSync(join(backupDir, 'backup.json'), 'utf8')) as BackupManifest;
    expect(manifest.dataDirFiles.sort()).toEqual(['extra.key', 'secrets.json']);
    expect(statSync(backupDir).mode & 0o777).toBe(0o700);
    expect(existsSync(join(backupDir, 'pg', 'postmaster.pid'))).toBe(false);
    // Under load: receipts were acknowledged before, during and after the backup.
    const started = Date.parse(manifest.startedAt);
    const ended = Date.parse(manifest.endedAt);
    expect(acknowledged.filter((r) => r.at < started).length).toBeGreaterThan(0);
    expect(acknowledged.filter((r) => r.at >= started && r.at <= ended).length).toBeGreaterThan(0);
    expect(acknowledged.filter((r) => r.at > ended).length).toBeGreaterThan(0);

    // Never over a database: the source DATA_DIR is refused, and left as it was.
    const over = await cli('db-restore', [backupDir], { ...env, DATA_DIR: sourceDir });
    expect(over.code).toBe(1);
    expect(over.stderr).toMatch(`DATA_DIR ${sourceDir} is not empty`);
    expect(existsSync(join(sourceDir, 'pg.json'))).toBe(true);
    expect(await source.status('/health/ready')).toBe(200);

    source.kill('SIGTERM');
    expect(await source.exitWithin(30_000)).toEqual({ code: 0, signal: null });
    expect(readFileSync(join(backupDir, 'extra.key'), 'utf8')).toBe(extraKey);
  }, 300_000);

  it('restores into a new DATA_DIR: every receipt acknowledged before the end, gap-free, the old token valid', async () => {
    const restore = await cli('db-restore', [backupDir], { ...env, DATA_DIR: restoredDir });
    expect(restore.stderr).toBe('');
    expect(restore).toMatchObject({ code: 0 });
    const pgDir = embeddedDataDir(restoredDir);
    expect(restore.stdout).toContain(`(cluster in ${pgDir})`);
    if (process.getuid?.() === 0) expect(pgDir).not.toBe(join(restoredDir, 'pg')); // relocated
    expect(readFileSync(join(restoredDir, 'extra.key'), 'utf8')).toBe(
      readFileSync(join(sourceDir, 'extra.key'), 'utf8'),
    );
    expect(statSync(join(restoredDir, 'extra.key')).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(restoredDir, 'secrets.json'), 'utf8')).toBe(
      readFileSync(join(sourceDir, 'secrets.json'), 'utf8'),
    );

    const restored = await start(restoredDir);
    const { rows } = await ownerQuery<{ id: string; receipt_number: string }>(
      restoredDir,
      `SELECT r.id, r.receipt_number FROM receipts r JOIN tenants t ON t.id = r.tenant_id
        WHERE t.key = $1`,
      [TENANT],
    );
    const stored = new Map(rows.map((r) => [r.id, r.receipt_number]));
    const ended = Date.parse(manifest.endedAt);
    const before = acknowledged.filter((r) => r.at <= ended);
    expect(before.length).toBeGreaterThan(0);
    const missing = before.filter((r) => stored.get(r.id) !== r.receiptNumber);
    expect(missing).toEqual([]);
    // Nothing the source never acknowledged, and the numbers run 1..n without a gap.
    const byId = new Map(acknowledged.map((r) => [r.id, r.receiptNumber]));
    expect(rows.filter((r) => byId.get(r.id) !== r.receipt_number)).toEqual([]);
    const seqs = rows.map((r) => seqOf(r.receipt_number)).sort((a, b) => a - b);
    expect(seqs).toEqual(Array.from({ length: rows.length }, (_, i) => i + 1));

    // A token signed before the backup (the DATA_DIR secret came along) reads and writes.
    const last = before[before.length - 1];
    const read = await send(restored.port, 'GET', `/receipts/${last.id}`, { headers });
    expect(read.status).toBe(200);
    expect((JSON.parse(read.body) as { receiptNumber: string }).receiptNumber).toBe(
      last.receiptNumber,
    );
    const { demandSplit } = JSON.parse(read.body) as { demandSplit: string };
    const next = await send(restored.port, 'POST', '/receipts', {
      headers,
      body: receiptBody(demandSplit, { amount: 1 }),
    });
    expect(next.status).toBe(201);
    expect(seqOf((JSON.parse(next.body) as { receiptNumber: string }).receiptNumber)).toBe(
      rows.length + 1,
    );

    restored.kill('SIGTERM');
    expect(await restored.exitWithin(30_000)).toEqual({ code: 0, signal: null });
    expect(postmastersOn(pgDir)).toEqual([]);
  }, 300_000);

  it('with the service stopped, starts the server for the copy and stops it; refuses what it cannot do', async () => {
    const second = join(dirname(backupDir), 'second');
    const cold = await cli('db-backup', [second], { ...env, DATA_DIR: sourceDir });
    expect(cold).toMatchObject({ code: 0, stderr: '' });
    expect(existsSync(join(second, 'backup.json'))).toBe(true);
    expect(postmastersOn(join(sourceDir, 'pg'))).toEqual([]);
    expect(existsSync(join(sourceDir, 'pg.json'))).toBe(false);

    const full = await cli('db-backup', [second], { ...env, DATA_DIR: sourceDir });
    expect(full.code).toBe(1);
    expect(full.stderr).toMatch(`The backup directory ${second} is not empty`);
    const inside = await cli('db-backup', [join(sourceDir, 'b')], { ...env, DATA_DIR: sourceDir });
    expect(inside.stderr).toMatch(/is inside DATA_DIR .* Choose a directory elsewhere/);
    const nothing = await cli('db-backup', [join(dirname(backupDir), 'third')], {
      ...env,
      DATA_DIR: join(dirname(backupDir), 'no-such-data'),
    });
    expect(nothing.code).toBe(1);
    expect(nothing.stderr).toMatch(/^No embedded database in DATA_DIR/);
    expect(existsSync(join(dirname(backupDir), 'third'))).toBe(false);
    const unfinished = await cli('db-restore', [dirname(backupDir)], {
      ...env,
      DATA_DIR: join(dirname(backupDir), 'fresh'),
    });
    expect(unfinished.stderr).toMatch(/is not a finished backup \(no backup\.json/);
    expect(existsSync(join(dirname(backupDir), 'fresh'))).toBe(false);

    for (const command of ['db-backup', 'db-restore']) {
      const external = await cli(command, [second], {
        ...env,
        DATA_DIR: sourceDir,
        DATABASE_URL: 'postgres://app:secret@db.example:5432/finance',
      });
      expect(external.code).toBe(2);
      expect(external.stderr).toMatch(
        /^DATABASE_URL is set: the database is an external PostgreSQL/,
      );
      expect(external.stderr).toContain('docs/operations.md, section "Backups"');
    }
  }, 300_000);
});

/** A query as the restored cluster's superuser (its port in pg.json, its password in secrets.json). */
async function ownerQuery<R extends object>(dataDir: string, text: string, values: unknown[]) {
  const { port } = JSON.parse(readFileSync(join(dataDir, 'pg.json'), 'utf8')) as { port: number };
  const { postgresPassword } = JSON.parse(readFileSync(join(dataDir, 'secrets.json'), 'utf8')) as {
    postgresPassword: string;
  };
  const owner = new Client({
    connectionString: `postgres://postgres:${postgresPassword}@127.0.0.1:${port}/finance`,
  });
  await owner.connect();
  try {
    return await owner.query<R>(text, values);
  } finally {
    await owner.end();
  }
}
