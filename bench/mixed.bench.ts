/**
 * The normal working day: searches from `--clients` closed-loop clients over a weighted mix of
 * scenarios while receipts are recorded at a steady, open-loop rate through the real
 * `POST /receipts` (with `Idempotency-Key`), spread over the tenants - so every write makes the
 * next count of its tenant a cold one, as on a real day. The service runs as its own child
 * process (`dist/src/main.js`, NODE_ENV=production, request logs on) so its peak RSS and CPU
 * are its own. Run: npm run bench:mixed [-- --help]
 */
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { AppConfig } from '@/platform/config/app-config';
import { PAYMENT_MODES } from '@/common/domain/enums';
import { freePort, runBench, startBenchEnvironment, savedDataSet } from './bench-support';
import { benchTenants, spreadReceipts } from './receipt-data';

const HELP = `npm run bench:mixed [-- options]

  --receipts N          receipts in total                        (default 200000)
  --tenants T           tenants they are spread over, at least 2 (default 10)
  --hot-share F         share of N on the first ("hot") tenant   (default 0.4)
  --write-hot-share W   share of the writes on the hot tenant (default: --hot-share)
  --duration S          measured seconds                         (default 30)
  --warmup S            seconds of the same load before measuring (default 5)
  --clients C           closed-loop search clients (0 = writes only) (default 16)
  --write-rate R        receipts recorded per second, open loop  (default 20; 0 = searches only)
  --pool P              the service's DB_POOL_SIZE               (default 40, as bench:floor)
  --log-level L         the service's LOG_LEVEL (request logs go to /dev/null) (default info)
  --json FILE           also write the results as JSON to FILE
  --help                this text

The issue's data set is --receipts 1000000 --tenants 50 --hot-share 0.4.
Search mix (each client cycles through it from its own starting point): first page, default
sort, hot tenant x4; paymentMode IN (NEFT,RTGS,UPI) + receivedDate BETWEEN 2025-06-01 and
2025-08-31, hot x2; keyword CONTAINS "iyer" (10% of the receipts), hot x1; first page of a small
tenant x2; a deep page (offset 100,000, or half the hot tenant if smaller), hot x1.
Writes: one every 1/R s on a fixed schedule whatever the answers (latency is taken from the
scheduled time, so a stalled service shows as latency, not as fewer writes); write-hot-share of
them on the hot tenant, the rest round-robin over the others; a random open demand split each.
Exits non-zero on any non-2xx answer, network error or implausible page.
When bench:floor has saved a data set of the same options, the run starts from a copy of it
(seconds) instead of generating one (minutes); nothing is saved here.
`;

interface Scenario {
  name: string;
  tenant: number;
  page: number;
  body: string;
  weight: number;
}

interface Sample {
  ms: number[];
  non2xx: number;
  errors: number;
  invalid: number;
  firstTotal?: number;
  lastTotal?: number;
}

interface Stats {
  requests: number;
  perSecond: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

const SIZE = 20;

function stats(ms: number[], seconds: number): Stats {
  const s = [...ms].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
  return {
    requests: s.length,
    perSecond: s.length / seconds,
    p50: at(0.5),
    p90: at(0.9),
    p99: at(0.99),
    max: s[s.length - 1] ?? 0,
  };
}

function send(
  agent: Agent,
  base: URL,
  method: string,
  path: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        agent,
        host: base.hostname,
        port: base.port,
        method,
        path,
        headers: { ...headers, 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** utime + stime of a process in ms, from /proc (Linux). */
function cpuMs(pid: number, tick: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / tick;
}

function statusKb(pid: number, key: 'VmRSS' | 'VmHWM'): number {
  const m = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(
    readFileSync(`/proc/${pid}/status`, 'utf8'),
  );
  return m ? Number(m[1]) : 0;
}

/** CPU ms of every child process of `parent` (the PostgreSQL postmaster: its backends and workers), by pid. */
function childrenCpuMs(parent: number, tick: number): Map<number, number> {
  const out = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) === parent) {
        out.set(Number(entry), ((Number(fields[11]) + Number(fields[12])) * 1000) / tick);
      }
    } catch {
      // exited meanwhile
    }
  }
  return out;
}

/** CPU used between two snapshots; processes new in `after` count from 0, gone ones are lost. */
function cpuBetween(before: Map<number, number>, after: Map<number, number>): number {
  let ms = 0;
  for (const [pid, t] of after) ms += t - (before.get(pid) ?? 0);
  return ms;
}

/** Busy and total jiffies of the whole machine (all processes, not only ours). */
function machineJiffies(): { busy: number; total: number } {
  const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0].split(/\s+/).slice(1).map(Number);
  const total = cpu.reduce((a, b) => a + (Number.isFinite(b) ? b : 0), 0);
  return { busy: total - cpu[3] - cpu[4], total };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      receipts: { type: 'string', default: '200000' },
      tenants: { type: 'string', default: '10' },
      'hot-share': { type: 'string', default: '0.4' },
      'write-hot-share': { type: 'string' },
      duration: { type: 'string', default: '30' },
      warmup: { type: 'string', default: '5' },
      clients: { type: 'string', default: '16' },
      'write-rate': { type: 'string', default: '20' },
      pool: { type: 'string', default: '40' },
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
  const writeHotShare = Number(values['write-hot-share'] ?? hotShare);
  const duration = Number(values.duration);
  const warmup = Number(values.warmup);
  const clients = Number(values.clients);
  const writeRate = Number(values['write-rate']);
  const pool = Number(values.pool);
  if (
    ![receipts, tenants, hotShare, writeHotShare, duration, warmup, clients, writeRate, pool].every(
      Number.isFinite,
    ) ||
    !Number.isInteger(tenants) ||
    tenants < 2 ||
    hotShare <= 0 ||
    hotShare >= 1 ||
    writeHotShare < 0 ||
    writeHotShare > 1 ||
    duration <= 0 ||
    warmup < 0 ||
    !Number.isInteger(clients) ||
    clients < 0 ||
    writeRate < 0 ||
    !Number.isInteger(pool) ||
    pool < 1
  ) {
    throw new Error(`invalid options\n\n${HELP}`);
  }
  const { hot, other } = spreadReceipts(receipts, tenants, hotShare);
  const tick = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

  // bench:floor's saved cluster of the same data set, when there is one (seconds, not minutes).
  const env = await startBenchEnvironment({}, { saved: savedDataSet(receipts, tenants, hotShare) });
  let service: ChildProcess | undefined;
  try {
    const created = await benchTenants(env.owner, {
      restored: env.restored,
      tenants,
      spread: { hot, other },
      create: (key, name) => env.createTenant(key, name),
    });

    // Open splits to record against: the generator's splits are 10,000,000 each and far from
    // paid (a write of 1,250.50 never exceeds what is pending).
    const splits: string[][] = [];
    for (const t of created) {
      const { rows } = await env.owner.query<{ id: string }>(
        `SELECT id FROM demand_splits WHERE tenant_id = $1 AND amount - paid_amount > 1000000
          ORDER BY random() LIMIT 1000`,
        [t.id],
      );
      if (rows.length === 0) throw new Error(`tenant ${t.key} has no open demand split`);
      splits.push(rows.map((r) => r.id));
    }

    // The service as a user runs it: its own process, production mode, request logs on.
    const port = await freePort();
    const config = env.app.get(AppConfig);
    service = spawn(process.execPath, [join(__dirname, '..', 'src', 'main.js')], {
      env: {
        ...process.env,
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        PORT: String(port),
        DATABASE_URL: env.appUrl,
        DATABASE_MIGRATION_URL: env.ownerUrl,
        JWT_SECRET: config.jwt.secret,
        SECRETS_KEY: config.secrets.key?.toString('base64'),
        LOG_LEVEL: values['log-level'],
        RATE_LIMIT_PER_MINUTE: '100000000',
        DB_POOL_SIZE: String(pool),
        SEED_DEMO_DATA: 'false',
        SHUTDOWN_DRAIN_MS: '0',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const pid = service.pid;
    if (pid === undefined) throw new Error('the service did not start');
    const base = new URL(`http://127.0.0.1:${port}`);
    for (let i = 0; ; i++) {
      const ready = await fetch(`${base.origin}/health/ready`).then(
        (r) => r.ok,
        () => false,
      );
      if (ready) break;
      if (i > 600 || service.exitCode !== null) throw new Error('the service did not get ready');
      await sleep(100);
    }

    // This database's server process (the parent of every backend), for PostgreSQL's CPU.
    const { rows: backend } = await env.owner.query<{ pid: number }>(
      'SELECT pg_backend_pid() AS pid',
    );
    const postmaster = Number(
      readFileSync(`/proc/${backend[0].pid}/stat`, 'utf8').split(') ')[1].split(' ')[1],
    );
    const headers = created.map((t) => env.headers(t.key));
    const deepPage = Math.floor(Math.min(100_000, hot / 2) / SIZE);
    const scenarios: Scenario[] = [
      { name: 'first page, hot tenant', tenant: 0, page: 0, body: '[]', weight: 4 },
      {
        name: 'mode IN + date BETWEEN, hot',
        tenant: 0,
        page: 0,
        body: JSON.stringify([
          { field: 'paymentMode', type: 'IN', query: 'NEFT,RTGS,UPI' },
          { field: 'receivedDate', type: 'BETWEEN', query: '2025-06-01,2025-08-31' },
        ]),
        weight: 2,
      },
      {
        name: 'keyword CONTAINS "iyer", hot',
        tenant: 0,
        page: 0,
        body: JSON.stringify([{ field: 'keyword', type: 'CONTAINS', query: 'iyer' }]),
        weight: 1,
      },
      { name: 'first page, small tenant', tenant: 1, page: 0, body: '[]', weight: 2 },
      {
        name: `offset ${(deepPage * SIZE).toLocaleString('en')}, hot`,
        tenant: 0,
        page: deepPage,
        body: '[]',
        weight: 1,
      },
    ];
    // Interleaved rather than in blocks, so no client runs one slow scenario back to back.
    const cycle: number[] = [];
    const left = scenarios.map((s) => s.weight);
    while (left.some((n) => n > 0)) {
      for (const [i, n] of left.entries()) {
        if (n > 0) {
          cycle.push(i);
          left[i]--;
        }
      }
    }

    const agent = new Agent({ keepAlive: true, maxSockets: clients + 64 });
    const samples: Sample[] = scenarios.map(() => ({ ms: [], non2xx: 0, errors: 0, invalid: 0 }));
    const writesTo = new Array<number>(tenants).fill(0);
    const firstErrors: string[] = [];
    const note = (message: string) => {
      if (firstErrors.length < 5) firstErrors.push(message);
    };
    let measuring = false;
    let stopping = false;

    /** A page is plausible when its total lies between the total before the run and that plus the writes sent to its tenant, and its length fits. */
    const check = (sc: Scenario, text: string, total0: number): boolean => {
      const page = JSON.parse(text) as { content?: unknown[]; totalElements?: number };
      const total = page.totalElements;
      if (typeof total !== 'number' || !Array.isArray(page.content)) return false;
      const expected = Math.max(0, Math.min(SIZE, total - sc.page * SIZE));
      return (
        total >= total0 && total <= total0 + writesTo[sc.tenant] && page.content.length === expected
      );
    };
    const search = async (sc: Scenario) =>
      send(
        agent,
        base,
        'POST',
        `/receipts/search?page=${sc.page}&size=${SIZE}`,
        headers[sc.tenant],
        sc.body,
      );
    const totals0: number[] = [];
    for (const sc of scenarios) {
      const res = await search(sc);
      if (res.status !== 200) throw new Error(`${sc.name}: ${res.status} ${res.text}`);
      totals0.push((JSON.parse(res.text) as { totalElements: number }).totalElements);
    }

    const client = async (c: number) => {
      for (let k = c; !stopping; k++) {
        const i = cycle[k % cycle.length];
        const sc = scenarios[i];
        const sample = samples[i];
        const t0 = performance.now();
        try {
          const res = await search(sc);
          const ms = performance.now() - t0;
          if (!measuring) continue;
          sample.ms.push(ms);
          if (res.status !== 200) {
            sample.non2xx++;
            note(`${sc.name}: ${res.status} ${res.text.slice(0, 300)}`);
          } else if (!check(sc, res.text, totals0[i])) {
            sample.invalid++;
            note(`${sc.name}: implausible page ${res.text.slice(0, 300)}`);
          } else {
            const total = (JSON.parse(res.text) as { totalElements: number }).totalElements;
            sample.firstTotal ??= total;
            sample.lastTotal = total;
          }
        } catch (error) {
          if (measuring) sample.errors++;
          note(`${sc.name}: ${String(error)}`);
        }
      }
    };

    const writes: Sample = { ms: [], non2xx: 0, errors: 0, invalid: 0 };
    const hotWriteMs: number[] = [];
    const otherWriteMs: number[] = [];
    let scheduled = 0;
    let lateMax = 0;
    let others = 0;
    let completedInWindow = 0;
    const inFlight = new Set<Promise<void>>();
    const today = new Date().toISOString().slice(0, 10); // UTC: never ahead of the tenant's day
    const write = async (n: number, at: number) => {
      // writeHotShare of the writes on the hot tenant, the rest round-robin over the others
      const tenant =
        Math.floor((n + 1) * writeHotShare) > Math.floor(n * writeHotShare)
          ? 0
          : 1 + (others++ % (tenants - 1));
      writesTo[tenant]++;
      const split = splits[tenant][n % splits[tenant].length];
      const body = JSON.stringify({
        demandSplit: split,
        amount: 1250.5,
        paymentMode: PAYMENT_MODES[n % PAYMENT_MODES.length],
        transactionRef: `MIX${n}`,
        receivedDate: today,
      });
      const counted = measuring;
      try {
        const res = await send(
          agent,
          base,
          'POST',
          '/receipts',
          { ...headers[tenant], 'idempotency-key': randomUUID() },
          body,
        );
        if (measuring) completedInWindow++;
        if (!counted) return;
        const ms = performance.now() - at;
        writes.ms.push(ms);
        (tenant === 0 ? hotWriteMs : otherWriteMs).push(ms);
        if (res.status !== 201) {
          writes.non2xx++;
          note(`POST /receipts: ${res.status} ${res.text.slice(0, 300)}`);
        }
      } catch (error) {
        if (counted) writes.errors++;
        note(`POST /receipts: ${String(error)}`);
      }
    };
    const writer = async () => {
      if (writeRate === 0) return;
      const t0 = performance.now();
      for (let n = 0; !stopping; n++) {
        const at = t0 + (n * 1000) / writeRate;
        const wait = at - performance.now();
        if (wait > 0) await sleep(wait);
        if (stopping) break;
        lateMax = Math.max(lateMax, performance.now() - at);
        if (measuring) scheduled++;
        const p = write(n, at).finally(() => inFlight.delete(p));
        inFlight.add(p);
      }
    };

    process.stdout.write(
      `Load: ${clients} search clients + ${writeRate} receipts/s for ${warmup} s warm-up + ${duration} s measured...\n`,
    );
    const running = [writer(), ...Array.from({ length: clients }, (_, c) => client(c))];
    await sleep(warmup * 1000);
    const hwmBefore = statusKb(pid, 'VmHWM');
    const pg0 = childrenCpuMs(postmaster, tick);
    const cpu0 = cpuMs(pid, tick);
    const self0 = process.cpuUsage();
    const machine0 = machineJiffies();
    const t0 = performance.now();
    measuring = true;
    let rssPeak = 0;
    const rssTimer = setInterval(() => {
      rssPeak = Math.max(rssPeak, statusKb(pid, 'VmRSS'));
    }, 200);
    // What the service's database sessions are doing (sampled each second): how many wait on a
    // lock, and the commonest (wait, statement) pairs of the active ones.
    const lockWaits: number[] = [];
    const activity = new Map<string, number>();
    let activitySamples = 0;
    const lockTimer = setInterval(() => {
      env.owner
        .query<{ wait: string; statement: string }>(
          `SELECT coalesce(wait_event_type || ':' || wait_event, 'CPU') AS wait,
                  regexp_replace(left(query, 60), '\\s+', ' ', 'g') AS statement
             FROM pg_stat_activity WHERE usename = 'finance_app' AND state <> 'idle'`,
        )
        .then(
          ({ rows }) => {
            activitySamples++;
            lockWaits.push(rows.filter((r) => r.wait.startsWith('Lock:')).length);
            for (const r of rows) {
              const key = `${r.wait} | ${r.statement}`;
              activity.set(key, (activity.get(key) ?? 0) + 1);
            }
          },
          () => undefined,
        );
    }, 1000);
    await sleep(duration * 1000);
    measuring = false;
    const elapsed = (performance.now() - t0) / 1000;
    const cpu1 = cpuMs(pid, tick);
    const self1 = process.cpuUsage(self0);
    const pgCpuMs = cpuBetween(pg0, childrenCpuMs(postmaster, tick));
    const machine1 = machineJiffies();
    clearInterval(rssTimer);
    clearInterval(lockTimer);
    stopping = true;
    await Promise.all(running);
    await Promise.all(inFlight);
    const hwm = statusKb(pid, 'VmHWM');
    agent.destroy();

    const searchStats = scenarios.map((sc, i) => ({
      name: sc.name,
      ...stats(samples[i].ms, elapsed),
      non2xx: samples[i].non2xx,
      errors: samples[i].errors,
      invalid: samples[i].invalid,
      totalElements: `${samples[i].firstTotal ?? '-'} -> ${samples[i].lastTotal ?? '-'}`,
    }));
    const allSearch = stats(
      samples.flatMap((s) => s.ms),
      elapsed,
    );
    const writeStats = {
      ...stats(writes.ms, elapsed),
      scheduled,
      /** Answers received inside the measured window (whenever scheduled), per second. */
      completedPerSecond: completedInWindow / elapsed,
      non2xx: writes.non2xx,
      errors: writes.errors,
      latestStartMs: lateMax,
      hotTenant: stats(hotWriteMs, elapsed),
      otherTenants: stats(otherWriteMs, elapsed),
    };
    const serviceCpuMs = cpu1 - cpu0;
    const requests = allSearch.requests + completedInWindow;
    const result = {
      options: {
        receipts,
        tenants,
        hotShare,
        writeHotShare,
        duration,
        warmup,
        clients,
        writeRate,
        pool,
      },
      node: process.version,
      hotTenantReceipts: hot,
      searches: searchStats,
      allSearches: allSearch,
      writes: writeStats,
      service: {
        peakRssMb: Math.max(hwm, rssPeak) / 1024,
        peakRssMbBeforeMeasuring: hwmBefore / 1024,
        cpuPercentOfOneCore: (serviceCpuMs / (elapsed * 1000)) * 100,
        cpuMsPerRequest: serviceCpuMs / Math.max(1, requests),
      },
      sessionsWaitingOnLocks: {
        mean: lockWaits.reduce((a, b) => a + b, 0) / Math.max(1, lockWaits.length),
        max: Math.max(0, ...lockWaits),
      },
      sessionActivity: [...activity.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 8)
        .map(([what, n]) => ({ what, meanSessions: n / Math.max(1, activitySamples) })),
      postgresCpuPercentOfOneCore: (pgCpuMs / (elapsed * 1000)) * 100,
      loadGeneratorCpuPercentOfOneCore:
        ((self1.user + self1.system) / 1000 / (elapsed * 1000)) * 100,
      machineCpuBusyPercent:
        ((machine1.busy - machine0.busy) / Math.max(1, machine1.total - machine0.total)) * 100,
    };

    const f = (n: number, d = 1) => n.toFixed(d);
    const lines = [
      `| search scenario | requests | req/s | p50 ms | p90 ms | p99 ms | max ms | non-2xx | errors | implausible | totalElements first -> last |`,
      '|---|---|---|---|---|---|---|---|---|---|---|',
      ...searchStats.map(
        (s) =>
          `| ${s.name} | ${s.requests} | ${f(s.perSecond)} | ${f(s.p50)} | ${f(s.p90)} | ${f(s.p99)} | ${f(s.max)} | ${s.non2xx} | ${s.errors} | ${s.invalid} | ${s.totalElements} |`,
      ),
      `| all searches | ${allSearch.requests} | ${f(allSearch.perSecond)} | ${f(allSearch.p50)} | ${f(allSearch.p90)} | ${f(allSearch.p99)} | ${f(allSearch.max)} | | | | |`,
    ];
    process.stdout.write(
      [
        '',
        `Mixed load, ${f(elapsed)} s measured after ${warmup} s warm-up: ${clients} search clients + receipts at ${writeRate}/s`,
        `(${hot + other * (tenants - 1)} receipts over ${tenants} tenants; hot tenant ${hot}; service: own process, NODE_ENV=production, LOG_LEVEL=${values['log-level']}, DB_POOL_SIZE=${pool}; node ${process.version})`,
        '',
        ...lines,
        '',
        `issue 9 targets: first page (hot tenant) p99 ${f(searchStats[0].p99)} ms (<= 100), small tenant first page p99 ${f(searchStats[3].p99)} ms (<= 100), peak RSS ${f(Math.max(hwm, rssPeak) / 1024, 0)} MB (<= 200)`,
        '',
        `writes (POST /receipts, open loop, latency from the scheduled time): ${writeStats.scheduled} scheduled in the window, ${writeStats.requests} of them answered (some after it); answers received inside the window: ${f(writeStats.completedPerSecond)}/s; p50 ${f(writeStats.p50)} ms, p99 ${f(writeStats.p99)} ms, max ${f(writeStats.max)} ms, non-2xx ${writeStats.non2xx}, errors ${writeStats.errors}; latest start ${f(lateMax)} ms after schedule`,
        `  hot tenant: ${writeStats.hotTenant.requests} = ${f(writeStats.hotTenant.perSecond)}/s, p50 ${f(writeStats.hotTenant.p50)} ms, p99 ${f(writeStats.hotTenant.p99)} ms; other tenants: ${writeStats.otherTenants.requests} = ${f(writeStats.otherTenants.perSecond)}/s, p50 ${f(writeStats.otherTenants.p50)} ms, p99 ${f(writeStats.otherTenants.p99)} ms`,
        `service: peak RSS ${f(result.service.peakRssMb, 0)} MB (target <= 200; ${f(result.service.peakRssMbBeforeMeasuring, 0)} MB at the end of the warm-up), CPU ${f(result.service.cpuPercentOfOneCore, 0)} % of one core = ${f(result.service.cpuMsPerRequest, 2)} ms per request (searches + writes)`,
        `PostgreSQL (all its processes): CPU ${f(result.postgresCpuPercentOfOneCore, 0)} % of one core; service sessions waiting on a lock (sampled each second): mean ${f(result.sessionsWaitingOnLocks.mean)}, max ${result.sessionsWaitingOnLocks.max};`,
        `load generator (this process) ${f(result.loadGeneratorCpuPercentOfOneCore, 0)} %; machine CPU busy (all processes, this load generator and anything else included): ${f(result.machineCpuBusyPercent, 0)} % of ${cpus().length} cores`,
        'service sessions in a transaction, commonest (wait | statement; Client:ClientRead = waiting for the service), mean per sample:',
        ...result.sessionActivity.map((a) => `  ${f(a.meanSessions)}  ${a.what}`),
        ...(firstErrors.length > 0 ? ['', 'first errors:', ...firstErrors] : []),
        '',
      ].join('\n'),
    );
    if (values.json) writeFileSync(values.json, `${JSON.stringify(result, null, 2)}\n`);
    const failures =
      writes.non2xx +
      writes.errors +
      samples.reduce((n, s) => n + s.non2xx + s.errors + s.invalid, 0);
    if (
      failures > 0 ||
      (clients > 0 && allSearch.requests === 0) ||
      (writeRate > 0 && writeStats.requests === 0)
    ) {
      process.stdout.write(`FAILED: ${failures} failed or implausible requests\n`);
      process.exitCode = 1;
    }
  } finally {
    if (service && service.exitCode === null) {
      service.kill('SIGTERM');
      await new Promise((resolve) => service?.once('exit', resolve));
    }
    await env.stop();
  }
}

runBench(main);
