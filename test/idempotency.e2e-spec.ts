import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import {
  bookingBody,
  createDemand,
  demandBody,
  createBooking,
  post,
  receiptBody,
  recordReceipt,
  split,
} from './support/factories';
import { createTestApp, ownerDataSource, TestApp } from './support/test-app';
import { as } from './support/tokens';

describe('Idempotency-Key', () => {
  let t: TestApp;
  let db: DataSource;
  let tenant: string;
  let other: string;
  let tenantId: string;

  beforeAll(async () => {
    t = await createTestApp();
    db = await ownerDataSource(t.ownerUrl);
    const created = await t.createTenant();
    tenant = created.key;
    tenantId = created.id;
    other = (await t.createTenant()).key;
  });
  afterAll(async () => {
    await db?.destroy();
    await t?.close();
  });

  const count = async (table: string, where = 'TRUE', params: unknown[] = []) =>
    (
      await db.query(`SELECT count(*)::int AS n FROM ${table} WHERE tenant_id = $1 AND ${where}`, [
        tenantId,
        ...params,
      ])
    )[0].n as number;

  it('replays a receipt: same status, id, number and body, and creates nothing', async () => {
    const demand = await createDemand(t, tenant, { splits: [split(1000)] });
    const body = receiptBody(demand.splits[0].id, { amount: 100 });
    const key = randomUUID();
    const first = await post(t, tenant, '/receipts', body, { idempotencyKey: key });
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const receiptsBefore = await count('receipts');
    const numbersBefore = await count('issued_numbers');

    const replay = await post(t, tenant, '/receipts', body, { idempotencyKey: key });
    expect(replay.status).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body.id).toBe(first.body.id);
    expect(replay.body.receiptNumber).toBe(first.body.receiptNumber);
    expect(replay.text).toBe(first.text);
    expect(await count('receipts')).toBe(receiptsBefore);
    expect(await count('issued_numbers')).toBe(numbersBefore);
    const paid = await db.query(
      `SELECT paid_amount::text AS paid FROM demand_splits WHERE id = $1`,
      [demand.splits[0].id],
    );
    expect(paid[0].paid).toBe('100.00');
  });

  it('treats the same body with keys in another order as the same request', async () => {
    const key = randomUUID();
    const body = bookingBody();
    const first = await post(t, tenant, '/bookings', body, { idempotencyKey: key });
    expect(first.status).toBe(201);
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const replay = await post(t, tenant, '/bookings', reordered, { idempotencyKey: key });
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual(first.body);
    expect(await count('bookings', 'unit_id = $2', [body.unit])).toBe(1);
  });

  it('refuses the same key with another body, or on another route, with 422', async () => {
    const demand = await createDemand(t, tenant, { splits: [split(1000)] });
    const key = randomUUID();
    const body = receiptBody(demand.splits[0].id, { amount: 100 });
    expect((await post(t, tenant, '/receipts', body, { idempotencyKey: key })).status).toBe(201);
    const receiptsBefore = await count('receipts');

    const changed = await post(
      t,
      tenant,
      '/receipts',
      { ...body, amount: 200 },
      { idempotencyKey: key },
    );
    expect(changed.status).toBe(422);
    expect(changed.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    const elsewhere = await post(t, tenant, '/bookings', bookingBody(), { idempotencyKey: key });
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await count('receipts')).toBe(receiptsBefore);
  });

  it('stores nothing for a failed request: the key works later for a valid one', async () => {
    const demand = await createDemand(t, tenant, { splits: [split(100)] });
    const key = randomUUID();
    const tooMuch = await post(
      t,
      tenant,
      '/receipts',
      receiptBody(demand.splits[0].id, { amount: 150 }),
      {
        idempotencyKey: key,
      },
    );
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body.code).toBe('RECEIPT_EXCEEDS_PENDING');
    expect(await count('idempotency_keys', 'key = $2', [key])).toBe(0);

    const invalid = await post(
      t,
      tenant,
      '/receipts',
      receiptBody(demand.splits[0].id, { amount: 1.234 }),
      {
        idempotencyKey: key,
      },
    );
    expect(invalid.status).toBe(400);

    const ok = await post(
      t,
      tenant,
      '/receipts',
      receiptBody(demand.splits[0].id, { amount: 100 }),
      {
        idempotencyKey: key,
      },
    );
    expect(ok.status).toBe(201);
    expect(await count('idempotency_keys', 'key = $2', [key])).toBe(1);
  });

  it('replays a cancellation with 200 instead of answering 409', async () => {
    const receipt = await recordReceipt(t, tenant, { amount: 10 });
    const key = randomUUID();
    const first = await post(
      t,
      tenant,
      `/receipts/${receipt.id}/cancel`,
      { reason: 'Duplicate entry' },
      { idempotencyKey: key },
    );
    expect(first.status).toBe(200);
    expect(first.body.status).toBe('CANCELLED');
    const replay = await post(
      t,
      tenant,
      `/receipts/${receipt.id}/cancel`,
      { reason: 'Duplicate entry' },
      { idempotencyKey: key },
    );
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(first.body);
    const noKey = await post(t, tenant, `/receipts/${receipt.id}/cancel`, {
      reason: 'Duplicate entry',
    });
    expect(noKey.status).toBe(409);
  });

  it('replays demands and issued numbers', async () => {
    const booking = await createBooking(t, tenant);
    const key = randomUUID();
    const body = demandBody(booking.id, { splits: [split(10), split(20)] });
    const first = await post(t, tenant, '/demands', body, { idempotencyKey: key });
    expect(first.status).toBe(201);
    const replay = await post(t, tenant, '/demands', body, { idempotencyKey: key });
    expect(replay.body).toEqual(first.body);
    expect(await count('demands', 'booking_id = $2', [booking.id])).toBe(1);

    const snagKey = randomUUID();
    const snag = await post(t, tenant, '/numbers/snag', {}, { idempotencyKey: snagKey });
    expect(snag.status).toBe(201);
    const snagReplay = await post(t, tenant, '/numbers/snag', {}, { idempotencyKey: snagKey });
    expect(snagReplay.status).toBe(201);
    expect(snagReplay.body).toEqual(snag.body);
    const next = await post(t, tenant, '/numbers/snag', {});
    const seq = (n: string) => Number(n.split('/')[2]);
    expect(seq(next.body.number)).toBe(seq(snag.body.number) + 1);
  });

  it('keeps keys per tenant: another tenant may use the same key', async () => {
    const key = randomUUID();
    const mine = await post(t, tenant, '/bookings', bookingBody(), { idempotencyKey: key });
    const theirs = await post(t, other, '/bookings', bookingBody(), { idempotencyKey: key });
    expect(mine.status).toBe(201);
    expect(theirs.status).toBe(201);
    expect(theirs.body.id).not.toBe(mine.body.id);
  });

  it('serialises concurrent requests with one key: one receipt, identical answers', async () => {
    const demand = await createDemand(t, tenant, { splits: [split(1000)] });
    const key = randomUUID();
    const body = receiptBody(demand.splits[0].id, { amount: 10 });
    const responses = await Promise.all(
      Array.from({ length: 8 }, () => post(t, tenant, '/receipts', body, { idempotencyKey: key })),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(8).fill(201));
    expect(new Set(responses.map((r) => r.body.id)).size).toBe(1);
    expect(await count('receipts', 'demand_split_id = $2', [demand.splits[0].id])).toBe(1);
  });

  it.each([
    ['empty', ''],
    // Node trims header values: only spaces arrive empty, never as "no key".
    ['only spaces', '   '],
    ['longer than 200 characters', 'k'.repeat(201)],
    ['with a control character', 'abc\tdef'],
  ])('refuses a key that is %s with 400', async (_what, key) => {
    const res = await request(t.server)
      .post('/bookings')
      .set(as(tenant))
      .set('Idempotency-Key', key)
      .send(bookingBody());
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('IDEMPOTENCY_KEY_INVALID');
  });

  it('accepts a key of exactly 200 printable characters', async () => {
    const res = await post(t, tenant, '/bookings', bookingBody(), {
      idempotencyKey: 'K~ '.repeat(66) + 'ab',
    });
    expect(res.status).toBe(201);
  });

  it('documents the header on every creating POST', async () => {
    const doc = await request(t.server).get('/docs-json');
    expect(doc.status).toBe(200);
    const ops = [
      ['/bookings', 'post'],
      ['/demands', 'post'],
      ['/receipts', 'post'],
      ['/receipts/{id}/cancel', 'post'],
      ['/numbers/{documentType}', 'post'],
    ];
    for (const [path, method] of ops) {
      const params = doc.body.paths[path][method].parameters as { name: string; in: string }[];
      expect(params).toContainEqual(
        expect.objectContaining({ name: 'Idempotency-Key', in: 'header' }),
      );
    }
  });
});
