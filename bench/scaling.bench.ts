/**
 * Scaling out (issue 12's benchmark, without the read replica, which does not exist yet), in one
 * run, interleaved in rounds:
 * 1. search, first page of the hot tenant, count cached: one service instance with all the
 *    connections vs two instances (two child processes, DB_POOL_SIZE halved so the total is the
 *    same) with the connections split evenly (two load generators at once, req/s summed);
 * 2. POST /receipts on one tenant and over 20 tenants: the service connected to PostgreSQL
 *    directly vs the same kind of instance through PgBouncer (transaction mode).
 * Every service instance is its own child process (this file run with --service), each load
 * generator too (bench/floor-load.ts), so CPU time is per process (/proc/<pid>/stat); the
 * PostgreSQL and PgBouncer processes are measured the same way.
 *
 * Run: npm run bench:scaling [-- --help]
 * The issue's data set: npm run bench:scaling -- --receipts 1000000 --tenants 50 --hot-share 0.4
 */
import { ChildProcess, fork } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from 'pg';
import { ClsService } from 'nestjs-cls';
import { createApp } from '@/app.factory';
import { loadConfig } from '@/common/config/app-config';
import { TenantProvisioningService } from '@/tenants/tenant-provisioning.service';
import { startPgBouncer } from '../test/support/pgbouncer';
import {
  BENCH_JWT_SECRET,
  benchHeaders,
  freePort,
  runBench,
  startBenchDatabase,
} from './bench-support';
import { WriteTarget } from './floor-load';
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

Search: POST /receipts/search?size=20 with body [] on the hot tenant, count cached (one request
to each instance before every load run). "two instances": two service processes, C/2 connections
each from two load generators running at the same time; req/s is the sum, p50 the
request-weighted mean of the two, p99 the larger of the two.
POST /receipts: a fresh Idempotency-Key per request, amount 100.00 to a random one of 500 splits
of the tenant (round-robin over the tenants for "20 tenants"); req/s counts 201s only
(receipts/s). "PgBouncer": the service's DATABASE_URL points at PgBouncer 1.18 (transaction
pooling); the login role carries DateStyle and TimeZone (PgBouncer drops node-postgres' options).

CPU ms/req: utime+stime of the process(es) over a load run divided by the requests completed;
PostgreSQL: the postmaster and all its children (backends, background workers). Machine busy:
the share of all cores' time not idle (/proc/stat) during the run.
`;

/** One service instance, bench/floor-service.ts in a child process, with its pool size. */
interface ServiceOptions {
  appUrl: string;
  port: number;
  secret: string;
  logLevel: string;
  poolSize: number;
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

interface Scenario {
  id: string;
  name: string;
  kind: 'search' | 'post';
  /** POST: how many tenants the receipts go round. */
  tenants: number;
  a: Variant;
  b: Variant;
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
  postgresCpuMsPerRequest: number;
  bouncerCpuMsPerRequest: number | null;
  machineBusyPct: number;
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

  const db = await startBenchDatabase();
  const owner = new Client({ connectionString: db.ownerUrl });
  await owner.connect();
  const children: ChildProcess[] = [];
  let bouncer: Awaited<ReturnType<typeof startPgBouncer>> | undefined;
  try {
    // Tenants as the tenant CLI makes them, through an in-process app that is closed again.
    const setup = await createApp(
      loadConfig({
        NODE_ENV: 'test',
        DATABASE_URL: db.appUrl,
        JWT_SECRET: BENCH_JWT_SECRET,
        LOG_LEVEL: 'silent',
        HOUSEKEEPING_ENABLED: 'false',
      }),
      db.appUrl,
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
    const login = new URL(db.appUrl).username;
    await owner.query(`ALTER ROLE ${login} SET datestyle = 'ISO, YMD'`);
    await owner.query(`ALTER ROLE ${login} SET timezone = 'UTC'`);
    bouncer = await startPgBouncer(db.appUrl, bouncerPool);
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
    const { rows: backend } = await owner.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const postmaster = parentOf(backend[0].pid);

    const instance = async (name: string, appUrl: string, poolSize: number): Promise<Instance> => {
      const port = await freePort();
      const child = await startService({
        appUrl,
        port,
        secret: BENCH_JWT_SECRET,
        logLevel,
        poolSize,
      });
      children.push(child);
      return { name, url: `http://127.0.0.1:${port}`, pid: child.pid! };
    };
    // All four run for the whole run (idle ones poll for webhooks every 500 ms, as in production).
    const single = await instance(`one instance, pool ${pool}`, db.appUrl, pool);
    const half = Math.floor(pool / 2);
    const pair = [
      await instance(`instance 1 of 2, pool ${half}`, db.appUrl, half),
      await instance(`instance 2 of 2, pool ${half}`, db.appUrl, half),
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
    const scenarios: Scenario[] = [
      {
        id: 'search',
        name: `search, first page, hot tenant (${hot} receipts), count cached`,
        kind: 'search',
        tenants: 1,
        a: { name: 'one instance', legs: [{ instance: single, connections }] },
        b: {
          name: 'two instances',
          legs: [
            { instance: pair[0], connections: firstHalf },
            { instance: pair[1], connections: connections - firstHalf },
          ],
        },
      },
      ...[1, postTenants].map((n): Scenario => ({
        id: n === 1 ? 'post' : 'post-tenants',
        name:
          n === 1
            ? 'POST /receipts, one tenant (receipts/s)'
            : `POST /receipts over ${n} tenants (receipts/s)`,
        kind: 'post',
        tenants: n,
        a: { name: 'direct', legs: [{ instance: single, connections }] },
        b: { name: 'PgBouncer', legs: [{ instance: pooled, connections }] },
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
      const pgBefore = treeCpu(postmaster);
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
            ownerUrl: db.ownerUrl,
            tenantId: created[0].id,
            ...(sc.kind === 'post' ? { writes: writeTargets.slice(0, sc.tenants) } : {}),
          }),
        ),
      );
      const machineAfter = machineTimes();
      const cpuAfter = variant.legs.map((l) => cpuMs(l.instance.pid));
      const bouncerAfter = bouncerPid ? cpuMs(bouncerPid) : 0;
      const pgMs = treeDelta(pgBefore, treeCpu(postmaster));
      const requests = results.reduce((n, r) => n + r.requests, 0);
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
        bouncerCpuMsPerRequest:
          usesBouncer && bouncerPid ? per(bouncerAfter - bouncerBefore) : null,
        machineBusyPct:
          (100 * (machineAfter.busy - machineBefore.busy)) /
          Math.max(1, machineAfter.total - machineBefore.total),
      };
    };

    // Warm-up (JIT, pools, caches) of every instance, not recorded.
    process.stdout.write('Warm-up...\n');
    for (const sc of scenarios) {
      for (const v of [sc.a, sc.b]) await run(sc, v, Math.min(3, duration));
    }

    const results = new Map<Scenario, { a: Measured[]; b: Measured[] }>();
    for (let round = 1; round <= rounds; round++) {
      process.stdout.write(`Round ${round}/${rounds}...\n`);
      for (const sc of scenarios) {
        const entry = results.get(sc) ?? { a: [], b: [] };
        results.set(sc, entry);
        // a then b in odd rounds, b then a in even ones (drift spreads over both).
        const order = round % 2 === 1 ? (['a', 'b'] as const) : (['b', 'a'] as const);
        for (const which of order) entry[which].push(await run(sc, sc[which], duration));
        process.stdout.write(
          `  ${sc.id}: ${sc.a.name} ${entry.a.at(-1)!.rps.toFixed(1)}, ${sc.b.name} ${entry.b.at(-1)!.rps.toFixed(1)} req/s\n`,
        );
      }
    }

    const f = (n: number | null, d = 2) => (n === null || !Number.isFinite(n) ? '-' : n.toFixed(d));
    const lines = [
      `| scenario | variant | conns | req/s | p50 / p99 ms | b / a | service CPU ms/req | PostgreSQL CPU ms/req | PgBouncer CPU ms/req | PostgreSQL share of server CPU | machine busy |`,
      '|---|---|---|---|---|---|---|---|---|---|---|',
    ];
    let non2xx = 0;
    const json: object[] = [];
    for (const sc of scenarios) {
      const { a, b } = results.get(sc)!;
      non2xx += [...a, ...b].reduce((n, r) => n + r.non2xx, 0);
      const ratio = median(b.map((r, i) => r.rps / a[i].rps));
      const summary = (variant: Variant, rs: Measured[]) => {
        const m = (g: (r: Measured) => number) => median(rs.map(g));
        const service = m((r) => r.serviceCpuMsPerRequest);
        const postgres = m((r) => r.postgresCpuMsPerRequest);
        const pgb =
          rs[0].bouncerCpuMsPerRequest === null ? null : m((r) => r.bouncerCpuMsPerRequest!);
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
          bouncerCpuMsPerRequest: pgb,
          postgresShare: postgres / (postgres + service + (pgb ?? 0)),
          machineBusyPct: m((r) => r.machineBusyPct),
          rounds: rs,
        };
      };
      const sa = summary(sc.a, a);
      const sb = summary(sc.b, b);
      json.push({ id: sc.id, name: sc.name, ratio, a: sa, b: sb });
      for (const [s, label] of [
        [sa, 'a'],
        [sb, 'b'],
      ] as const) {
        const serviceCpu =
          s.legs.length > 1
            ? `${s.legs.map((l) => f(l.cpuMsPerRequest)).join(' + ')} (each; ${f(s.serviceCpuMsPerRequest)} together)`
            : f(s.serviceCpuMsPerRequest);
        const conns = s.legs.map((l) => l.connections).join(' + ');
        lines.push(
          `| ${label === 'a' ? sc.name : ''} | ${label}: ${s.variant} | ${conns} | ${f(s.rps, 1)} | ${f(s.p50, 1)} / ${f(s.p99, 1)} | ${label === 'b' ? f(ratio) : ''} | ${serviceCpu} | ${f(s.postgresCpuMsPerRequest)} | ${f(s.bouncerCpuMsPerRequest)} | ${f(100 * s.postgresShare, 0)} % | ${f(s.machineBusyPct, 0)} % |`,
        );
      }
    }

    const cores = cpus().length;
    const search = json[0] as {
      a: { serviceCpuMsPerRequest: number; postgresCpuMsPerRequest: number };
    };
    const perCoreService = 1000 / search.a.serviceCpuMsPerRequest;
    const perCorePostgres = 1000 / search.a.postgresCpuMsPerRequest;
    const note =
      `This machine has ${cores} core(s). ` +
      (cores <= 2
        ? `On ${cores} cores a second instance does not add CPU: it competes with the first and with ` +
          `PostgreSQL (and the load generators) for the same cores, so "two instances / one instance" ` +
          `measures the overhead of a second process (two event loops, two pools, two caches), not ` +
          `scaling; likewise PgBouncer / direct measures the cost of an extra hop and process on the ` +
          `same cores, not what it buys when many instances share one database.`
        : `Load generators, services and PostgreSQL still share these cores, so the ratios mix ` +
          `scaling with contention.`) +
      `\nTo extrapolate: one core of service CPU serves about 1000 / (service CPU ms/req) requests/s ` +
      `(search, one instance: 1000 / ${f(search.a.serviceCpuMsPerRequest)} ≈ ${f(perCoreService, 0)} req/s per core), ` +
      `so instances scale roughly linearly while each has its own cores; the database's share sets ` +
      `the ceiling: its CPU ms/req (${f(search.a.postgresCpuMsPerRequest)} for this search) allows about ` +
      `${f(perCorePostgres, 0)} req/s per database core, whatever the number of instances ` +
      `(until a read replica takes reads off it).\n`;

    process.stdout.write(
      `\nScaling: one vs two instances (search), direct vs PgBouncer (POST /receipts); medians of ${rounds} interleaved rounds of ${duration} s each; LOG_LEVEL=${logLevel}; one instance DB_POOL_SIZE ${pool}, two instances ${half} each; PgBouncer transaction mode, default_pool_size ${bouncerPool}\n` +
        `(${receipts} receipts over ${tenants} tenants; hot tenant ${hot}; node ${process.version}; ${cores} cores; ${new Date().toISOString()})\n\n` +
        `${lines.join('\n')}\n\n` +
        `b / a: the median of the per-round ratios of req/s. Two instances: p50 is the request-weighted mean of the two load generators', p99 the larger.\n` +
        `non-2xx responses: ${non2xx}\n\n${note}`,
    );
    if (values.json) {
      writeFileSync(
        values.json,
        `${JSON.stringify(
          {
            date: new Date().toISOString(),
            node: process.version,
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
    await owner.end();
    await db.stop();
  }
}

runBench(main);
