import request from 'supertest';
import { Client } from 'pg';
import { MUTABLE_SEARCH_COLUMNS } from '@/receipts/search/exact-counts';
import { SEARCH_FIELDS } from '@/receipts/search/search-fields';
import { Tenant } from '@/http/tenancy/tenant.entity';
import { cancelReceipt, createDemand, recordReceipt, split } from './support/factories';
import { createTestApp, TestApp } from './support/test-app';
import { as } from './support/tokens';

type Filter = { field: string; query?: string; type: string };

/**
 * Totals of full pages are exact counts, cached per filter and brought up to date with the
 * receipts inserted since (src/receipts/search/exact-counts.ts): every write must show up at
 * once, on any instance, for that tenant only, and statuses changed by a write must be recounted.
 */
describe('search totals after writes', () => {
  let a: TestApp;
  let b: TestApp; // a second instance on the same database
  let owner: Client;
  let tenant: Tenant;
  let other: Tenant;
  let splitId: string;

  const total = async (t: TestApp, key: string, filters: Filter[] = []) => {
    const res = await request(t.server).post('/receipts/search?size=2').set(as(key)).send(filters);
    expect(res.status).toBe(200);
    expect(res.body.content).toHaveLength(Math.min(2, res.body.totalElements));
    return res.body.totalElements as number;
  };
  /** The same count taken directly, as the schema owner. */
  const fresh = async (tenantId: string, where = 'true', params: unknown[] = []) => {
    const { rows } = await owner.query<{ n: string }>(
      `SELECT count(*) AS n FROM receipts r
         JOIN demands d ON d.tenant_id = r.tenant_id AND d.id = r.demand_id
         JOIN demand_splits s ON s.tenant_id = r.tenant_id AND s.id = r.demand_split_id
        WHERE r.tenant_id = $1 AND (${where})`,
      [tenantId, ...params],
    );
    return Number(rows[0].n);
  };
  const active: Filter[] = [{ field: 'status', query: 'ACTIVE', type: 'EQUALS' }];
  const neftInNovember: Filter[] = [
    { field: 'receivedDate', query: '2026-11-01,2026-11-30', type: 'BETWEEN' },
    { field: 'paymentMode', query: 'NEFT,UPI', type: 'IN' },
  ];
  const neftInNovemberSql = `r.received_date BETWEEN '2026-11-01' AND '2026-11-30' AND r.payment_mode IN ('NEFT', 'UPI')`;

  beforeAll(async () => {
    a = await createTestApp();
    b = await createTestApp();
    owner = new Client({ connectionString: a.ownerUrl });
    await owner.connect();
    tenant = await a.createTenant();
    other = await a.createTenant();
    splitId = (await createDemand(a, tenant.key, { splits: [split(100000)] })).splits[0].id;
    for (let i = 0; i < 12; i++)
      await recordReceipt(a, tenant.key, { demandSplit: splitId, amount: 10 });
    await recordReceipt(a, other.key);
  });
  afterAll(async () => {
    await owner?.end();
    await a?.close();
    await b?.close();
  });

  it('counts a new receipt at once, on this instance and on another', async () => {
    expect(await total(a, tenant.key)).toBe(12);
    expect(await total(b, tenant.key)).toBe(12);
    expect(await total(a, tenant.key)).toBe(12); // served again (cached)
    await recordReceipt(b, tenant.key, { demandSplit: splitId, amount: 10 });
    expect(await total(a, tenant.key)).toBe(13);
    expect(await total(b, tenant.key)).toBe(13);
  });

  it('adds inserts to a cached filtered total, counting only the ones that match', async () => {
    const before = await total(a, tenant.key, neftInNovember);
    expect(before).toBe(await fresh(tenant.id, neftInNovemberSql));
    await recordReceipt(a, tenant.key, { demandSplit: splitId, amount: 10, paymentMode: 'UPI' });
    await recordReceipt(b, tenant.key, { demandSplit: splitId, amount: 10, paymentMode: 'CASH' });
    await recordReceipt(b, tenant.key, {
      demandSplit: splitId,
      amount: 10,
      receivedDate: '2026-10-31',
    });
    expect(await total(a, tenant.key, neftInNovember)).toBe(before + 1);
    expect(await total(b, tenant.key, neftInNovember)).toBe(before + 1);
    expect(await total(a, tenant.key, neftInNovember)).toBe(
      await fresh(tenant.id, neftInNovemberSql),
    );
  });

  it('adds inserts to a cached keyword total (indexed lookup and scan alike)', async () => {
    for (const keyword of ['utr-kw', 'kw']) {
      const filter: Filter[] = [{ field: 'keyword', query: keyword, type: 'CONTAINS' }];
      const matching = `r.transaction_ref ILIKE '%${keyword}%' OR r.receipt_number ILIKE '%${keyword}%' OR d.demand_number ILIKE '%${keyword}%' OR d.buyer_name ILIKE '%${keyword}%'`;
      const before = await total(a, tenant.key, filter);
      expect(before).toBe(await fresh(tenant.id, matching));
      await recordReceipt(a, tenant.key, {
        demandSplit: splitId,
        amount: 10,
        transactionRef: `UTR-KW-${keyword.length}`,
      });
      await recordReceipt(b, tenant.key, { demandSplit: splitId, amount: 10 });
      expect(await total(a, tenant.key, filter)).toBe(before + 1);
      expect(await total(b, tenant.key, filter)).toBe(await fresh(tenant.id, matching));
    }
  });

  it('reflects a cancellation in status-filtered totals, and only there', async () => {
    const before = await total(a, tenant.key, active);
    const all = await total(a, tenant.key);
    const receipt = await recordReceipt(a, tenant.key, { demandSplit: splitId, amount: 10 });
    expect(await total(a, tenant.key, active)).toBe(before + 1);
    await cancelReceipt(b, tenant.key, receipt.id);
    expect(await total(a, tenant.key, active)).toBe(before);
    expect(await total(b, tenant.key, active)).toBe(before);
    expect(await total(a, tenant.key)).toBe(all + 1);
    expect(await total(a, tenant.key, active)).toBe(await fresh(tenant.id, `r.status = 'ACTIVE'`));
  });

  it('recounts demand and split status filters when a payment changes those statuses', async () => {
    const demand = await createDemand(a, tenant.key, { splits: [split(300)] });
    const s = demand.splits[0].id;
    const partly: Filter[] = [
      { field: 'demandSplitMeta.status', query: 'PARTIALLY_PAID', type: 'EQUALS' },
    ];
    const paid: Filter[] = [{ field: 'demandMeta.status', query: 'PAID', type: 'EQUALS' }];
    const partlyBefore = await total(a, tenant.key, partly);
    const paidBefore = await total(b, tenant.key, paid);
    await recordReceipt(a, tenant.key, { demandSplit: s, amount: 100 });
    await recordReceipt(a, tenant.key, { demandSplit: s, amount: 100 });
    expect(await total(b, tenant.key, partly)).toBe(partlyBefore + 2);
    expect(await total(a, tenant.key, paid)).toBe(paidBefore);
    // The last payment moves the two earlier receipts (and itself) to a PAID split and demand.
    await recordReceipt(b, tenant.key, { demandSplit: s, amount: 100 });
    expect(await total(b, tenant.key, partly)).toBe(partlyBefore);
    expect(await total(a, tenant.key, paid)).toBe(paidBefore + 3);
    expect(await total(a, tenant.key, paid)).toBe(await fresh(tenant.id, `d.status = 'PAID'`));
  });

  it('keeps no GIN pending list on the trigram indexes that every receipt write touches', async () => {
    const { rows } = await owner.query<{ relname: string; reloptions: string[] | null }>(
      `SELECT relname, reloptions FROM pg_class
        WHERE relname IN ('receipts_text_trgm_idx', 'demands_text_trgm_idx') ORDER BY relname`,
    );
    expect(rows.map((r) => [r.relname, r.reloptions])).toEqual([
      ['demands_text_trgm_idx', ['fastupdate=off']],
      ['receipts_text_trgm_idx', ['fastupdate=off']],
    ]);
  });

  it("keeps each tenant's totals apart", async () => {
    const mine = await total(a, tenant.key);
    const mineActive = await total(a, tenant.key, active);
    expect(await total(a, other.key)).toBe(1);
    expect(await total(a, other.key, active)).toBe(1);
    await recordReceipt(a, other.key);
    expect(await total(a, other.key)).toBe(2);
    expect(await total(b, other.key, active)).toBe(2);
    expect(await total(a, tenant.key)).toBe(mine);
    expect(await total(a, tenant.key, active)).toBe(mineActive);
    await recordReceipt(a, tenant.key, { demandSplit: splitId, amount: 10 });
    expect(await total(a, other.key)).toBe(2);
    expect(await total(a, tenant.key)).toBe(mine + 1);
  });

  it('recounts everything after reset_version moves (a bulk load)', async () => {
    const before = await total(a, tenant.key, neftInNovember);
    // A load that bypasses the write path: rows stamped with an old version, then a reset.
    await owner.query(
      `INSERT INTO receipts (tenant_id, demand_split_id, demand_id, booking_id, payer_type,
                             receipt_number, amount, payment_mode, transaction_ref, received_date,
                             created_by, inserted_version)
       SELECT tenant_id, demand_split_id, demand_id, booking_id, payer_type,
              receipt_number || '-bulk', amount, 'NEFT', '', '2026-11-15', 'bulk', 0
         FROM receipts WHERE tenant_id = $1 LIMIT 1`,
      [tenant.id],
    );
    expect(await total(a, tenant.key, neftInNovember)).toBe(before); // not a write: not seen yet
    await owner.query(
      `UPDATE receipt_search_versions SET version = version + 1, reset_version = version + 1
        WHERE tenant_id = $1`,
      [tenant.id],
    );
    expect(await total(a, tenant.key, neftInNovember)).toBe(before + 1);
    expect(await total(b, tenant.key, neftInNovember)).toBe(before + 1);
  });

  it('lets the application change no searchable column but the statuses it tracks', async () => {
    const tables = { receipt: 'receipts', split: 'demand_splits', demand: 'demands' } as const;
    const updatable: string[] = [];
    for (const f of SEARCH_FIELDS) {
      if (f.source === 'keyword') continue;
      const { rows } = await owner.query<{ ok: boolean }>(
        `SELECT has_column_privilege('finance_app', $1, $2, 'UPDATE') AS ok`,
        [tables[f.source as keyof typeof tables], f.column],
      );
      if (rows[0].ok) updatable.push(`${f.source}.${f.column}`);
    }
    expect(updatable.sort()).toEqual(Object.keys(MUTABLE_SEARCH_COLUMNS).sort());
    // Keyword columns, the version stamp, and deletes.
    for (const [table, column] of [
      ['receipts', 'receipt_number'],
      ['receipts', 'transaction_ref'],
      ['receipts', 'inserted_version'],
      ['demands', 'demand_number'],
      ['demands', 'buyer_name'],
    ]) {
      const { rows } = await owner.query<{ ok: boolean }>(
        `SELECT has_column_privilege('finance_app', $1, $2, 'UPDATE') AS ok`,
        [table, column],
      );
      expect({ table, column, ok: rows[0].ok }).toEqual({ table, column, ok: false });
    }
    const { rows } = await owner.query<{ ok: boolean }>(
      `SELECT has_table_privilege('finance_app', 'receipts', 'DELETE') AS ok`,
    );
    expect(rows[0].ok).toBe(false);
  });
});

/**
 * The ordering the incremental count relies on, under concurrent writers on two instances: a
 * snapshot that reads version V sees exactly the receipts stamped <= V, and totals taken while
 * writes commit are exact for some moment (between the counts before and after).
 */
describe('search totals under concurrent writes', () => {
  let a: TestApp;
  let b: TestApp;
  let app: Client;
  let tenant: Tenant;
  let splits: string[];

  const total = async (t: TestApp, filters: Filter[] = []) => {
    const res = await request(t.server)
      .post('/receipts/search?size=1')
      .set(as(tenant.key))
      .send(filters);
    expect(res.status).toBe(200);
    return res.body.totalElements as number;
  };
  const filters: Filter[][] = [
    [],
    [{ field: 'paymentMode', query: 'NEFT,UPI', type: 'IN' }],
    [{ field: 'receivedDate', query: '2026-11-10,2026-11-20', type: 'BETWEEN' }],
    [{ field: 'status', query: 'ACTIVE', type: 'EQUALS' }],
  ];
  const filtersSql = [
    'true',
    `payment_mode IN ('NEFT', 'UPI')`,
    `received_date BETWEEN '2026-11-10' AND '2026-11-20'`,
    `status = 'ACTIVE'`,
  ];
  /** As the application login, RLS on, in one transaction: what each filter matches now. */
  const freshCounts = async () => {
    await app.query('BEGIN');
    try {
      await app.query(`SELECT set_config('app.tenant_id', $1, true)`, [tenant.id]);
      const { rows } = await app.query<Record<string, string>>(
        `SELECT ${filtersSql.map((w, i) => `(SELECT count(*) FROM receipts WHERE ${w}) AS c${i}`).join(', ')}`,
      );
      return filtersSql.map((_, i) => Number(rows[0][`c${i}`]));
    } finally {
      await app.query('COMMIT');
    }
  };
  /** As the application login, RLS on: the invariant, in one snapshot. */
  const snapshot = async () => {
    await app.query('BEGIN');
    try {
      await app.query(`SELECT set_config('app.tenant_id', $1, true)`, [tenant.id]);
      const { rows } = await app.query<{ v: string; seen: string; at_most_v: string; max: string }>(
        `SELECT v.version AS v, count(r.id) AS seen,
                count(r.id) FILTER (WHERE r.inserted_version <= v.version) AS at_most_v,
                coalesce(max(r.inserted_version), 0) AS max
           FROM receipt_search_versions v LEFT JOIN receipts r ON r.tenant_id = v.tenant_id
          WHERE v.tenant_id = $1 GROUP BY v.version`,
        [tenant.id],
      );
      return rows[0];
    } finally {
      await app.query('COMMIT');
    }
  };

  beforeAll(async () => {
    a = await createTestApp();
    b = await createTestApp();
    app = new Client({ connectionString: a.appUrl });
    await app.connect();
    tenant = await a.createTenant();
    splits = [];
    for (let i = 0; i < 4; i++) {
      splits.push((await createDemand(a, tenant.key, { splits: [split(1000000)] })).splits[0].id);
    }
    await recordReceipt(a, tenant.key, { demandSplit: splits[0], amount: 1 });
  });
  afterAll(async () => {
    await app?.end();
    await a?.close();
    await b?.close();
  });

  it('stays exact while receipts are recorded and cancelled on two instances', async () => {
    const modes = ['NEFT', 'CASH', 'UPI', 'CHEQUE'];
    let invariantChecks = 0;
    for (let round = 0; round < 6; round++) {
      const before = await Promise.all(filters.map((f) => total(a, f)));
      let writing = true;
      const writes = Array.from({ length: 12 }, (_, i) =>
        recordReceipt(i % 2 ? a : b, tenant.key, {
          demandSplit: splits[i % splits.length],
          amount: 1,
          paymentMode: modes[(i + round) % modes.length],
          receivedDate: `2026-11-${String(5 + ((i * 3 + round) % 20)).padStart(2, '0')}`,
        }),
      );
      const cancels = round % 2 === 1;
      const reads = (async () => {
        const seen: number[][] = [];
        while (writing) {
          seen.push(await Promise.all(filters.map((f, i) => total(i % 2 ? a : b, f))));
          const s = await snapshot();
          invariantChecks++;
          expect(s.seen).toBe(s.at_most_v);
          expect(BigInt(s.max) <= BigInt(s.v)).toBe(true);
        }
        return seen;
      })();
      const recorded = await Promise.all(writes);
      if (cancels)
        await Promise.all(
          recorded.slice(0, 3).map((r, i) => cancelReceipt(i % 2 ? a : b, tenant.key, r.id)),
        );
      writing = false;
      const seen = await reads;
      const after = await Promise.all(filters.map((f) => total(b, f)));
      expect(after).toEqual(await freshCounts());
      for (const [i, f] of filters.entries()) {
        expect(await total(a, f)).toBe(after[i]);
        if (!cancels || i !== 3) {
          // Inserts only for this filter: every total seen in between lies between.
          for (const s of seen) {
            expect(s[i]).toBeGreaterThanOrEqual(before[i]);
            expect(s[i]).toBeLessThanOrEqual(after[i]);
          }
        }
      }
      const v = await snapshot();
      expect(Number(v.seen)).toBe(after[0]);
    }
    expect(invariantChecks).toBeGreaterThan(0);
  });
});
