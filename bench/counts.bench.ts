/**
 * Cold exact counts on the hot tenant, before and after the count indexes, through the real
 * service (HTTP, JWT, RLS, tenant transaction), 1 client, p50 of --requests searches each:
 *
 * - "after a write": a receipt is recorded on the tenant (POST /receipts) before each search;
 *   before = the old protocol (every write made every count a full recount, forced here with
 *   reset_version), after = the cached count plus the receipts inserted since;
 * - "never counted": each search asks a date range no search asked before (a full count);
 * - "after a cancel": status-filtered counts after POST /receipts/{id}/cancel (a full count).
 *
 * Then EXPLAIN (ANALYZE, BUFFERS) of the count statements, as the application login with RLS on
 * and app.tenant_id set in a transaction. Run: npm run bench:counts [-- --help]
 */
import { parseArgs } from 'node:util';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { countDependencies, incrementalCountSql } from '@/receipts/search/exact-counts';
import { compileSearch } from '@/receipts/search/receipt-search.sql';
import { RECEIPT_SEARCH } from '@/receipts/search/search-fields';
import { parseSearchRequest } from '@/search/search-request';
import { CountIndexes1764200000001 } from '../migrations/1764200000001-CountIndexes';
import { runBench, startBenchEnvironment } from './bench-support';
import { loadSpread, spreadReceipts } from './receipt-data';

const HELP = `npm run bench:counts [-- options]

  --receipts N     receipts in total                     (default 200000)
  --tenants T      tenants they are spread over          (default 10)
  --hot-share F    share of N on the first ("hot") tenant (default 0.4)
  --requests R     searches per scenario (p50 over them)  (default 25)
  --help           this text

The issue's data set is --receipts 1000000 --tenants 50 --hot-share 0.4.
`;

type Filter = { field: string; query: string; type: string };

const DATE_MODE: Filter[] = [
  { field: 'paymentMode', query: 'NEFT,RTGS,UPI', type: 'IN' },
  { field: 'receivedDate', query: '2025-06-01,2025-08-31', type: 'BETWEEN' },
];
const ACTIVE_IN_RANGE: Filter[] = [
  { field: 'status', query: 'ACTIVE', type: 'EQUALS' },
  { field: 'receivedDate', query: '2025-06-01,2025-08-31', type: 'BETWEEN' },
];

/** A 92-day window starting `days` after 2025-04-01 (the generated data spans 540 days). */
function window(days: number): string {
  const from = new Date(Date.UTC(2025, 3, 1 + days));
  const to = new Date(from.getTime() + 91 * 86_400_000);
  return `${from.toISOString().slice(0, 10)},${to.toISOString().slice(0, 10)}`;
}

const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      receipts: { type: 'string', default: '200000' },
      tenants: { type: 'string', default: '10' },
      'hot-share': { type: 'string', default: '0.4' },
      requests: { type: 'string', default: '25' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(HELP);
    return;
  }
  const receipts = Number(values.receipts);
  const tenants = Number(values.tenants);
  const requests = Number(values.requests);
  const { hot, other } = spreadReceipts(receipts, tenants, Number(values['hot-share']));

  const env = await startBenchEnvironment();
  const app = new Client({ connectionString: env.appUrl });
  const ds = new DataSource({ type: 'postgres', url: env.ownerUrl, extra: { max: 1 } });
  try {
    const created: { id: string; key: string }[] = [];
    for (let i = 0; i < tenants; i++) created.push(await env.createTenant(`t${i}`, `Bench ${i}`));
    await loadSpread(
      env.owner,
      created.map((t) => t.id),
      { hot, other },
    );
    const tenant = created[0];
    const headers = env.headers(tenant.key);
    const [{ id: splitId }] = (
      await env.owner.query<{ id: string }>(
        `SELECT id FROM demand_splits WHERE tenant_id = $1 ORDER BY id LIMIT 1`,
        [tenant.id],
      )
    ).rows;
    await app.connect();
    await ds.initialize();

    const post = async (path: string, body: unknown) => {
      const res = await fetch(`${env.baseUrl}${path}`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
      });
      const text = await res.text();
      if (res.status >= 300) throw new Error(`${path}: ${res.status} ${text}`);
      return JSON.parse(text) as { id: string; totalElements: number };
    };
    /** Durations of POST /receipts in the current phase (what the indexes cost a write). */
    let writes: number[] = [];
    const record = async () => {
      const start = performance.now();
      const receipt = await post('/receipts', {
        demandSplit: splitId,
        amount: 10,
        paymentMode: 'NEFT',
        transactionRef: 'UTR-BENCH',
        receivedDate: '2025-07-15',
      });
      writes.push(performance.now() - start);
      return receipt;
    };
    const search = (filters: Filter[]) => post('/receipts/search?size=20', filters);
    /** p50 ms of `requests` searches, `before` run (untimed) ahead of each. */
    const measure = async (filters: (i: number) => Filter[], before: () => Promise<unknown>) => {
      const times: number[] = [];
      await search(filters(-1));
      for (let i = 0; i < requests; i++) {
        await before();
        const start = performance.now();
        await search(filters(i));
        times.push(performance.now() - start);
      }
      return p50(times);
    };
    const forceRecount = () =>
      env.owner.query(
        `UPDATE receipt_search_versions SET version = version + 1, reset_version = version + 1
          WHERE tenant_id = $1`,
        [tenant.id],
      );
    const nothing = () => Promise.resolve();
    let offset = 0;
    const fresh = (base: Filter[]) => (i: number) =>
      i < 0 ? base : [base[0], { ...base[1], query: window((offset + i) % 440) }];

    const explain = async (title: string, sql: string, params: unknown[]) => {
      await app.query('BEGIN');
      try {
        await app.query(`SELECT set_config('app.tenant_id', $1, true)`, [tenant.id]);
        await app.query(sql, params); // warm
        const { rows } = await app.query<{ 'QUERY PLAN': string }>(
          `EXPLAIN (ANALYZE, BUFFERS) ${sql}`,
          params,
        );
        process.stdout.write(
          `\n-- ${title}\n${sql}\n${rows.map((r) => r['QUERY PLAN']).join('\n')}\n`,
        );
      } finally {
        await app.query('COMMIT');
      }
    };
    /** p50 ms of one count statement as the application login (RLS on), `prepare` untimed. */
    const sqlP50 = async (
      filters: (i: number) => Filter[],
      prepare: () => Promise<string | null>,
      incremental: boolean,
    ) => {
      const times: number[] = [];
      for (let i = 0; i < requests; i++) {
        const f = filters(i);
        const sql = compiled(f);
        const cachedAt = await prepare();
        const text = incremental
          ? incrementalCountSql(sql, countDependencies(parseSearchRequest(RECEIPT_SEARCH, {}, f)))
          : sql.countSql;
        const params = incremental ? [...sql.countParams, cachedAt ?? '-1'] : sql.countParams;
        await app.query('BEGIN');
        await app.query(`SELECT set_config('app.tenant_id', $1, true)`, [tenant.id]);
        const start = performance.now();
        await app.query(text, params);
        times.push(performance.now() - start);
        await app.query('COMMIT');
      }
      return p50(times);
    };
    const versionNow = async () =>
      (
        await env.owner.query<{ version: string }>(
          `SELECT version::text AS version FROM receipt_search_versions WHERE tenant_id = $1`,
          [tenant.id],
        )
      ).rows[0].version;
    const writeThenVersionBefore = async () => {
      const version = await versionNow();
      await record();
      return version;
    };
    const sqlRun = async (incremental: boolean) => {
      const full = () => Promise.resolve(null);
      offset += 2 * requests;
      return [
        incremental
          ? await sqlP50(() => DATE_MODE, writeThenVersionBefore, true)
          : await sqlP50(() => DATE_MODE, full, false),
        await sqlP50(fresh(DATE_MODE), full, false),
        incremental
          ? await sqlP50(() => [], writeThenVersionBefore, true)
          : await sqlP50(() => [], full, false),
      ];
    };
    const sqlNames = [
      'date range + mode IN, after a write',
      'date range + mode IN, never counted',
      'unfiltered, after a write',
    ];
    const compiled = (filters: Filter[]) =>
      compileSearch(parseSearchRequest(RECEIPT_SEARCH, {}, filters), tenant.id);
    const explainAll = async (phase: string, incremental: boolean) => {
      for (const [name, filters] of [
        ['date range + paymentMode IN', DATE_MODE],
        ['status = ACTIVE + date range', ACTIVE_IN_RANGE],
        ['unfiltered', []],
      ] as const) {
        const sql = compiled([...filters]);
        if (name !== 'unfiltered') {
          await explain(`${phase}: page ids, ${name}`, sql.idsSql, sql.idsParams);
        }
        await explain(`${phase}: full count, ${name}`, sql.countSql, sql.countParams);
        if (incremental) {
          const [{ version }] = (
            await env.owner.query<{ version: string }>(
              `SELECT version::text AS version FROM receipt_search_versions WHERE tenant_id = $1`,
              [tenant.id],
            )
          ).rows;
          await record();
          await explain(
            `${phase}: incremental count one write later (cached at version ${version}), ${name}`,
            incrementalCountSql(
              sql,
              countDependencies(parseSearchRequest(RECEIPT_SEARCH, {}, [...filters])),
            ),
            [...sql.countParams, version],
          );
        }
      }
    };

    const results: [string, number, number][] = [];
    const run = async () => {
      const rows: number[] = [];
      rows.push(await measure(() => DATE_MODE, record));
      offset += 2 * requests;
      rows.push(await measure(fresh(DATE_MODE), nothing));
      rows.push(await measure(() => [], record));
      let last = '';
      rows.push(
        await measure(
          () => ACTIVE_IN_RANGE,
          async () => {
            if (last) await post(`/receipts/${last}/cancel`, { reason: 'bench' });
            last = (await record()).id;
          },
        ),
      );
      offset += 2 * requests;
      rows.push(await measure(fresh(ACTIVE_IN_RANGE), nothing));
      return rows;
    };
    const names = [
      'date range + mode IN, after a write',
      'date range + mode IN, never counted',
      'unfiltered, after a write',
      'status ACTIVE + date range, after a cancel',
      'status ACTIVE + date range, never counted',
    ];

    // Before: the previous indexes, and every write forcing every count to be recounted.
    const runner = ds.createQueryRunner();
    await new CountIndexes1764200000001().down(runner);
    await env.owner.query('VACUUM ANALYZE receipts');
    await explainAll('before', false);
    const sqlBefore = await sqlRun(false);
    const before = await (async () => {
      const rows: number[] = [];
      rows.push(
        await measure(
          () => DATE_MODE,
          async () => {
            await record();
            await forceRecount();
          },
        ),
      );
      offset += 2 * requests;
      rows.push(await measure(fresh(DATE_MODE), nothing));
      rows.push(
        await measure(
          () => [],
          async () => {
            await record();
            await forceRecount();
          },
        ),
      );
      rows.push(
        await measure(
          () => ACTIVE_IN_RANGE,
          async () => {
            await record();
            await forceRecount();
          },
        ),
      );
      offset += 2 * requests;
      rows.push(await measure(fresh(ACTIVE_IN_RANGE), nothing));
      return rows;
    })();

    const writesBefore = writes;
    writes = [];
    // After: this change's indexes and incremental counts.
    await new CountIndexes1764200000001().up(runner);
    await runner.release();
    await env.owner.query('VACUUM ANALYZE receipts');
    await explainAll('after', true);
    const sqlAfter = await sqlRun(true);
    const after = await run();
    names.forEach((name, i) => results.push([name, before[i], after[i]]));
    results.push([
      `POST /receipts (${writesBefore.length} / ${writes.length} writes)`,
      p50(writesBefore),
      p50(writes),
    ]);

    process.stdout.write(
      `\nHot tenant ${hot} receipts, 1 client, p50 of ${requests} searches (page 0, size 20, total included), ms\n`,
    );
    process.stdout.write(`| scenario | before | after |\n|---|---|---|\n`);
    for (const [name, b, a] of results) {
      process.stdout.write(`| ${name} | ${b.toFixed(1)} | ${a.toFixed(1)} |\n`);
    }
    process.stdout.write(
      `\nThe count statement alone (finance_app, RLS on, tenant set), p50 of ${requests}, ms\n` +
        `(before: the count SQL the old protocol ran after any write; after: the statement ExactCounts runs)\n`,
    );
    process.stdout.write(`| scenario | before | after |\n|---|---|---|\n`);
    sqlNames.forEach((name, i) =>
      process.stdout.write(
        `| ${name} | ${sqlBefore[i].toFixed(2)} | ${sqlAfter[i].toFixed(2)} |\n`,
      ),
    );
  } finally {
    await app.end().catch(() => undefined);
    if (ds.isInitialized) await ds.destroy();
    await env.stop();
  }
}

runBench(main);
