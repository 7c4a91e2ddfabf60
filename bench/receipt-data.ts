/**
 * Set-based receipt data for the benchmarks (bench:search, bench:floor): bookings -> 5 demands
 * each -> 2 splits each -> receipts spread over the splits.
 */
import { Client } from 'pg';
import { PAYMENT_MODES } from '@/common/domain/enums';
import { FIRST_NAMES, LAST_NAMES } from '@/seed/indian-names';

export async function generateReceipts(
  owner: Client,
  tenantId: string,
  receipts: number,
): Promise<void> {
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
  const { rows } = await owner.query<{ n: string }>(
    'SELECT count(*) AS n FROM demand_splits WHERE tenant_id = $1',
    [tenantId],
  );
  // inserted_version 0: loaded before any count is cached (a later load would set reset_version).
  await owner.query(
    `WITH s AS (
       SELECT s.id, s.demand_id, d.booking_id, s.payer_type, row_number() OVER (ORDER BY s.id) AS rn
         FROM demand_splits s JOIN demands d ON d.tenant_id = s.tenant_id AND d.id = s.demand_id
        WHERE s.tenant_id = $1)
     INSERT INTO receipts (tenant_id, demand_split_id, demand_id, booking_id, payer_type, receipt_number, amount,
                           payment_mode, transaction_ref, received_date, status, status_changed_at,
                           status_changed_on, status_changed_by, status_reason, created_by, inserted_version)
     SELECT $1, s.id, s.demand_id, s.booking_id, s.payer_type, 'RCT/' || lpad(g::text, 7, '0'),
            1000 + (g * 7919) % 5000000 / 100.0, ($2::text[])[(1 + g % 10)::int], 'UTR' || (g * 104729),
            date '2025-04-01' + ((g * 31) % 540)::int,
            CASE WHEN g % 37 = 0 THEN 'CANCELLED' ELSE 'ACTIVE' END,
            CASE WHEN g % 37 = 0 THEN (date '2025-04-01' + ((g * 31) % 540)::int)::timestamptz + interval '12 hours' END,
            CASE WHEN g % 37 = 0 THEN date '2025-04-01' + ((g * 31) % 540)::int END,
            CASE WHEN g % 37 = 0 THEN 'bench' END,
            CASE WHEN g % 37 = 0 THEN 'Entered against the wrong unit' END, 'bench', 0
       FROM generate_series(1::bigint, $3::bigint) g JOIN s ON s.rn = 1 + (g * 7) % $4::bigint`,
    [tenantId, PAYMENT_MODES, receipts, Number(rows[0].n)],
  );
  // Fresh statistics first: planned on statistics from before this tenant's rows, the UPDATE
  // below can become a nested loop over every receipt of the table (seen stuck for 12 minutes on
  // the 14th tenant of the 1M set while autovacuum lagged on a busy machine).
  await owner.query('ANALYZE demand_splits, receipts');
  // What the receipt writes keep: a split's paid amount is what its ACTIVE receipts pay, a
  // demand's received amount what its splits were paid, and their statuses follow.
  await owner.query(
    `UPDATE demand_splits s
        SET paid_amount = p.amount,
            status = CASE WHEN p.amount = 0 THEN 'PENDING' WHEN p.amount = s.amount THEN 'PAID'
                          ELSE 'PARTIALLY_PAID' END
       FROM (SELECT s.id, coalesce(sum(r.amount) FILTER (WHERE r.status = 'ACTIVE'), 0) AS amount
               FROM demand_splits s LEFT JOIN receipts r
                 ON r.tenant_id = s.tenant_id AND r.demand_split_id = s.id
              WHERE s.tenant_id = $1 GROUP BY s.id) p
      WHERE s.tenant_id = $1 AND s.id = p.id`,
    [tenantId],
  );
  await owner.query(
    `UPDATE demands d
        SET received_amount = p.amount,
            status = CASE WHEN p.amount = 0 THEN 'PENDING' WHEN p.amount = d.total_amount THEN 'PAID'
                          ELSE 'PARTIALLY_PAID' END
       FROM (SELECT demand_id, sum(paid_amount) AS amount FROM demand_splits
              WHERE tenant_id = $1 GROUP BY demand_id) p
      WHERE d.tenant_id = $1 AND d.id = p.demand_id`,
    [tenantId],
  );
}

/**
 * Runs `load` as a bulk load: the indexes of the loaded tables that back no constraint are
 * dropped first and built again after it (one sorted build each instead of an entry per row),
 * foreign keys are not checked row by row (`session_replication_role = replica`: the generator
 * writes consistent rows), then VACUUM ANALYZE and a CHECKPOINT.
 */
export async function bulkLoad(owner: Client, load: () => Promise<void>): Promise<void> {
  const { rows: indexes } = await owner.query<{ indexname: string; indexdef: string }>(
    `SELECT i.indexname, i.indexdef FROM pg_indexes i
      WHERE i.schemaname = 'public' AND i.tablename IN ('receipts', 'demand_splits', 'demands', 'bookings')
        AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = to_regclass('public.' || i.indexname))
        AND NOT EXISTS (SELECT 1 FROM pg_depend d
                         WHERE d.refobjid = to_regclass('public.' || i.indexname) AND d.deptype = 'n')`,
  );
  for (const index of indexes) await owner.query(`DROP INDEX ${index.indexname}`);
  await owner.query(`SET session_replication_role = replica`);
  try {
    await load();
  } finally {
    await owner.query(`RESET session_replication_role`);
  }
  await owner.query(`SET maintenance_work_mem = '1GB'`);
  for (const index of indexes) await owner.query(index.indexdef);
  await owner.query(`RESET maintenance_work_mem`);
  await owner.query('VACUUM ANALYZE');
  // The builds wrote gigabytes of WAL: a checkpoint now, not one spread over the measurements.
  await owner.query('CHECKPOINT');
}

/** How the benches spread `receipts` over `tenants`: `hotShare` on the first, the rest evenly. */
export function spreadReceipts(
  receipts: number,
  tenants: number,
  hotShare: number,
): { hot: number; other: number } {
  if (tenants === 1) return { hot: receipts, other: 0 };
  const hot = Math.round(receipts * hotShare);
  return { hot, other: Math.floor((receipts - hot) / (tenants - 1)) };
}

/** Loads `hot` receipts on the first tenant and `other` on each of the rest (bulkLoad); says how long. */
export async function loadSpread(
  owner: Client,
  tenantIds: string[],
  { hot, other }: { hot: number; other: number },
): Promise<void> {
  const started = Date.now();
  await bulkLoad(owner, async () => {
    for (const [i, id] of tenantIds.entries())
      await generateReceipts(owner, id, i === 0 ? hot : other);
  });
  process.stdout.write(
    `Generated ${hot + other * (tenantIds.length - 1)} receipts over ${tenantIds.length} tenants (hot tenant ${hot}, others ${other} each) in ${((Date.now() - started) / 1000).toFixed(0)} s\n`,
  );
}

/**
 * The benches' tenants `t0`..`t<n-1>` with their receipts (loadSpread): read back from a restored
 * saved cluster (bench-support's `saved`), or made by `create(key, name)` and loaded.
 */
export async function benchTenants(
  owner: Client,
  o: {
    restored: boolean;
    tenants: number;
    spread: { hot: number; other: number };
    create: (key: string, name: string) => Promise<{ id: string; key: string }>;
  },
): Promise<{ id: string; key: string }[]> {
  if (o.restored) {
    const { rows } = await owner.query<{ id: string; key: string }>(
      `SELECT id, key FROM tenants WHERE key ~ '^t[0-9]+$' ORDER BY substring(key FROM 2)::int`,
    );
    return rows;
  }
  const created: { id: string; key: string }[] = [];
  for (let i = 0; i < o.tenants; i++) created.push(await o.create(`t${i}`, `Bench Realty ${i}`));
  await loadSpread(
    owner,
    created.map((t) => t.id),
    o.spread,
  );
  return created;
}
