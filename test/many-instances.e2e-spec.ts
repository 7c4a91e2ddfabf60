import request from 'supertest';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Tenant } from '@/http/tenancy/tenant.entity';
import { createDemand, receiptBody, split } from './support/factories';
import { createTestApp, ownerDataSource, TestApp } from './support/test-app';
import { as } from './support/tokens';

const seqOf = (receiptNumber: string) => Number(receiptNumber.split('/').at(-1));

/**
 * Many instances, one database (issue 12, item 1): nothing in process memory is needed for
 * correctness. Two application instances serve one tenant, requests interleaved across them.
 */
describe('two application instances on one database', () => {
  let a: TestApp;
  let b: TestApp;
  let db: DataSource;
  let tenant: Tenant;
  let other: Tenant;

  const post = (t: TestApp, path: string, body: unknown, headers: Record<string, string> = {}) =>
    request(t.server)
      .post(path)
      .set(as(tenant.key))
      .set(headers)
      .send(body as object);
  const search = async (t: TestApp, filters: unknown[] = []) => {
    const res = await post(t, '/receipts/search?size=1', filters);
    expect(res.status).toBe(200);
    return (res.body as { totalElements: number }).totalElements;
  };

  beforeAll(async () => {
    a = await createTestApp();
    b = await createTestApp();
    db = await ownerDataSource(a.ownerUrl);
    tenant = await a.createTenant();
    other = await b.createTenant();
  });
  afterAll(async () => {
    await db?.destroy();
    await a?.close();
    await b?.close();
  });

  it('receipts recorded through both get gap-free numbers and never overpay a split', async () => {
    const demand = await createDemand(a, tenant.key, { splits: [split(1000), split(100000)] });
    const [small, large] = demand.splits.map((s) => s.id);
    // 30 receipts of 100 against 1,000 (10 can succeed) and 40 against a split with room,
    // alternating instances, all at once.
    const attempts = [
      ...Array.from({ length: 30 }, () => small),
      ...Array.from({ length: 40 }, () => large),
    ];
    const responses = await Promise.all(
      attempts.map((splitId, i) =>
        post(i % 2 ? a : b, '/receipts', receiptBody(splitId, { amount: 100 })),
      ),
    );
    const created = responses.filter((r) => r.status === 201);
    expect(responses.filter((r) => r.status !== 201).map((r) => r.status)).toEqual(
      Array(20).fill(422),
    );
    expect(created).toHaveLength(50);
    const seqs = created.map((r) => seqOf(r.body.receiptNumber as string)).sort((x, y) => x - y);
    expect(seqs).toEqual(Array.from({ length: 50 }, (_, i) => seqs[0] + i));
    const [paid] = await db.query<{ paid: string }[]>(
      `SELECT paid_amount::text AS paid FROM demand_splits WHERE tenant_id = $1 AND id = $2`,
      [tenant.id, small],
    );
    expect(Number(paid.paid)).toBe(1000);
  });

  it('an Idempotency-Key replayed on the other instance returns the original', async () => {
    const demand = await createDemand(a, tenant.key, { splits: [split(5000)] });
    const key = randomUUID();
    const body = receiptBody(demand.splits[0].id, { amount: 250 });
    const first = await post(a, '/receipts', body, { 'Idempotency-Key': key });
    expect(first.status).toBe(201);
    const replay = await post(b, '/receipts', body, { 'Idempotency-Key': key });
    expect(replay.status).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(first.body);
    const reused = await post(b, '/receipts', { ...body, amount: 251 }, { 'Idempotency-Key': key });
    expect(reused.status).toBe(422);
    const [{ n }] = await db.query<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM receipts WHERE tenant_id = $1 AND demand_split_id = $2`,
      [tenant.id, demand.splits[0].id],
    );
    expect(n).toBe(1);
  });

  it('a configuration change made on one is obeyed by the other at once', async () => {
    const current = await request(a.server).get('/tenant/configuration').set(as(tenant.key));
    const {
      created: _c,
      createdBy: _b,
      version: _v,
      ...writable
    } = current.body as Record<string, unknown>;
    const changed = await request(a.server)
      .put('/tenant/configuration')
      .set(as(tenant.key))
      .set('If-Match', String(current.headers.etag))
      .send({ ...writable, receiptNumberPrefix: 'MI' });
    expect(changed.status).toBe(200);
    const demand = await createDemand(b, tenant.key, { splits: [split(1000)] });
    const receipt = await post(b, '/receipts', receiptBody(demand.splits[0].id, { amount: 10 }));
    expect(receipt.status).toBe(201);
    expect(receipt.body.receiptNumber).toMatch(/^MI\//);
    // The ETag read on one instance is checked on the other: a stale one is 412 there too.
    const stale = await request(b.server)
      .put('/tenant/configuration')
      .set(as(tenant.key))
      .set('If-Match', String(current.headers.etag))
      .send({ ...writable, receiptNumberPrefix: 'XX' });
    expect(stale.status).toBe(412);
  });

  it('search totals agree across instances after writes on either', async () => {
    const filters = [{ field: 'paymentMode', query: 'UPI', type: 'EQUALS' }];
    const before = [await search(a, filters), await search(b, filters)];
    expect(before[0]).toBe(before[1]);
    const demand = await createDemand(a, tenant.key, { splits: [split(10000)] });
    for (let i = 0; i < 6; i++) {
      const res = await post(i % 2 ? a : b, '/receipts', {
        ...receiptBody(demand.splits[0].id, { amount: 10 }),
        paymentMode: 'UPI',
      });
      expect(res.status).toBe(201);
      // Each instance's cached count must follow the other's writes at once.
      expect(await search(a, filters)).toBe(before[0] + i + 1);
      expect(await search(b, filters)).toBe(before[0] + i + 1);
    }
  });

  it('every write answers with a consistency token the other instance honours', async () => {
    const demand = await createDemand(a, tenant.key, { splits: [split(10000)] });
    const tokens: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await post(i % 2 ? a : b, '/receipts', receiptBody(demand.splits[0].id));
      expect(res.status).toBe(201);
      tokens.push(res.headers['x-consistency-token']);
      const id = (res.body as { id: string }).id;
      const read = await request((i % 2 ? b : a).server)
        .get(`/receipts/${id}`)
        .set(as(tenant.key))
        .set('X-Consistency-Token', tokens[i]);
      expect(read.status).toBe(200);
      expect(read.headers['x-consistency-token']).toBeUndefined();
    }
    // The log position only moves forward: a later write, a later token.
    const lsn = (t: string) => {
      const [hi, lo] = t.split('/');
      return (BigInt(`0x${hi}`) << 32n) | BigInt(`0x${lo}`);
    };
    for (const token of tokens) expect(token).toMatch(/^[0-9A-F]{1,8}\/[0-9A-F]{1,8}$/);
    expect({
      tokens,
      ordered: lsn(tokens[1]) > lsn(tokens[0]) && lsn(tokens[2]) > lsn(tokens[1]),
    }).toEqual({ tokens, ordered: true });
    // A failed write commits nothing and gets no token; a malformed token is refused.
    const refused = await post(a, '/receipts', receiptBody(demand.splits[0].id, { amount: -1 }));
    expect(refused.status).toBe(422);
    expect(refused.headers['x-consistency-token']).toBeUndefined();
    const bad = await post(b, '/receipts/search', [], { 'X-Consistency-Token': 'latest' });
    expect({ status: bad.status, code: (bad.body as { code?: string }).code }).toEqual({
      status: 400,
      code: 'INVALID_CONSISTENCY_TOKEN',
    });
  });

  it('a deactivated tenant is refused by both at once, and tenants stay apart', async () => {
    await post(a, '/receipts/search', []).expect(200);
    await post(b, '/receipts/search', []).expect(200);
    await db.query(`UPDATE tenants SET active = false WHERE id = $1`, [tenant.id]);
    try {
      expect((await post(a, '/receipts/search', [])).status).toBe(403);
      expect((await post(b, '/receipts/search', [])).status).toBe(403);
    } finally {
      await db.query(`UPDATE tenants SET active = true WHERE id = $1`, [tenant.id]);
    }
    const theirs = await request(b.server).post('/receipts/search').set(as(other.key)).send([]);
    expect(theirs.status).toBe(200);
    expect((theirs.body as { totalElements: number }).totalElements).toBe(0);
  });
});
