/**
 * Receipt search at scale: the service's deferred-join search (through real HTTP, with RLS and
 * the tenant transaction) against the naive plain-join + count-through-joins query run directly
 * in PostgreSQL, on the same data in the same run. Run: npm run bench:search [-- --receipts 300000]
 */
import { parseArgs } from 'node:util';
import { Client } from 'pg';
import { fmt, runAutocannon, runBench, startBenchEnvironment, timeIt } from './bench-support';
import { generateReceipts } from './receipt-data';

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { receipts: { type: 'string', default: '300000' } } });
  const receipts = Number(values.receipts);
  const env = await startBenchEnvironment();
  try {
    const tenant = await env.createTenant('bench');
    const noise = await env.createTenant('noise', 'Other Realty');
    const started = Date.now();
    // Bulk load the usual way: drop the GIN (trigram) indexes, load, re-create them as defined.
    const gin = (
      await env.owner.query(
        `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' AND indexdef LIKE '%USING gin%'`,
      )
    ).rows as { indexname: string; indexdef: string }[];
    for (const index of gin) await env.owner.query(`DROP INDEX ${index.indexname}`);
    await generateReceipts(env.owner, tenant.id, receipts);
    await generateReceipts(env.owner, noise.id, Math.ceil(receipts / 3));
    await env.owner.query(`SET maintenance_work_mem = '512MB'`);
    for (const index of gin) await env.owner.query(index.indexdef);
    await env.owner.query('VACUUM ANALYZE');
    process.stdout.write(
      `Generated ${receipts} + ${Math.ceil(receipts / 3)} receipts in ${((Date.now() - started) / 1000).toFixed(0)} s\n`,
    );

    const headers = env.headers(tenant.key);
    // `afterWrite`: move the tenant's reset_version first, so the exact count is a full recount
    // (as for a filter never counted before; a real write only adds the receipts it inserted).
    const bumpVersion = () =>
      env.owner.query(
        `INSERT INTO receipt_search_versions AS v (tenant_id, version, reset_version) VALUES ($1, 1, 1)
         ON CONFLICT (tenant_id) DO UPDATE SET version = v.version + 1, reset_version = v.version + 1`,
        [tenant.id],
      );
    const viaService =
      (page: number, size: number, filters: unknown[] = [], afterWrite = true) =>
      async () => {
        if (afterWrite) await bumpVersion();
        const res = await fetch(`${env.baseUrl}/receipts/search?page=${page}&size=${size}`, {
          method: 'POST',
          headers,
          body: JSON.stringify(filters),
        });
        if (res.status !== 200) throw new Error(`search: ${res.status} ${await res.text()}`);
        await res.json();
      };

    // Baseline: what a straightforward ORM query does - join all three tables, OFFSET, and count through the joins.
    const app = new Client({ connectionString: env.appUrl });
    await app.connect();
    const naive =
      (offset: number, size: number, where = '') =>
      async () => {
        await app.query('BEGIN');
        await app.query(`SELECT set_config('app.tenant_id', $1, true)`, [tenant.id]);
        const from = `FROM receipts r JOIN demand_splits s ON s.tenant_id = r.tenant_id AND s.id = r.demand_split_id
                    JOIN demands d ON d.tenant_id = r.tenant_id AND d.id = r.demand_id WHERE r.tenant_id = $1 ${where}`;
        await app.query(
          `SELECT r.*, s.*, d.* ${from} ORDER BY r.received_date DESC, r.receipt_number DESC, r.id DESC LIMIT ${size} OFFSET ${offset}`,
          [tenant.id],
        );
        await app.query(`SELECT count(*) ${from}`, [tenant.id]);
        await app.query('COMMIT');
      };

    const buyer = [{ field: 'buyerName', query: 'iyer', type: 'CONTAINS' }];
    const cases: [string, () => Promise<void>, () => Promise<void>][] = [
      ['page 0, size 20', viaService(0, 20), naive(0, 20)],
      ['page 0, repeated', viaService(0, 20, [], false), naive(0, 20)],
      ['page 0, size 100', viaService(0, 100), naive(0, 100)],
      ['offset 10,000', viaService(500, 20), naive(10_000, 20)],
      ...(receipts >= 150_000
        ? [
            ['offset 100,000', viaService(5000, 20), naive(100_000, 20)] as [
              string,
              () => Promise<void>,
              () => Promise<void>,
            ],
          ]
        : []),
      [
        'buyerName CONTAINS',
        viaService(0, 20, buyer),
        naive(0, 20, `AND d.buyer_name ILIKE '%iyer%'`),
      ],
    ];
    const lines = [
      `${'query'.padEnd(22)} ${'service ms'.padStart(11)} ${'naive ms'.padStart(11)} ${'naive/service'.padStart(14)}`,
    ];
    for (const [name, service, baseline] of cases) {
      const s = await timeIt(7, service);
      const b = await timeIt(5, baseline);
      lines.push(
        `${name.padEnd(22)} ${fmt(s.median, 1)}   ${fmt(b.median, 1)}   ${(b.median / s.median).toFixed(1).padStart(11)}x`,
      );
    }
    await app.end();

    const load = await runAutocannon({
      url: `${env.baseUrl}/receipts/search?size=20`,
      method: 'POST',
      headers,
      body: '[]',
      connections: 16,
      duration: 10,
    });
    lines.push(
      '',
      `Throughput, first page, 16 connections, 10 s, no writes meanwhile (count cached): ${load.requests.average.toFixed(0)} req/s, p50 ${load.latency.p50} ms, p99 ${load.latency.p99} ms, non-2xx ${load.non2xx}`,
    );
    process.stdout.write(
      `\nReceipt search, tenant with ${receipts} receipts (median of 7 / 5 warm runs; service times include HTTP, auth, the tenant transaction and, except "repeated", a write-version bump that makes the count uncached)\n${lines.join('\n')}\n\n`,
    );
  } finally {
    await env.stop();
  }
}

runBench(main);
