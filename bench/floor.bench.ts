/**
 * The service against a bare floor (bench/floor-server.ts: node:http + pg, the service's own SQL
 * builders, constants and view mappers, no framework) on the same data in one run, in
 * interleaved rounds (service, floor, service, floor ...). The service (bench/floor-service.ts),
 * the floor and the load generator (bench/floor-load.ts) each run in their own child process, so
 * CPU time and peak RSS are per server (/proc/<pid>/stat and /proc/<pid>/status). With --stack a
 * third server runs in every round, the stack floor (bench/stack-floor.ts: the floor's routes on
 * NestJS + Express + TypeORM + nestjs-cls, none of the service's own layers), checked like the
 * service: it splits the gap to the bare floor into the stack's share and the service's.
 *
 * Before the rounds, per scenario: same body (parsed JSON deep-equal; for POST /receipts the
 * floor's receipt as the service reads it back) and same SQL (the statement log of one service
 * request and one floor request, compared statement by statement). A mismatch prints a diff and
 * the run exits non-zero. Run: npm run bench:floor [-- --help]
 */
import { ChildProcess, fork } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual, parseArgs } from 'node:util';
import { Client } from 'pg';
import { createApp } from '@/app.factory';
import { AppConfig, loadConfig } from '@/platform/config/app-config';
import { TenantProvisioningService } from '@/tenants/tenant-provisioning.service';
import { ClsService } from 'nestjs-cls';
import {
  BENCH_JWT_SECRET,
  benchHeaders,
  freePort,
  runBench,
  startBenchDatabase,
  savedDataSet,
} from './bench-support';
import { logStatements, sequenceDiff, StatementLog } from './statement-log';
import { BUMP_SQL, LoadResult, receiptBody, WriteTarget } from './floor-load';
import {
  childLoad,
  clusterCpuMs,
  clusterCpuSpentMs,
  cpuMs,
  median,
  memoryMb,
  stopChild,
} from './processes';
import { benchTenants, spreadReceipts } from './receipt-data';

/** How the service's (and the floors') tenant look-up starts in the statement log. */
const tenantLookupPrefix = 'SELECT "Tenant"."id"';

const SCENARIO_IDS = [
  'first-page',
  'first-page-cold',
  'first-page-recount',
  'mode-date',
  'mode-date-cold',
  'mode-date-recount',
  'keyword',
  'keyword-cold',
  'keyword-recount',
  'small-tenant',
  'offset',
  'post',
  'post-tenants',
] as const;

const HELP = `npm run bench:floor [-- options]

  --receipts N      receipts in total                     (default 200000)
  --tenants T       tenants they are spread over          (default 20)
  --hot-share F     share of N on the first ("hot") tenant (default 0.4; the rest split evenly)
  --rounds R        interleaved rounds                    (default 3)
  --duration S      seconds per load run                  (default 5)
  --connections L   comma-separated client counts for first-page, mode-date, keyword (cached and
                    cold) and post                        (default 1,16)
  --scenarios LIST  comma-separated scenario ids to run   (default: all)
                    ids: ${SCENARIO_IDS.join(', ')}
  --log-level L     the service's LOG_LEVEL (request logs to /dev/null) (default info)
  --rate-limit-store S  the service's RATE_LIMIT_STORE, postgres or memory (default: postgres,
                    as for any DATABASE_URL)
  --memory-store    also measure the service with RATE_LIMIT_STORE=memory, a fourth server in
                    every round (checked like the service; service and it swap places every
                    other round, so give an even --rounds): "service / memory store" and the
                    CPU ratio (geometric means of the per-round ratios) price the shared budgets
  --stack           also measure the stack floor (bench/stack-floor.ts: the floor's routes on
                    NestJS + Express + TypeORM + nestjs-cls with nothing of the service's own),
                    a third server in every round, checked like the service (same body, same SQL)
  --json FILE       also write the results as JSON to FILE
  --no-saved        generate the data set even when a saved copy exists (and do not save it)
  --help            this text

The data set is generated once per option set and migration list and saved (a stopped
cluster's copy under BENCH_SAVED_DIR, default $TMPDIR/finance-bench-saved); later runs start
from a copy of it. Delete the directory to reclaim the disk.

The issue's data set is --receipts 1000000 --tenants 50 --hot-share 0.4.
Scenarios run on the hot tenant unless named otherwise. "count cold (a write before each)": before
every request the load client bumps the tenant's receipt write version, as every receipt write
does (the issue's method; the service then adds the receipts inserted since its cached count).
"count from scratch": it also moves reset_version, so the count starts over (as for a filter
never counted before). POST /receipts sends a fresh Idempotency-Key with every request (as real
clients do), amount 100.00 to a random one of 500 splits of the tenant; its req/s counts 201s
only (receipts/s). CPU ms/request: utime+stime of the server's own process over each load run
divided by the requests completed; RSS: the server process's VmRSS sampled every 100 ms (max per
scenario) and VmHWM (peak over the whole run).
`;

interface Measured extends LoadResult {
  cpuMsPerRequest: number;
  /** PostgreSQL's CPU (every process of the cluster) over the run, per request. */
  dbCpuMsPerRequest: number;
  rssMaxMb: number;
}

/** `memory`: the service again, with RATE_LIMIT_STORE=memory (--memory-store). */
type Target = 'service' | 'memory' | 'stack' | 'floor';

interface Scenario {
  id: string;
  name: string;
  clients: number;
  kind: 'search' | 'post';
  /** Index into the tenants (search), or how many tenants POSTs go round (post). */
  tenant: number;
  tenants: number;
  path: string;
  body: string;
  cold: false | 'write' | 'recount';
}

/** The disk the data set takes: each table of receipts' chain and each receipts index, per million receipts. */
async function diskReport(owner: Client, receipts: number): Promise<string> {
  const { rows } = await owner.query<{ name: string; kind: string; bytes: string }>(
    `SELECT c.relname AS name, CASE c.relkind WHEN 'i' THEN 'index' ELSE 'table' END AS kind,
            pg_relation_size(c.oid) + CASE c.relkind WHEN 'r' THEN coalesce(pg_total_relation_size(c.reltoastrelid), 0) ELSE 0 END AS bytes
       FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'public'
       LEFT JOIN pg_index i ON i.indexrelid = c.oid
      WHERE c.relname IN ('receipts', 'demand_splits', 'demands', 'bookings')
         OR i.indrelid = 'receipts'::regclass
      ORDER BY c.relkind DESC, bytes DESC`,
  );
  const perMillion = 1_000_000 / receipts;
  const mb = (b: number) => (b / 1_048_576).toFixed(0);
  const total = rows.reduce((sum, r) => sum + Number(r.bytes), 0);
  return (
    `\nDisk (${receipts} receipts): ${mb(total)} MB, ${mb(total * perMillion)} MB per million receipts\n` +
    rows
      .map(
        (r) =>
          `  ${r.kind.padEnd(5)} ${r.name.padEnd(44)} ${mb(Number(r.bytes)).padStart(7)} MB  ${mb(Number(r.bytes) * perMillion).padStart(6)} MB per million\n`,
      )
      .join('') +
    '\n'
  );
}

async function measure(
  pid: number,
  dbPid: number,
  options: Record<string, unknown>,
): Promise<Measured> {
  const before = cpuMs(pid);
  const dbBefore = clusterCpuMs(dbPid);
  let rssMaxMb = memoryMb(pid, 'VmRSS');
  const sampler = setInterval(() => (rssMaxMb = Math.max(rssMaxMb, memoryMb(pid, 'VmRSS'))), 100);
  try {
    const result = await childLoad(options);
    return {
      ...result,
      cpuMsPerRequest: (cpuMs(pid) - before) / Math.max(1, result.requests),
      dbCpuMsPerRequest:
        clusterCpuSpentMs(dbBefore, clusterCpuMs(dbPid)) / Math.max(1, result.requests),
      rssMaxMb,
    };
  } finally {
    clearInterval(sampler);
  }
}

/** Starts a child (service or floor) and waits for its first IPC message. */
function startChild<T>(file: string, options: object): Promise<{ child: ChildProcess; ready: T }> {
  return new Promise((resolve, reject) => {
    const child = fork(join(__dirname, file), [JSON.stringify(options)], {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    child.once('message', (m) => resolve({ child, ready: m as T }));
    child.once('exit', (code) => reject(new Error(`${file} exited ${code} before it was ready`)));
  });
}

function firstDifference(a: unknown, b: unknown, path = '$'): string | null {
  if (isDeepStrictEqual(a, b)) return null;
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) {
      const d = firstDifference(
        (a as Record<string, unknown>)[k],
        (b as Record<string, unknown>)[k],
        `${path}.${k}`,
      );
      if (d) return d;
    }
  }
  return `${path}: service ${JSON.stringify(a)?.slice(0, 200)} vs floor ${JSON.stringify(b)?.slice(0, 200)}`;
}

const geometricMean = (xs: number[]): number =>
  Math.exp(xs.reduce((sum, x) => sum + Math.log(x), 0) / xs.length);

/** Every key path of a JSON value (arrays by their first element), for shape comparison. */
function shape(value: unknown, path = '$'): string[] {
  if (Array.isArray(value)) return [path, ...(value.length ? shape(value[0], `${path}[]`) : [])];
  if (value && typeof value === 'object') {
    return [
      path,
      ...Object.keys(value)
        .sort()
        .flatMap((k) => shape((value as Record<string, unknown>)[k], `${path}.${k}`)),
    ];
  }
  return [`${path}:${value === null ? 'null' : typeof value}`];
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      receipts: { type: 'string', default: '200000' },
      tenants: { type: 'string', default: '20' },
      'hot-share': { type: 'string', default: '0.4' },
      rounds: { type: 'string', default: '3' },
      duration: { type: 'string', default: '5' },
      connections: { type: 'string', default: '1,16' },
      scenarios: { type: 'string', default: SCENARIO_IDS.join(',') },
      'log-level': { type: 'string', default: 'info' },
      'rate-limit-store': { type: 'string', default: 'postgres' },
      'memory-store': { type: 'boolean', default: false },
      stack: { type: 'boolean', default: false },
      'no-saved': { type: 'boolean', default: false },
      json: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  const help = HELP;
  if (values.help) {
    process.stdout.write(help);
    return;
  }
  const receipts = Number(values.receipts);
  const tenants = Number(values.tenants);
  const hotShare = Number(values['hot-share']);
  const rounds = Number(values.rounds);
  const duration = Number(values.duration);
  const connections = values.connections.split(',').map(Number);
  const rateLimitStore = values['rate-limit-store'];
  const wanted = values.scenarios.split(',').map((s) => s.trim());
  const unknown = wanted.filter((s) => !(SCENARIO_IDS as readonly string[]).includes(s));
  if (
    ![receipts, tenants, hotShare, rounds, duration].every(Number.isFinite) ||
    tenants < 2 ||
    hotShare <= 0 ||
    hotShare >= 1 ||
    rounds < 1 ||
    connections.some((c) => !Number.isInteger(c) || c < 1) ||
    !['postgres', 'memory'].includes(rateLimitStore) ||
    unknown.length > 0
  ) {
    throw new Error(
      `invalid options${unknown.length ? ` (unknown scenarios: ${unknown.join(', ')})` : ''}\n\n${help}`,
    );
  }
  const { hot, other } = spreadReceipts(receipts, tenants, hotShare);

  const log = new StatementLog();
  const db = await startBenchDatabase({
    onLog: log.onLog,
    // The data set is the same for the same options: generated once, then restored.
    saved: values['no-saved'] ? undefined : savedDataSet(receipts, tenants, hotShare),
  });
  let owner = new Client({ connectionString: db.ownerUrl });
  await owner.connect();
  const children: ChildProcess[] = [];
  try {
    // Tenants as the tenant CLI makes them, through an in-process app that is closed again.
    const config = loadConfig({
      NODE_ENV: 'test',
      DATABASE_URL: db.appUrl,
      JWT_SECRET: BENCH_JWT_SECRET,
      LOG_LEVEL: 'silent',
      HOUSEKEEPING_ENABLED: 'false',
    });
    const setup = await createApp(config, db.appUrl, { bufferLogs: false });
    const created = await benchTenants(owner, {
      restored: db.restored,
      tenants,
      spread: { hot, other },
      create: (key, name) =>
        setup.get(ClsService).run(() => setup.get(TenantProvisioningService).create({ key, name })),
    });
    const { dbLockTimeoutMs, dbStatementTimeoutMs } = setup.get(AppConfig);
    await setup.close();
    if (!db.restored) {
      await owner.end();
      await db.save();
      owner = new Client({ connectionString: db.ownerUrl });
      await owner.connect();
    }
    process.stdout.write(await diskReport(owner, receipts));

    const servicePort = await freePort();
    const service = await startChild<{ ready: boolean }>('floor-service.js', {
      appUrl: db.appUrl,
      port: servicePort,
      secret: BENCH_JWT_SECRET,
      logLevel: values['log-level'],
      rateLimitStore,
    });
    children.push(service.child);
    const memoryPort = values['memory-store'] ? await freePort() : 0;
    const memoryService = values['memory-store']
      ? await startChild<{ ready: boolean }>('floor-service.js', {
          appUrl: db.appUrl,
          port: memoryPort,
          secret: BENCH_JWT_SECRET,
          logLevel: values['log-level'],
          rateLimitStore: 'memory',
        })
      : undefined;
    if (memoryService) children.push(memoryService.child);
    const floorOptions = {
      appUrl: db.appUrl,
      poolSize: 40, // as the service's DB_POOL_SIZE
      lockTimeoutMs: dbLockTimeoutMs,
      statementTimeoutMs: dbStatementTimeoutMs,
    };
    const floor = await startChild<{ url: string }>('floor-server.js', floorOptions);
    children.push(floor.child);
    const stack = values.stack
      ? await startChild<{ url: string }>('stack-floor.js', floorOptions)
      : undefined;
    if (stack) children.push(stack.child);
    // The servers measured, in the order each round runs them; the bare floor is the baseline.
    const targets: Target[] = [
      'service',
      ...(memoryService ? (['memory'] as const) : []),
      ...(stack ? (['stack'] as const) : []),
      'floor',
    ];
    const compared = targets.filter((t) => t !== 'floor');
    const urls: Record<Target, string> = {
      service: `http://127.0.0.1:${servicePort}`,
      memory: `http://127.0.0.1:${memoryPort}`,
      stack: stack?.ready.url ?? '',
      floor: floor.ready.url,
    };
    // The server process (first line of postmaster.pid): its processes' CPU is PostgreSQL's.
    const dbPid = Number(readFileSync(join(db.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    const pids: Record<Target, number> = {
      service: service.child.pid!,
      memory: memoryService?.child.pid ?? 0,
      stack: stack?.child.pid ?? 0,
      floor: floor.child.pid!,
    };
    const apps: Record<Target, string> = {
      service: 'finance-service',
      memory: 'finance-service',
      stack: 'bench-stack-floor',
      floor: 'bench-floor',
    };

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

    const modeAndDate = JSON.stringify([
      { field: 'paymentMode', type: 'IN', query: 'NEFT,RTGS,UPI' },
      { field: 'receivedDate', type: 'BETWEEN', query: '2025-06-01,2025-08-31' },
    ]);
    const keyword = JSON.stringify([{ field: 'keyword', type: 'CONTAINS', query: 'iyer' }]);
    // 100,000 as in the issue, or half the hot tenant when that is smaller (a page with rows).
    const offsetPage = Math.min(5000, Math.floor(hot / 2 / 20));
    const search = (tenant = 0, path = '/receipts/search?size=20') => ({
      kind: 'search' as const,
      tenant,
      tenants: 1,
      path,
    });
    const all: Scenario[] = [];
    const perClients = (id: string, name: string, body: string, cold: Scenario['cold']) => {
      for (const c of connections) all.push({ id, name, clients: c, body, cold, ...search() });
    };
    perClients('first-page', 'first page, count cached', '[]', false);
    perClients('first-page-cold', 'first page, count cold (a write before each)', '[]', 'write');
    perClients('first-page-recount', 'first page, count from scratch', '[]', 'recount');
    perClients('mode-date', 'mode IN + date BETWEEN, count cached', modeAndDate, false);
    perClients(
      'mode-date-cold',
      'mode IN + date BETWEEN, count cold (a write before each)',
      modeAndDate,
      'write',
    );
    perClients(
      'mode-date-recount',
      'mode IN + date BETWEEN, count from scratch',
      modeAndDate,
      'recount',
    );
    perClients('keyword', 'keyword CONTAINS "iyer", count cached', keyword, false);
    perClients(
      'keyword-cold',
      'keyword CONTAINS "iyer", count cold (a write before each)',
      keyword,
      'write',
    );
    perClients(
      'keyword-recount',
      'keyword CONTAINS "iyer", count from scratch',
      keyword,
      'recount',
    );
    all.push({
      id: 'small-tenant',
      name: `small tenant (${other} receipts), first page, count cached`,
      clients: 16,
      body: '[]',
      cold: false,
      ...search(1),
    });
    all.push({
      id: 'offset',
      name: `offset ${offsetPage * 20} (page ${offsetPage}), count cached`,
      clients: 1,
      body: '[]',
      cold: false,
      ...search(0, `/receipts/search?page=${offsetPage}&size=20`),
    });
    for (const c of connections) {
      all.push({
        id: 'post',
        name: 'POST /receipts, one tenant (receipts/s)',
        clients: c,
        kind: 'post',
        tenant: 0,
        tenants: 1,
        path: '/receipts',
        body: '',
        cold: false,
      });
    }
    all.push({
      id: 'post-tenants',
      name: `POST /receipts over ${postTenants} tenants (receipts/s)`,
      clients: 16,
      kind: 'post',
      tenant: 0,
      tenants: postTenants,
      path: '/receipts',
      body: '',
      cold: false,
    });
    const scenarios = all.filter((s) => wanted.includes(s.id));

    const bump = (tenant: number, kind: 'write' | 'recount') =>
      owner.query(BUMP_SQL[kind], [created[tenant].id]);
    const request = async (target: Target, sc: Scenario, n = 0) => {
      const t = sc.tenant;
      const res = await fetch(`${urls[target]}${sc.path}`, {
        method: 'POST',
        headers:
          sc.kind === 'post'
            ? {
                ...benchHeaders(created[t].key),
                'idempotency-key': `check-${target}-${sc.id}-${n}`,
              }
            : benchHeaders(created[t].key),
        body: sc.kind === 'post' ? receiptBody(writeTargets[t].splits[0], n) : sc.body,
      });
      const text = await res.text();
      const ok = sc.kind === 'post' ? 201 : 200;
      if (res.status !== ok) throw new Error(`${target} ${sc.path}: ${res.status} ${text}`);
      return JSON.parse(text) as unknown;
    };

    // Same body and same SQL, once per distinct scenario (clients do not change either).
    let mismatches = 0;
    const report = (ok: boolean, line: string) => {
      if (!ok) mismatches++;
      process.stdout.write(`${line}\n`);
    };
    await logStatements(owner, true);
    const sqlChecks: {
      scenario: string;
      target: Target;
      same: boolean;
      statements: string[];
      diff: string;
    }[] = [];
    try {
      const seen = new Set<string>();
      let n = 0;
      for (const sc of scenarios) {
        if (seen.has(sc.id)) continue;
        seen.add(sc.id);
        const statements: Record<Target, string[]> = {
          service: [],
          memory: [],
          stack: [],
          floor: [],
        };
        const bodies: Record<Target, unknown> = {
          service: null,
          memory: null,
          stack: null,
          floor: null,
        };
        const readBacks: Record<Target, unknown> = { ...bodies };
        for (const target of targets) {
          // Warm: the tenant record is cached after this one (both keep it 5 s), and so is the
          // count of a cached scenario; a cold one then gets its bump.
          await request(target, sc, ++n);
          if (sc.kind === 'search' && sc.cold !== false) await bump(sc.tenant, sc.cold);
          await log.take(apps[target]);
          // The tenant record expires from a server's cache 5 s after it was read; a request
          // that happened to read it again is not the steady state, so it is made once more.
          for (let attempt = 0; attempt < 3; attempt++) {
            if (attempt > 0 && sc.kind === 'search' && sc.cold !== false) {
              await bump(sc.tenant, sc.cold);
              await log.take(apps[target]);
            }
            bodies[target] = await request(target, sc, ++n);
            statements[target] = await log.take(apps[target]);
            if (!statements[target].some((s) => s.startsWith(tenantLookupPrefix))) break;
          }
          // A new receipt as the service reads it back, before the next server's receipt on the
          // same split changes the split's figures it embeds.
          if (sc.kind === 'post') {
            const res = await fetch(
              `${urls.service}/receipts/${(bodies[target] as { id: string }).id}`,
              { headers: benchHeaders(created[sc.tenant].key) },
            );
            readBacks[target] = await res.json();
          }
        }
        for (const target of compared) {
          const label = target === 'service' ? sc.id : `${sc.id} (${target})`;
          if (sc.kind === 'search') {
            const diff = firstDifference(bodies[target], bodies.floor);
            report(!diff, diff ? `BODY MISMATCH ${label}: ${diff}` : `Same body: ${label}`);
          } else {
            // Different receipts: one as the service reads it back (the floor's when checking
            // the service, else the target's own), and the same shape as the floor's.
            const checked = target === 'service' ? 'floor' : target;
            const diff =
              firstDifference(readBacks[checked], bodies[checked]) ??
              firstDifference(shape(bodies[target]), shape(bodies.floor));
            report(
              !diff,
              diff
                ? `BODY MISMATCH ${label}: ${diff}`
                : `Same body: ${label} (the ${checked}'s receipt read back by the service; the ${target}'s has the floor's shape)`,
            );
          }
          const diff = sequenceDiff(statements[target], statements.floor, target);
          sqlChecks.push({
            scenario: sc.id,
            target,
            same: diff === '',
            statements: statements[target],
            diff,
          });
          report(
            diff === '' && statements[target].length > 0,
            diff === ''
              ? `Same SQL: ${label} (${statements[target].length} statements)`
              : `SQL MISMATCH ${label} (- ${target} only, + floor only):\n${diff}`,
          );
        }
      }
    } finally {
      await logStatements(owner, false);
    }

    const results = new Map<Scenario, Record<Target, Measured[]>>();
    for (let round = 1; round <= rounds; round++) {
      process.stdout.write(`Round ${round}/${rounds}...\n`);
      for (const sc of scenarios) {
        const entry = results.get(sc) ?? { service: [], memory: [], stack: [], floor: [] };
        results.set(sc, entry);
        // The two services swap places every other round: neither always runs first.
        const order =
          memoryService && round % 2 === 0
            ? targets.map((t) => (t === 'service' ? 'memory' : t === 'memory' ? 'service' : t))
            : targets;
        for (const target of order) {
          // A cached scenario starts cached (an earlier POST scenario may have bumped the version).
          if (sc.kind === 'search' && sc.cold === false) await request(target, sc);
          entry[target].push(
            await measure(pids[target], dbPid, {
              url: `${urls[target]}${sc.kind === 'post' ? '' : sc.path}`,
              headers: benchHeaders(created[sc.tenant].key),
              body: sc.body,
              connections: sc.clients,
              duration,
              cold: sc.cold,
              ownerUrl: db.ownerUrl,
              tenantId: created[sc.tenant].id,
              ...(sc.kind === 'post' ? { writes: writeTargets.slice(0, sc.tenants) } : {}),
            }),
          );
        }
        const rates = targets.map((t) => `${t} ${entry[t].at(-1)!.rps.toFixed(1)}`);
        process.stdout.write(`  ${sc.id}, ${sc.clients} client(s): ${rates.join(', ')} req/s\n`);
      }
    }
    const peakRssMb = Object.fromEntries(
      targets.map((t) => [t, memoryMb(pids[t], 'VmHWM')]),
    ) as Partial<Record<Target, number>>;

    const stackHeads = stack
      ? ['stack req/s', 'stack / floor', 'stack CPU ms/req', 'service / stack CPU']
      : [];
    const memoryHeads = memoryService
      ? [
          'memory-store req/s',
          'service / memory store',
          'memory-store CPU ms/req',
          'service / memory-store CPU',
        ]
      : [];
    const heads = [
      `scenario (hot tenant, ${hot} receipts)`,
      'clients',
      'service req/s',
      'service p50 / p99 ms',
      'floor req/s',
      'floor p50 / p99 ms',
      'service / floor',
      'service CPU ms/req',
      'floor CPU ms/req',
      'PostgreSQL CPU ms/req (service / floor)',
      'service RSS max MB',
      ...stackHeads,
      ...memoryHeads,
    ];
    const lines = [`| ${heads.join(' | ')} |`, `|${heads.map(() => '---|').join('')}`];
    let non2xx = 0;
    const json: object[] = [];
    const m = (rs: Measured[], f: (r: Measured) => number) => median(rs.map(f));
    const summary = (rs: Measured[]) => ({
      rps: m(rs, (r) => r.rps),
      p50: m(rs, (r) => r.p50),
      p99: m(rs, (r) => r.p99),
      cpuMsPerRequest: m(rs, (r) => r.cpuMsPerRequest),
      dbCpuMsPerRequest: m(rs, (r) => r.dbCpuMsPerRequest),
      rssMaxMb: Math.max(...rs.map((r) => r.rssMaxMb)),
      rounds: rs,
    });
    for (const sc of scenarios) {
      const measured = results.get(sc)!;
      non2xx += targets.reduce((n, t) => measured[t].reduce((k, r) => k + r.non2xx, n), 0);
      // Per round, against the floor measured in the same round: the median of those ratios.
      const ratioTo = (t: Target) =>
        median(measured[t].map((r, i) => r.rps / measured.floor[i].rps));
      const ratio = ratioTo('service');
      const s = summary(measured.service);
      const f = summary(measured.floor);
      const st = stack ? summary(measured.stack) : undefined;
      const stackRatio = stack ? ratioTo('stack') : undefined;
      const mem = memoryService ? summary(measured.memory) : undefined;
      // Per round, the service against itself with the in-memory limiter in the same round;
      // the geometric mean, so the rounds where either ran first weigh alike.
      const perRound = (f: (r: Measured) => number) =>
        geometricMean(measured.service.map((r, i) => f(r) / f(measured.memory[i])));
      const memoryRatio = memoryService ? perRound((r) => r.rps) : undefined;
      const memoryCpuRatio = memoryService ? perRound((r) => r.cpuMsPerRequest) : undefined;
      json.push({
        id: sc.id,
        name: sc.name,
        clients: sc.clients,
        ratio,
        service: s,
        floor: f,
        ...(st ? { stack: st, stackRatio } : {}),
        ...(mem ? { memoryStore: mem, memoryRatio, memoryCpuRatio } : {}),
      });
      const cells = [
        sc.name,
        sc.clients,
        s.rps.toFixed(1),
        `${s.p50.toFixed(1)} / ${s.p99.toFixed(1)}`,
        f.rps.toFixed(1),
        `${f.p50.toFixed(1)} / ${f.p99.toFixed(1)}`,
        ratio.toFixed(2),
        s.cpuMsPerRequest.toFixed(2),
        f.cpuMsPerRequest.toFixed(2),
        `${s.dbCpuMsPerRequest.toFixed(2)} / ${f.dbCpuMsPerRequest.toFixed(2)}`,
        s.rssMaxMb.toFixed(0),
        ...(st
          ? [
              st.rps.toFixed(1),
              stackRatio!.toFixed(2),
              st.cpuMsPerRequest.toFixed(2),
              (s.cpuMsPerRequest / st.cpuMsPerRequest).toFixed(2),
            ]
          : []),
        ...(mem
          ? [
              mem.rps.toFixed(1),
              memoryRatio!.toFixed(3),
              mem.cpuMsPerRequest.toFixed(2),
              memoryCpuRatio!.toFixed(3),
            ]
          : []),
      ];
      lines.push(`| ${cells.join(' | ')} |`);
    }
    const sqlSame = sqlChecks.filter((c) => c.same).length;
    process.stdout.write(
      `\nService${stack ? ' and stack floor' : ''} vs bare floor, medians of ${rounds} interleaved rounds of ${duration} s each; service LOG_LEVEL=${values['log-level']}, RATE_LIMIT_STORE=${rateLimitStore}\n` +
        `(${receipts} receipts over ${tenants} tenants; hot tenant ${hot}; node ${process.version}; ${new Date().toISOString()})\n\n` +
        `${lines.join('\n')}\n\n` +
        `Peak RSS (VmHWM, whole run): service ${peakRssMb.service!.toFixed(0)} MB (target <= 200), floor ${peakRssMb.floor!.toFixed(0)} MB` +
        `${peakRssMb.stack === undefined ? '' : `, stack floor ${peakRssMb.stack.toFixed(0)} MB`}` +
        `${peakRssMb.memory === undefined ? '' : `, memory-store service ${peakRssMb.memory.toFixed(0)} MB`}\n` +
        `non-2xx responses: ${non2xx}; body/SQL mismatches: ${mismatches}; same SQL in ${sqlSame} of ${sqlChecks.length} checks\n`,
    );
    if (values.json) {
      writeFileSync(
        values.json,
        `${JSON.stringify(
          {
            date: new Date().toISOString(),
            node: process.version,
            options: {
              receipts,
              tenants,
              hotShare,
              rounds,
              duration,
              connections,
              logLevel: values['log-level'],
              rateLimitStore,
              memoryStore: values['memory-store'],
            },
            hot,
            other,
            peakRssMb,
            non2xx,
            mismatches,
            sqlChecks,
            scenarios: json,
          },
          null,
          2,
        )}\n`,
      );
      process.stdout.write(`Results written to ${values.json}\n`);
    }
    if (mismatches > 0 || non2xx > 0) process.exitCode = 1;
  } finally {
    for (const child of children) await stopChild(child);
    await owner.end();
    await db.stop();
  }
}

runBench(main);
