/**
 * Keyword search (`keyword CONTAINS x`) on the hot tenant: EXPLAIN (ANALYZE, BUFFERS) of the
 * service's page-ids query and count query, run as the application login with RLS on and the
 * tenant set in a transaction (as the service does), then the service under load with a cold
 * count (the tenant's receipt write version bumped before every request).
 * Run: npm run bench:keyword [-- --help]
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from 'pg';
import { compileSearch } from '@/receipts/search/receipt-search.sql';
import { RECEIPT_SEARCH } from '@/receipts/search/search-fields';
import { parseSearchRequest } from '@/search/search-request';
import { runBench, startBenchEnvironment } from './bench-support';
import type { LoadResult } from './floor-load';
import { loadSpread, spreadReceipts } from './receipt-data';

const HELP = `npm run bench:keyword [-- options]

  --receipts N     receipts in total                      (default 200000)
  --tenants T      tenants they are spread over           (default 10)
  --hot-share F    share of N on the first ("hot") tenant (default 0.4; the rest split evenly)
  --keywords L     comma-separated keywords               (default iyer,RCT/00012,UTR12,2,%)
  --duration S     seconds per load run                   (default 10)
  --connections L  comma-separated client counts          (default 1,16)
  --no-explain     skip the EXPLAIN output
  --keep           after the run, keep the database up and print its URLs (Ctrl-C to stop)
  --help           this text

The issue's data set is --receipts 1000000 --tenants 50 --hot-share 0.4. Buyer names cycle
over ten surnames, so "iyer" matches a tenth of the receipts (40,000 of 400,000).
`;

/** The cold-count loop of bench/floor-load.ts, in a child process (its CPU not counted here). */
function load(options: Record<string, unknown>): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [join(__dirname, 'floor-load.js'), JSON.stringify(options)],
      { stdio: ['ignore', 'pipe', 'inherit'] },
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

/** EXPLAIN (ANALYZE, BUFFERS) as the application login, tenant set for the transaction. */
async function explain(appUrl: string, tenantId: string, sql: string, params: unknown[]) {
  const app = new Client({ connectionString: appUrl });
  await app.connect();
  try {
    await app.query('BEGIN');
    await app.query(`SELECT set_config('app.tenant_id', $1, true)`, [tenantId]);
    const { rows } = await app.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN (ANALYZE, BUFFERS) ${sql}`,
      params,
    );
    await app.query('COMMIT');
    return rows.map((r) => r['QUERY PLAN']).join('\n');
  } finally {
    await app.end();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      receipts: { type: 'string', default: '200000' },
      tenants: { type: 'string', default: '10' },
      'hot-share': { type: 'string', default: '0.4' },
      keywords: { type: 'string', default: 'iyer,RCT/00012,UTR12,2,%' },
      duration: { type: 'string', default: '10' },
      connections: { type: 'string', default: '1,16' },
      'no-explain': { type: 'boolean', default: false },
      keep: { type: 'boolean', default: false },
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
  const duration = Number(values.duration);
  const connections = values.connections.split(',').map(Number);
  const keywords = values.keywords.split(',').filter((k) => k.length > 0);
  if (
    ![receipts, tenants, hotShare, duration].every(Number.isFinite) ||
    tenants < 1 ||
    hotShare <= 0 ||
    hotShare > 1 ||
    connections.some((c) => !Number.isInteger(c) || c < 1)
  ) {
    throw new Error(`invalid options\n\n${HELP}`);
  }
  const { hot, other } = spreadReceipts(receipts, tenants, hotShare);

  const env = await startBenchEnvironment();
  try {
    const created: { id: string; key: string }[] = [];
    for (let i = 0; i < tenants; i++) {
      created.push(await env.createTenant(`t${i}`, `Bench Realty ${i}`));
    }
    await loadSpread(
      env.owner,
      created.map((t) => t.id),
      { hot, other },
    );
    const tenant = created[0];
    const headers = env.headers(tenant.key);

    if (!values['no-explain']) {
      for (const keyword of keywords) {
        const parsed = parseSearchRequest(RECEIPT_SEARCH, { size: '20' }, [
          { field: 'keyword', type: 'CONTAINS', query: keyword },
        ]);
        const sql = compileSearch(parsed, tenant.id);
        process.stdout.write(
          `\n=== keyword ${JSON.stringify(keyword)}: page ids\n${sql.idsSql}\n\n` +
            `${await explain(env.appUrl, tenant.id, sql.idsSql, sql.idsParams)}\n` +
            `\n=== keyword ${JSON.stringify(keyword)}: count\n${sql.countSql}\n\n` +
            `${await explain(env.appUrl, tenant.id, sql.countSql, sql.countParams)}\n`,
        );
      }
    }

    const lines = [
      `| keyword | clients | matches | req/s | p50 ms | p99 ms |`,
      '|---|---|---|---|---|---|',
    ];
    for (const keyword of keywords) {
      const body = JSON.stringify([{ field: 'keyword', type: 'CONTAINS', query: keyword }]);
      const url = `${env.baseUrl}/receipts/search?size=20`;
      const first = await fetch(url, { method: 'POST', headers, body });
      if (first.status !== 200) throw new Error(`search: ${first.status} ${await first.text()}`);
      const { totalElements } = (await first.json()) as { totalElements: number };
      for (const c of connections) {
        const r = await load({
          url,
          headers,
          body,
          connections: c,
          duration,
          cold: true,
          ownerUrl: env.ownerUrl,
          tenantId: tenant.id,
        });
        if (r.non2xx > 0) process.exitCode = 1;
        lines.push(
          `| ${keyword} | ${c} | ${totalElements} | ${r.rps.toFixed(1)} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} |`,
        );
      }
    }
    process.stdout.write(
      `\nKeyword search, count cold (version bumped before every request), POST /receipts/search?size=20, ${duration} s per run\n` +
        `(${hot + other * (tenants - 1)} receipts over ${tenants} tenants; hot tenant ${hot}; node ${process.version})\n\n` +
        `${lines.join('\n')}\n`,
    );

    if (values.keep) {
      process.stdout.write(
        `\nKept running. owner: ${env.ownerUrl}\napp:   ${env.appUrl}\nhot tenant: ${tenant.id}\nservice: ${env.baseUrl}\n`,
      );
      await new Promise<void>((resolve) => process.once('SIGINT', () => resolve()));
    }
  } finally {
    await env.stop();
  }
}

runBench(main);
