/**
 * The service against a bare floor (bench/floor-server.ts: node:http + pg, the service's own
 * search SQL builders and view mapper, no framework) on the same data in one run, in
 * interleaved rounds (service, floor, service, floor ...). Prints per scenario req/s, p50, p99
 * for both, the service/floor ratio (median of the per-round ratios) and each server's own CPU
 * milliseconds per request. Run: npm run bench:floor [-- --help]
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { isDeepStrictEqual, parseArgs } from 'node:util';
import { AppConfig } from '@/common/config/app-config';
import { runBench, startBenchEnvironment } from './bench-support';
import { startFloor } from './floor-server';
import { bulkLoad, generateReceipts } from './receipt-data';

const HELP = `npm run bench:floor [-- options]

  --receipts N     receipts in total                     (default 200000)
  --tenants T      tenants they are spread over          (default 10)
  --hot-share F    share of N on the first ("hot") tenant (default 0.4; the rest split evenly)
  --rounds R       interleaved rounds, at least 3        (default 3)
  --duration S     seconds per load run                  (default 5)
  --connections L  comma-separated client counts for the count-cached scenarios (default 1,16)
  --help           this text

The issue's data set is --receipts 1000000 --tenants 50 --hot-share 0.4.
Scenarios run on the hot tenant. "count cold": before every request the load client moves the
tenant's reset_version, so the exact count is a full recount (as for a filter never counted
before; after a real write the service only adds the receipts inserted since).
CPU ms/request: process.cpuUsage() of this process (which hosts both servers; only one is
under load at a time) over each load run, divided by the requests completed. The load
generator (autocannon, or the cold-count loop) runs in a child process and is not counted.
`;

interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
}

interface Measured extends LoadResult {
  cpuMsPerRequest: number;
}

function load(options: Record<string, unknown>): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [join(__dirname, 'floor-load.js'), JSON.stringify(options)],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(out) as LoadResult)
        : reject(new Error(`load exited ${code}`)),
    );
  });
}

async function measure(options: Record<string, unknown>): Promise<Measured> {
  const before = process.cpuUsage();
  const result = await load(options);
  const used = process.cpuUsage(before);
  return {
    ...result,
    cpuMsPerRequest: (used.user + used.system) / 1000 / Math.max(1, result.requests),
  };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** The first path where two parsed JSON values differ, for a readable mismatch report. */
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

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      receipts: { type: 'string', default: '200000' },
      tenants: { type: 'string', default: '10' },
      'hot-share': { type: 'string', default: '0.4' },
      rounds: { type: 'string', default: '3' },
      duration: { type: 'string', default: '5' },
      connections: { type: 'string', default: '1,16' },
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
  const connections = values.connections.split(',').map(Number);
  if (
    ![receipts, tenants, hotShare, rounds, duration].every(Number.isFinite) ||
    tenants < 1 ||
    hotShare <= 0 ||
    hotShare > 1 ||
    rounds < 1 ||
    connections.some((c) => !Number.isInteger(c) || c < 1)
  ) {
    throw new Error(`invalid options\n\n${HELP}`);
  }
  const hot = tenants === 1 ? receipts : Math.round(receipts * hotShare);
  const other = tenants === 1 ? 0 : Math.floor((receipts - hot) / (tenants - 1));

  const env = await startBenchEnvironment();
  try {
    const created: { id: string; key: string }[] = [];
    for (let i = 0; i < tenants; i++) {
      created.push(await env.createTenant(`t${i}`, `Bench Realty ${i}`));
    }
    const started = Date.now();
    await bulkLoad(env.owner, async () => {
      for (const [i, t] of created.entries()) {
        await generateReceipts(env.owner, t.id, i === 0 ? hot : other);
      }
    });
    process.stdout.write(
      `Generated ${hot + other * (tenants - 1)} receipts over ${tenants} tenants (hot tenant ${hot}, others ${other} each) in ${((Date.now() - started) / 1000).toFixed(0)} s\n`,
    );

    const config = env.app.get(AppConfig);
    const floor = await startFloor({
      appUrl: env.appUrl,
      poolSize: 40, // as the service's DB_POOL_SIZE in bench-support
      lockTimeoutMs: config.dbLockTimeoutMs,
      statementTimeoutMs: config.dbStatementTimeoutMs,
    });
    try {
      const tenant = created[0];
      const headers = env.headers(tenant.key);
      const targets = { service: env.baseUrl, floor: floor.url };
      const modeAndDate = JSON.stringify([
        { field: 'paymentMode', type: 'IN', query: 'NEFT,RTGS,UPI' },
        { field: 'receivedDate', type: 'BETWEEN', query: '2025-06-01,2025-08-31' },
      ]);
      const scenarios: { name: string; body: string; cold: boolean; connections: number }[] = [];
      for (const [label, body] of [
        ['first page, default sort', '[]'],
        ['mode IN + date BETWEEN', modeAndDate],
      ]) {
        for (const c of connections) {
          scenarios.push({ name: `${label}, count cached`, body, cold: false, connections: c });
        }
        scenarios.push({ name: `${label}, count cold`, body, cold: true, connections: 1 });
      }

      // Same bodies: one request each per scenario, parsed JSON deep-equal.
      let mismatches = 0;
      for (const body of new Set(scenarios.map((s) => s.body))) {
        const get = async (base: string) => {
          const res = await fetch(`${base}/receipts/search?size=20`, {
            method: 'POST',
            headers,
            body,
          });
          const text = await res.text();
          if (res.status !== 200) throw new Error(`${base}: ${res.status} ${text}`);
          return JSON.parse(text) as unknown;
        };
        const [s, f] = [await get(targets.service), await get(targets.floor)];
        const diff = firstDifference(s, f);
        if (diff) mismatches++;
        process.stdout.write(
          diff
            ? `BODY MISMATCH for ${body}: ${diff}\n`
            : `Same body from service and floor for ${body} (totalElements ${(s as { totalElements: number }).totalElements})\n`,
        );
      }

      const results = new Map<string, { service: Measured[]; floor: Measured[] }>();
      for (let round = 1; round <= rounds; round++) {
        process.stdout.write(`Round ${round}/${rounds}...\n`);
        for (const sc of scenarios) {
          const key = `${sc.name}|${sc.connections}`;
          const entry = results.get(key) ?? { service: [], floor: [] };
          results.set(key, entry);
          for (const target of ['service', 'floor'] as const) {
            entry[target].push(
              await measure({
                url: `${targets[target]}/receipts/search?size=20`,
                headers,
                body: sc.body,
                connections: sc.connections,
                duration,
                cold: sc.cold,
                ownerUrl: env.ownerUrl,
                tenantId: tenant.id,
              }),
            );
          }
        }
      }

      const lines = [
        `| scenario (hot tenant, ${hot} receipts) | clients | service req/s | service p50 / p99 ms | floor req/s | floor p50 / p99 ms | service / floor | service CPU ms/req | floor CPU ms/req |`,
        '|---|---|---|---|---|---|---|---|---|',
      ];
      let non2xx = 0;
      for (const sc of scenarios) {
        const { service, floor: fl } = results.get(`${sc.name}|${sc.connections}`)!;
        non2xx += [...service, ...fl].reduce((n, r) => n + r.non2xx, 0);
        const m = (rs: Measured[], f: (r: Measured) => number) => median(rs.map(f));
        const ratio = median(service.map((s, i) => s.rps / fl[i].rps));
        lines.push(
          `| ${sc.name} | ${sc.connections} | ${m(service, (r) => r.rps).toFixed(0)} | ${m(service, (r) => r.p50).toFixed(1)} / ${m(service, (r) => r.p99).toFixed(1)} | ${m(fl, (r) => r.rps).toFixed(0)} | ${m(fl, (r) => r.p50).toFixed(1)} / ${m(fl, (r) => r.p99).toFixed(1)} | ${ratio.toFixed(2)} | ${m(service, (r) => r.cpuMsPerRequest).toFixed(2)} | ${m(fl, (r) => r.cpuMsPerRequest).toFixed(2)} |`,
        );
      }
      process.stdout.write(
        `\nService vs bare floor, POST /receipts/search?size=20, medians of ${rounds} interleaved rounds of ${duration} s each\n` +
          `(${receipts} receipts over ${tenants} tenants; hot tenant ${hot}; node ${process.version})\n\n` +
          `${lines.join('\n')}\n\n` +
          `non-2xx responses: ${non2xx}; body mismatches: ${mismatches}\n`,
      );
      if (mismatches > 0 || non2xx > 0) process.exitCode = 1;
    } finally {
      await floor.close();
    }
  } finally {
    await env.stop();
  }
}

runBench(main);
