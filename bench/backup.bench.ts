/**
 * Backup and restore of the embedded database: a service (`node dist/src/main.js`, demo data)
 * on a fresh DATA_DIR, optionally grown by `--receipts` bench receipts (set-based, as the owner,
 * then a checkpoint: data at rest as after months of use); `db:backup` while `--writers` clients
 * record receipts; the service stopped; `db:restore` into a new DATA_DIR; a service started there
 * until ready. Prints seconds per step, sizes and the receipts written during the backup; checks
 * that the restored cluster holds every receipt acknowledged before the backup ended. Removes
 * everything it made.
 *
 *   node dist/bench/backup.bench.js [--receipts 1000000] [--writers 4]
 */
import { ChildProcess, execFile, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs, promisify } from 'node:util';
import { Client } from 'pg';
import type { BackupManifest } from '@/database/embedded-backup';
import { embeddedDataDir } from '@/database/state-location';
import { freePort, runBench } from './bench-support';
import { bulkLoad, generateReceipts } from './receipt-data';

const ROOT = resolve(__dirname, '..', '..');
const run = promisify(execFile);
const TENANT = 'bench-backup';

const HELP = `Backup and restore of the embedded database, timed.

  npm run bench:backup -- [--receipts N] [--writers W]

  --receipts N  bench receipts added (one tenant) over the demo data (default 0: the demo size,
                2 x 3,000 receipts)
  --writers W   clients recording receipts while db:backup runs (default 4)
`;

interface Service {
  child: ChildProcess;
  port: number;
  log: () => string;
}

async function startService(dataDir: string): Promise<Service> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'development',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '100000000',
  };
  for (const name of ['DATABASE_URL', 'JWT_SECRET', 'SEED_DEMO_DATA', 'DEMO_RECEIPTS_PER_TENANT']) {
    delete env[name];
  }
  const child = spawn('node', [join(ROOT, 'dist/src/main.js')], {
    env,
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output = (output + c.toString()).slice(-4000)));
  child.stderr.on('data', (c: Buffer) => (output = (output + c.toString()).slice(-4000)));
  for (const started = Date.now(); ; await sleep(50)) {
    const status = await fetch(`http://127.0.0.1:${port}/health/ready`).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return { child, port, log: () => output };
    if (child.exitCode !== null) throw new Error(`service exited before ready:\n${output}`);
    if (Date.now() - started > 300_000) throw new Error(`service not ready:\n${output}`);
  }
}

async function stopService(service: Service): Promise<void> {
  if (service.child.exitCode !== null || service.child.signalCode !== null) return;
  const exited = new Promise((done) => service.child.once('exit', done));
  service.child.kill('SIGTERM');
  await exited;
}

const cli = (name: string, args: string[], dataDir: string) =>
  run('node', [join(ROOT, 'dist/src/cli', `${name}.js`), ...args], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent', DATABASE_URL: '' },
    maxBuffer: 1 << 20,
  });

/** The superuser of a DATA_DIR's running embedded cluster. */
async function owner(dataDir: string): Promise<Client> {
  const { port } = JSON.parse(readFileSync(join(dataDir, 'pg.json'), 'utf8')) as { port: number };
  const { postgresPassword } = JSON.parse(readFileSync(join(dataDir, 'secrets.json'), 'utf8')) as {
    postgresPassword: string;
  };
  const client = new Client({
    connectionString: `postgres://postgres:${postgresPassword}@127.0.0.1:${port}/finance`,
  });
  await client.connect();
  return client;
}

const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(1);
const gb = (bytes: number) => `${(bytes / 1024 ** 3).toFixed(2)} GB`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      receipts: { type: 'string', default: '0' },
      writers: { type: 'string', default: '4' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(HELP);
    return;
  }
  const extra = Number(values.receipts);
  const writerCount = Number(values.writers);
  const root = mkdtempSync(join(tmpdir(), 'finance-backup-bench-'));
  chmodSync(root, 0o755); // as root the embedded server runs as `postgres`
  const sourceDir = join(root, 'source');
  const backupDir = join(root, 'backup');
  const restoredDir = join(root, 'restored');
  const services: Service[] = [];
  // Ctrl-C: no service or cluster outlives the run, no directory is left behind.
  const interrupted = () => {
    void Promise.all(services.map(stopService)).then(() => {
      rmSync(root, { recursive: true, force: true });
      process.exit(130);
    });
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    let since = performance.now();
    const source = await startService(sourceDir);
    services.push(source);
    console.log(`service on a fresh DATA_DIR with the demo data: ready in ${seconds(since)} s`);
    await cli('tenant-create', ['--key', TENANT, '--name', 'Backup bench'], sourceDir);
    const db = await owner(sourceDir);
    try {
      if (extra > 0) {
        since = performance.now();
        const { rows } = await db.query<{ id: string }>('SELECT id FROM tenants WHERE key = $1', [
          TENANT,
        ]);
        // The demo's rows left the planner's statistics small: without this the receipts'
        // join to their splits became a nested loop (hours instead of minutes).
        await db.query('SET enable_nestloop = off');
        await bulkLoad(db, () => generateReceipts(db, rows[0].id, extra));
        console.log(`${extra} bench receipts loaded in ${seconds(since)} s`);
      }
      await db.query('VACUUM ANALYZE');
      await db.query('CHECKPOINT');
    } finally {
      await db.end();
    }

    const token = (await cli('token', ['--tenant', TENANT], sourceDir)).stdout.trim();
    const headers = {
      authorization: `Bearer ${token}`,
      'x-tenant-id': TENANT,
      'content-type': 'application/json',
    };
    const base = `http://127.0.0.1:${source.port}`;
    const post = async (path: string, body: unknown) => {
      const res = await fetch(`${base}${path}`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
      });
      if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
      return (await res.json()) as { id: string; splits: { id: string }[] };
    };
    const booking = await post('/bookings', {
      unit: randomUUID(),
      buyerName: 'Bench Buyer',
      bookingDate: '2026-11-22',
    });
    const demand = await post('/demands', {
      booking: booking.id,
      milestone: null,
      demandType: 'MANUAL',
      totalAmount: 100_000_000,
      dueDate: '2026-12-15',
      remarks: 'bench',
      splits: [{ payerType: 'BUYER', payerId: booking.id, amount: 100_000_000 }],
    });
    const acknowledged: { id: string; at: number }[] = [];
    let writing = true;
    const writer = async () => {
      while (writing) {
        const receipt = await post('/receipts', {
          demandSplit: demand.splits[0].id,
          amount: 1,
          paymentMode: 'NEFT',
          transactionRef: `UTR${Date.now()}`,
          receivedDate: '2026-11-22',
        });
        acknowledged.push({ id: receipt.id, at: Date.now() });
      }
    };
    const writers = Array.from({ length: writerCount }, writer);
    await sleep(500);
    since = performance.now();
    const backup = await cli('db-backup', [backupDir], sourceDir);
    const backupSeconds = seconds(since);
    writing = false;
    await Promise.all(writers);
    const manifest = JSON.parse(
      readFileSync(join(backupDir, 'backup.json'), 'utf8'),
    ) as BackupManifest;
    const started = Date.parse(manifest.startedAt);
    const ended = Date.parse(manifest.endedAt);
    const during = acknowledged.filter((r) => r.at >= started && r.at <= ended).length;
    const before = acknowledged.filter((r) => r.at <= ended);
    process.stdout.write(backup.stdout);
    await stopService(source);

    since = performance.now();
    const restore = await cli('db-restore', [backupDir], restoredDir);
    const restoreSeconds = seconds(since);
    const [, copy, recovery] =
      /copied in ([\d.]+) s, recovered in ([\d.]+) s/.exec(restore.stdout) ?? [];
    process.stdout.write(restore.stdout);
    since = performance.now();
    const restored = await startService(restoredDir);
    services.push(restored);
    const startSeconds = seconds(since);
    const check = await owner(restoredDir);
    let total: number;
    let missing: number;
    let size: number;
    try {
      const { rows } = await check.query<{ id: string }>(
        'SELECT id FROM receipts WHERE id = ANY($1::uuid[])',
        [before.map((r) => r.id)],
      );
      missing = before.length - rows.length;
      total = (await check.query<{ n: number }>('SELECT count(*)::int AS n FROM receipts')).rows[0]
        .n;
      size = Number(
        (await check.query<{ b: string }>(`SELECT pg_database_size('finance')::text AS b`)).rows[0]
          .b,
      );
    } finally {
      await check.end();
    }
    await stopService(restored);
    if (missing !== 0) throw new Error(`${missing} acknowledged receipts missing after restore`);

    console.log(
      [
        '',
        `Backup and restore, embedded PostgreSQL: ${total} receipts, database ${gb(size)}, cluster copy ${gb(manifest.clusterBytes)} (load average ${loadavg()[0].toFixed(1)} on ${availableParallelism()} cores)`,
        `  db:backup, service running, ${writerCount} writers   ${backupSeconds.padStart(6)} s  (${manifest.seconds} s in the command; ${during} receipts recorded during the backup, none failed)`,
        `  db:restore (copy + WAL replay)        ${restoreSeconds.padStart(6)} s  (copy ${copy} s, start + replay + stop ${recovery} s)`,
        `  service start on the restored DATA_DIR ${startSeconds.padStart(5)} s  (all ${before.length} receipts acknowledged before the backup ended are there)`,
        '',
      ].join('\n'),
    );
  } finally {
    for (const service of services) await stopService(service).catch(() => undefined);
    for (const dir of [sourceDir, restoredDir]) {
      const pgDir = embeddedDataDir(dir);
      if (pgDir !== join(dir, 'pg')) rmSync(resolve(pgDir, '..'), { recursive: true, force: true });
    }
    rmSync(root, { recursive: true, force: true });
  }
}

runBench(main);
