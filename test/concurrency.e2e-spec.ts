import { DataSource } from 'typeorm';
import { createDemand, post, receiptBody, recordReceipt, split } from './support/factories';
import { createTestApp, ownerDataSource, TestApp } from './support/test-app';

/** Runs `tasks` with at most `limit` in flight; results in task order. */
async function inFlight<T>(tasks: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      results[i] = await tasks[i]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}

const seqOf = (n: string) => Number(n.split('/')[2]);

describe('concurrent writes', () => {
  let t: TestApp;
  let db: DataSource;

  beforeAll(async () => {
    t = await createTestApp();
    // one listening server for all requests (supertest would otherwise listen per request)
    await t.app.listen(0, '127.0.0.1');
    db = await ownerDataSource(t.ownerUrl);
  });
  afterAll(async () => {
    await db?.destroy();
    await t?.close();
  });

  /** Every split's paid amount equals its active receipts, every demand's received amount its splits'. */
  async function expectBalanced(tenantId: string) {
    const splits = await db.query(
      `SELECT s.id, s.amount::text AS amount, s.paid_amount::text AS paid, s.status,
              coalesce((SELECT sum(r.amount) FROM receipts r
                         WHERE r.tenant_id = s.tenant_id AND r.demand_split_id = s.id
                           AND r.status = 'ACTIVE'), 0)::numeric(18,2)::text AS receipts
         FROM demand_splits s WHERE s.tenant_id = $1`,
      [tenantId],
    );
    expect(splits.length).toBeGreaterThan(0);
    for (const s of splits) {
      expect({ id: s.id, paid: s.paid }).toEqual({ id: s.id, paid: s.receipts });
      const expected =
        Number(s.paid) === 0 ? 'PENDING' : s.paid === s.amount ? 'PAID' : 'PARTIALLY_PAID';
      expect({ id: s.id, status: s.status }).toEqual({ id: s.id, status: expected });
    }
    const demands = await db.query(
      `SELECT d.id, d.received_amount::text AS received,
              (SELECT sum(s.paid_amount) FROM demand_splits s
                WHERE s.tenant_id = d.tenant_id AND s.demand_id = d.id)::numeric(18,2)::text AS splits,
              coalesce((SELECT sum(r.amount) FROM receipts r
                         WHERE r.tenant_id = d.tenant_id AND r.demand_id = d.id
                           AND r.status = 'ACTIVE'), 0)::numeric(18,2)::text AS receipts
         FROM demands d WHERE d.tenant_id = $1`,
      [tenantId],
    );
    for (const d of demands) {
      expect({ id: d.id, received: d.received, receipts: d.receipts }).toEqual({
        id: d.id,
        received: d.splits,
        receipts: d.splits,
      });
    }
  }

  it('gives 256 concurrent receipts of one tenant distinct, consecutive numbers with no gap', async () => {
    const tenant = await t.createTenant();
    const demands = await Promise.all(
      Array.from({ length: 8 }, () =>
        createDemand(t, tenant.key, { splits: [split(100000), split(100000)] }),
      ),
    );
    const splitIds = demands.flatMap((d) => d.splits.map((s) => s.id));
    const total = 256;
    const responses = await inFlight(
      Array.from(
        { length: total },
        (_, i) => () =>
          post(
            t,
            tenant.key,
            '/receipts',
            receiptBody(splitIds[i % splitIds.length], { amount: 1.25 }),
          ),
      ),
      32,
    );
    const failures = responses.filter((r) => r.status !== 201).map((r) => [r.status, r.body.code]);
    expect(failures).toEqual([]);
    const numbers = responses.map((r) => r.body.receiptNumber as string);
    expect(new Set(numbers).size).toBe(total);
    const seqs = numbers.map(seqOf).sort((a, b) => a - b);
    expect(seqs).toEqual(Array.from({ length: total }, (_, i) => i + 1));
    for (const n of numbers) expect(n).toMatch(/^RCT\/26-27\/\d{5}$/);

    const [{ n, sum }] = await db.query(
      `SELECT count(*)::int AS n, sum(amount)::text AS sum FROM receipts WHERE tenant_id = $1`,
      [tenant.id],
    );
    expect(n).toBe(total);
    expect(sum).toBe('320.00');
    await expectBalanced(tenant.id);
  });

  it('never overpays a split: 30 concurrent receipts of 100 against 1000 -> 10 succeed, 20 get 422', async () => {
    const tenant = await t.createTenant();
    const demand = await createDemand(t, tenant.key, { splits: [split(1000), split(500)] });
    const target = demand.splits[0].id;
    const responses = await Promise.all(
      Array.from({ length: 30 }, () =>
        post(t, tenant.key, '/receipts', receiptBody(target, { amount: 100 })),
      ),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(statuses.filter((s) => s === 422)).toHaveLength(20);
    for (const r of responses.filter((x) => x.status === 422)) {
      expect(r.body.code).toBe('RECEIPT_EXCEEDS_PENDING');
    }
    // the failures consumed no number: the successes hold 1..10
    const seqs = responses
      .filter((r) => r.status === 201)
      .map((r) => seqOf(r.body.receiptNumber))
      .sort((a, b) => a - b);
    expect(seqs).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);

    const [s] = await db.query(
      `SELECT paid_amount::text AS paid, status FROM demand_splits WHERE tenant_id = $1 AND id = $2`,
      [tenant.id, target],
    );
    expect(s).toEqual({ paid: '1000.00', status: 'PAID' });
    const [d] = await db.query(
      `SELECT received_amount::text AS received, status FROM demands WHERE tenant_id = $1 AND id = $2`,
      [tenant.id, demand.id],
    );
    expect(d).toEqual({ received: '1000.00', status: 'PARTIALLY_PAID' });
    await expectBalanced(tenant.id);
  });

  it('consumes no number for a failed overpayment: the next success gets the next number', async () => {
    const tenant = await t.createTenant();
    const demand = await createDemand(t, tenant.key, { splits: [split(100), split(100)] });
    const first = await recordReceipt(t, tenant.key, {
      demandSplit: demand.splits[0].id,
      amount: 100,
    });
    const issuedBefore = await db.query(
      `SELECT count(*)::int AS n FROM issued_numbers WHERE tenant_id = $1 AND document_type = 'receipt'`,
      [tenant.id],
    );
    const over = await post(
      t,
      tenant.key,
      '/receipts',
      receiptBody(demand.splits[0].id, { amount: 1 }),
    );
    expect(over.status).toBe(422);
    const second = await recordReceipt(t, tenant.key, {
      demandSplit: demand.splits[1].id,
      amount: 1,
    });
    expect(seqOf(second.receiptNumber)).toBe(seqOf(first.receiptNumber) + 1);
    const issuedAfter = await db.query(
      `SELECT count(*)::int AS n FROM issued_numbers WHERE tenant_id = $1 AND document_type = 'receipt'`,
      [tenant.id],
    );
    expect(issuedAfter[0].n).toBe(issuedBefore[0].n + 1);
  });

  it('keeps splits and demands balanced under concurrent receipts and cancellations (no deadlock)', async () => {
    const tenant = await t.createTenant();
    const demand = await createDemand(t, tenant.key, {
      splits: [split(300), split(300), split(300)],
    });
    const splitIds = demand.splits.map((s) => s.id);
    const seeded = await Promise.all(
      splitIds.flatMap((id) => [recordReceipt(t, tenant.key, { demandSplit: id, amount: 50 })]),
    );
    const tasks = [
      ...seeded.map(
        (r) => () => post(t, tenant.key, `/receipts/${r.id}/cancel`, { reason: 'race' }),
      ),
      ...Array.from(
        { length: 45 },
        (_, i) => () =>
          post(t, tenant.key, '/receipts', receiptBody(splitIds[i % 3], { amount: 20 })),
      ),
    ];
    // interleave cancellations with receipts
    const order = tasks
      .map((task, i) => ({ task, k: (i * 7919) % tasks.length }))
      .sort((a, b) => a.k - b.k);
    const responses = await inFlight(
      order.map((o) => o.task),
      24,
    );
    const unexpected = responses.filter((r) => ![200, 201, 422].includes(r.status));
    expect(unexpected.map((r) => [r.status, r.body.code])).toEqual([]);
    expect(responses.filter((r) => r.status === 200)).toHaveLength(3);
    await expectBalanced(tenant.id);
  });

  it('a lock held too long is a retryable 503 that writes nothing and consumes no number', async () => {
    const quick = await createTestApp({ DB_LOCK_TIMEOUT_MS: '300' });
    const tenant = await quick.createTenant();
    const demand = await createDemand(t, tenant.key, { splits: [split(1000)] });
    const splitId = demand.splits[0].id;
    const first = await recordReceipt(t, tenant.key, { demandSplit: splitId, amount: 10 });

    // Another session holds the split's row lock past the request's lock_timeout (300 ms here).
    const blocker = db.createQueryRunner();
    await blocker.connect();
    await blocker.startTransaction();
    try {
      await blocker.query(
        `SELECT 1 FROM demand_splits WHERE tenant_id = $1 AND id = $2 FOR UPDATE`,
        [tenant.id, splitId],
      );
      const res = await post(quick, tenant.key, '/receipts', receiptBody(splitId, { amount: 10 }));
      expect(res.status).toBe(503);
      expect(res.body.code).toBe('DATABASE_BUSY');
      expect(res.headers['retry-after']).toBe('1');
    } finally {
      await blocker.rollbackTransaction();
      await blocker.release();
      await quick.close();
    }
    const next = await recordReceipt(t, tenant.key, { demandSplit: splitId, amount: 10 });
    expect(seqOf(next.receiptNumber)).toBe(seqOf(first.receiptNumber) + 1);
    expect(next.demandSplitMeta.paidAmount.amount).toBe(20);
  });
});
