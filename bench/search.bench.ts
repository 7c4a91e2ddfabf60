/**
 * Receipt search at scale: the service's deferred-join search (through real HTTP, with RLS and
 * the tenant transaction) against the naive plain-join + count-through-joins query run directly
 * in PostgreSQL, on the same data in the same run. Run: npm run bench:search [-- --receipts 300000]
 */
import { parseArgs } from 'node:util';
import { Client } from 'pg';
import { ClsService } from 'nestjs-cls';
import { PAYMENT_MODES } from '@/common/domain/enums';
import { FIRST_NAMES, LAST_NAMES } from '@/seed/indian-names';
import { TenantProvisioningService } from '@/tenants/tenant-provisioning.service';
import { fmt, runAutocannon, runBench, startBenchEnvironment, timeIt } from './bench-support';

/** Set-based generation: bookings -> 5 demands each -> 2 splits each -> receipts spread over splits. */
async function generate(owner: Client, tenantId: string, receipts: number): Promise<void> {
  const bookings = Math.max(10, Math.ceil(receipts / 40));
  await owner.query(
    `INSERT INTO bookings (tenant_id, booking_number, unit_id, buyer_name, booking_date, created_by)
     SELECT $1, 'BKG/' || g, gen_random_uuid(),
            ($2::text[])[1 + g % 10] || ' ' || ($3::text[])[1 + (g / 10) % 10], date '2025-01-01' + g % 500, 'bench'
       FROM generate_series(1, $4::int) g`,
    [tenantId, FIRST_NAMES.slice(0, 10), LAST_NAMES.slice(0, 10), bookings],
  );
  await owner.query(
    `INSERT INTO demands (tenant_id, booking_id, unit_id, buyer_name, milestone_id, demand_type, demand_number,
                          total_amount, due_date, demand_date, remarks, status, created_by)
     SELECT b.tenant_id, b.id, b.unit_id, b.buyer_name, CASE WHEN k > 1 THEN gen_random_uuid() END,
            CASE WHEN k > 1 THEN 'MILESTONE' ELSE 'MANUAL' END, b.booking_number || '/D' || k,
            20000000, b.booking_date + k * 30, b.booking_date + k * 20, 'bench', 'PARTIALLY_PAID', 'bench'
       FROM bookings b CROSS JOIN generate_series(1, 5) k WHERE b.tenant_id = $1`,
    [tenantId],
  );
  await owner.query(
    `INSERT INTO demand_splits (tenant_id, demand_id, payer_type, payer_id, demand_split_number, amount, status)
     SELECT d.tenant_id, d.id, CASE WHEN k = 1 THEN 'BUYER' ELSE 'BANK' END, gen_random_uuid(),
            d.demand_number || '/S' || k, 10000000, 'PARTIALLY_PAID'
       FROM demands d CROSS JOIN generate_series(1, 2) k WHERE d.tenant_id = $1`,
    [tenantId],
  );
  // The split count as a constant keeps the join below a hash join (an expression over both
  // sides would be a nested loop: receipts x splits).
  const splits = Number(
    (
      (
        await owner.query('SELECT count(*) AS n FROM demand_splits WHERE tenant_id = $1', [
          tenantId,
        ])
      ).rows as { n: string }[]
    )[0].n,
  );
  await owner.query(
    `WITH s AS (
       SELECT s.id, s.demand_id, d.booking_id, s.payer_type, row_number() OVER (ORDER BY s.id) AS rn
         FROM demand_splits s JOIN demands d ON d.tenant_id = s.tenant_id AND d.id = s.demand_id
        WHERE s.tenant_id = $1)
     INSERT INTO receipts (tenant_id, demand_split_id, demand_id, booking_id, payer_type, receipt_number, amount,
                           payment_mode, transaction_ref, received_date, status, created_by)
     SELECT $1, s.id, s.demand_id, s.booking_id, s.payer_type, 'RCT/' || lpad(g::text, 7, '0'),
            1000 + (g * 7919) % 5000000 / 100.0, ($2::text[])[(1 + g % 10)::int], 'UTR' || (g * 104729),
            date '2025-04-01' + ((g * 31) % 540)::int,
            CASE WHEN g % 37 = 0 THEN 'CANCELLED' ELSE 'ACTIVE' END, 'bench'
       FROM generate_series(1::bigint, $3::bigint) g JOIN s ON s.rn = 1 + (g * 7) % $4::bigint`,
    [tenantId, PAYMENT_MODES, receipts, splits],
  );
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { receipts: { type: 'string', default: '300000' } } });
  const receipts = Number(values.receipts);
  const env = await startBenchEnvironment();
  try {
    const provisioning = env.app.get(TenantProvisioningService);
    const cls = env.app.get(ClsService);
    const tenant = await cls.run(() => provisioning.create({ key: 'bench', name: 'Bench Realty' }));
    const noise = await cls.run(() => provisioning.create({ key: 'noise', name: 'Other Realty' }));
    const started = Date.now();
    // Bulk load the usual way: drop the GIN (trigram) indexes, load, re-create them as defined.
    const gin = (
      await env.owner.query(
        `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' AND indexdef LIKE '%USING gin%'`,
      )
    ).rows as { indexname: string; indexdef: string }[];
    for (const index of gin) await env.owner.query(`DROP INDEX ${index.indexname}`);
    await generate(env.owner, tenant.id, receipts);
    await generate(env.owner, noise.id, Math.ceil(receipts / 3));
    await env.owner.query(`SET maintenance_work_mem = '512MB'`);
    for (const index of gin) await env.owner.query(index.indexdef);
    await env.owner.query('VACUUM ANALYZE');
    process.stdout.write(
      `Generated ${receipts} + ${Math.ceil(receipts / 3)} receipts in ${((Date.now() - started) / 1000).toFixed(0)} s\n`,
    );

    const headers = env.headers(tenant.key);
    // `afterWrite`: bump the tenant's receipt write version first (as any receipt write does), so
    // the exact count cannot come from the count cache; otherwise repeats of one query may.
    const bumpVersion = () =>
      env.owner.query(
        `INSERT INTO receipt_search_versions (tenant_id, version) VALUES ($1, 1)
         ON CONFLICT (tenant_id) DO UPDATE SET version = receipt_search_versions.version + 1`,
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
