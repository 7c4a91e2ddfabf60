import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import {
  createBooking,
  createDemand,
  DemandView,
  get,
  post,
  recordReceipt,
  receiptBody,
  split,
} from './support/factories';
import { createTestApp, ownerDataSource, TestApp } from './support/test-app';
import { as } from './support/tokens';

interface Receipt {
  id: string;
  demandSplit: string;
  demand: string;
  booking: string;
  receiptNumber: string;
  amount: { amount: number };
  paymentMode: string;
  transactionRef: string;
  receivedDate: string;
  status: string;
}

/** POST /bookings/{id}/payments (one payment over many dues). */
describe('POST /bookings/{id}/payments', () => {
  let t: TestApp;
  let db: DataSource;
  let tenant: string;
  let other: string;

  beforeAll(async () => {
    t = await createTestApp();
    db = await ownerDataSource(t.ownerUrl);
    tenant = (await t.createTenant()).key;
    other = (await t.createTenant()).key;
  });
  afterAll(async () => {
    await db?.destroy();
    await t?.close();
  });

  /**
   * A booking with three demands for one payer, due in an order unlike their creation order
   * (the middle one oldest), each with a second split for a co-buyer that the payer's payment
   * must not touch.
   */
  async function dues(key = tenant) {
    const booking = (await createBooking(t, key)).id;
    const payer = randomUUID();
    const coBuyer = randomUUID();
    const demand = (dueDate: string, amount: number) =>
      createDemand(t, key, {
        booking,
        dueDate,
        splits: [split(amount, 'BUYER', payer), split(999.99, 'CO_BUYER', coBuyer)],
      });
    const late = await demand('2027-03-01', 300.3);
    const oldest = await demand('2026-12-01', 100.1);
    const middle = await demand('2027-01-15', 200.2);
    const mine = (d: DemandView) => d.splits.find((s) => s.payerId === payer)!.id;
    return {
      booking,
      payer,
      coBuyer,
      demands: { oldest, middle, late },
      splits: { oldest: mine(oldest), middle: mine(middle), late: mine(late) },
    };
  }

  const body = (payerId: string, amount: number, allocation: unknown = 'OLDEST_DUE_FIRST') => ({
    payerId,
    amount,
    paymentMode: 'NEFT',
    transactionRef: `UTR-${randomUUID().slice(0, 8)}`,
    receivedDate: '2026-11-22',
    allocation,
  });

  const pay = (booking: string, payload: unknown, key = tenant, idempotencyKey?: string) =>
    post(t, key, `/bookings/${booking}/payments`, payload, { idempotencyKey });

  async function receiptsOf(booking: string): Promise<number> {
    const [row] = await db.query<{ n: number }[]>(
      'SELECT count(*)::int AS n FROM receipts WHERE booking_id = $1',
      [booking],
    );
    return row.n;
  }

  /** paid amount of each split id, as stored. */
  async function paid(ids: string[]): Promise<Record<string, string>> {
    const rows = await db.query<{ id: string; paid: string; amount: string }[]>(
      'SELECT id, paid_amount::text AS paid, amount::text AS amount FROM demand_splits WHERE id = ANY($1::uuid[])',
      [ids],
    );
    return Object.fromEntries(rows.map((r) => [r.id, r.paid]));
  }

  it('pays the oldest due first, across three splits, exactly in decimals', async () => {
    const d = await dues();
    const payload = body(d.payer, 350.35);
    const res = await pay(d.booking, payload);
    expect(res.status).toBe(201);
    expect(res.body.amount).toEqual({
      amount: 350.35,
      currency: 'INR',
      currencySymbol: '₹',
      formatted: '350.35',
    });
    const receipts = res.body.receipts as Receipt[];
    expect(receipts.map((r) => [r.demandSplit, r.amount.amount])).toEqual([
      [d.splits.oldest, 100.1],
      [d.splits.middle, 200.2],
      [d.splits.late, 50.05],
    ]);
    for (const r of receipts) {
      expect(r).toMatchObject({
        booking: d.booking,
        paymentMode: 'NEFT',
        transactionRef: payload.transactionRef,
        receivedDate: '2026-11-22',
        status: 'ACTIVE',
      });
      // Each is a normal receipt: GET /receipts/{id} answers the same.
      const read = await get(t, tenant, `/receipts/${r.id}`);
      expect(read.body).toEqual(r);
    }
    expect(new Set(receipts.map((r) => r.receiptNumber)).size).toBe(3);
    expect(await paid(Object.values(d.splits))).toEqual({
      [d.splits.oldest]: '100.10',
      [d.splits.middle]: '200.20',
      [d.splits.late]: '50.05',
    });
    const oldest = await get(t, tenant, `/demands/${d.demands.oldest.id}`);
    expect(oldest.body.status).toBe('PARTIALLY_PAID'); // the co-buyer's split is still open
    expect(oldest.body.receivedAmount.amount).toBe(100.1);
    const late = await get(t, tenant, `/demands/${d.demands.late.id}`);
    expect(late.body.pendingAmount.amount).toBe(1250.24);

    // What is left is exactly the rest of the late split: paying one cent more is refused.
    const more = await pay(d.booking, body(d.payer, 250.26));
    expect(more.status).toBe(422);
    expect(more.body.code).toBe('PAYMENT_EXCEEDS_OUTSTANDING');
    const rest = await pay(d.booking, body(d.payer, 250.25));
    expect(rest.status).toBe(201);
    expect(rest.body.receipts.map((r: Receipt) => [r.demandSplit, r.amount.amount])).toEqual([
      [d.splits.late, 250.25],
    ]);
  });

  it('skips paid and cancelled splits and orders equal due dates by demand number', async () => {
    const booking = (await createBooking(t, tenant)).id;
    const payer = randomUUID();
    const make = () =>
      createDemand(t, tenant, {
        booking,
        dueDate: '2026-12-01',
        splits: [split(10, 'BUYER', payer)],
      });
    const first = await make();
    const second = await make();
    const third = await make();
    await recordReceipt(t, tenant, receiptBody(first.splits[0].id, { amount: 10 }));
    const cancelled = await post(t, tenant, `/demands/${second.id}/cancel`, { reason: 'wrong' });
    expect(cancelled.status).toBe(200);
    const fourth = await make();
    const res = await pay(booking, body(payer, 15));
    expect(res.status).toBe(201);
    expect(res.body.receipts.map((r: Receipt) => [r.demandSplit, r.amount.amount])).toEqual([
      [third.splits[0].id, 10],
      [fourth.splits[0].id, 5],
    ]);
  });

  it('pays exactly as listed', async () => {
    const d = await dues();
    const payload = body(d.payer, 75.5, [
      { demandSplit: d.splits.late, amount: 70.25 },
      { demandSplit: d.splits.oldest, amount: 5.25 },
    ]);
    const res = await pay(d.booking, payload);
    expect(res.status).toBe(201);
    expect(res.body.amount.amount).toBe(75.5);
    expect(res.body.receipts.map((r: Receipt) => [r.demandSplit, r.amount.amount])).toEqual([
      [d.splits.late, 70.25],
      [d.splits.oldest, 5.25],
    ]);
    expect(res.body.receipts.map((r: Receipt) => r.transactionRef)).toEqual([
      payload.transactionRef,
      payload.transactionRef,
    ]);
    expect(await paid(Object.values(d.splits))).toEqual({
      [d.splits.oldest]: '5.25',
      [d.splits.middle]: '0.00',
      [d.splits.late]: '70.25',
    });
  });

  describe('refusals record nothing', () => {
    async function refused(
      booking: string,
      payload: unknown,
      status: number,
      code: string,
      key = tenant,
    ) {
      const before = await receiptsOf(booking);
      const res = await pay(booking, payload, key);
      expect(res.status).toBe(status);
      expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(res.body.code).toBe(code);
      expect(await receiptsOf(booking)).toBe(before);
      return res;
    }

    it('422 PAYMENT_EXCEEDS_OUTSTANDING: more than the payer owes on the booking', async () => {
      const d = await dues();
      await refused(d.booking, body(d.payer, 600.61), 422, 'PAYMENT_EXCEEDS_OUTSTANDING');
      // A payer with nothing on the booking owes nothing.
      await refused(d.booking, body(randomUUID(), 1), 422, 'PAYMENT_EXCEEDS_OUTSTANDING');
      expect(await paid(Object.values(d.splits))).toEqual({
        [d.splits.oldest]: '0.00',
        [d.splits.middle]: '0.00',
        [d.splits.late]: '0.00',
      });
    });

    it("422 PAYMENT_EXCEEDS_OUTSTANDING: a listed amount above its split's pending", async () => {
      const d = await dues();
      await refused(
        d.booking,
        body(d.payer, 101.11, [
          { demandSplit: d.splits.late, amount: 1 },
          { demandSplit: d.splits.oldest, amount: 100.11 },
        ]),
        422,
        'PAYMENT_EXCEEDS_OUTSTANDING',
      );
      expect((await paid([d.splits.late]))[d.splits.late]).toBe('0.00');
    });

    it('422 ALLOCATION_MISMATCH: listed amounts do not add up to amount', async () => {
      const d = await dues();
      const res = await refused(
        d.booking,
        body(d.payer, 30, [
          { demandSplit: d.splits.oldest, amount: 10.1 },
          { demandSplit: d.splits.middle, amount: 19.91 },
        ]),
        422,
        'ALLOCATION_MISMATCH',
      );
      expect(res.body.detail).toContain('30.01');
    });

    it('422 ALLOCATION_INVALID: a split of another payer, booking, a cancelled one, or twice', async () => {
      const d = await dues();
      const elsewhere = await dues();
      const coBuyerSplit = d.demands.oldest.splits.find((s) => s.payerId === d.coBuyer)!.id;
      await refused(
        d.booking,
        body(d.payer, 2, [
          { demandSplit: d.splits.oldest, amount: 1 },
          { demandSplit: coBuyerSplit, amount: 1 },
        ]),
        422,
        'ALLOCATION_INVALID',
      );
      // The other booking's split, even for the same payer id.
      const sameIdElsewhere = await createDemand(t, tenant, {
        booking: elsewhere.booking,
        splits: [split(50, 'BUYER', d.payer)],
      });
      await refused(
        d.booking,
        body(d.payer, 1, [{ demandSplit: sameIdElsewhere.splits[0].id, amount: 1 }]),
        422,
        'ALLOCATION_INVALID',
      );
      await refused(
        d.booking,
        body(d.payer, 1, [{ demandSplit: randomUUID(), amount: 1 }]),
        422,
        'ALLOCATION_INVALID',
      );
      await refused(
        d.booking,
        body(d.payer, 2, [
          { demandSplit: d.splits.oldest, amount: 1 },
          { demandSplit: d.splits.oldest, amount: 1 },
        ]),
        422,
        'ALLOCATION_INVALID',
      );
      const cancel = await post(t, tenant, `/demands/${d.demands.middle.id}/cancel`, {
        reason: 'raised twice',
      });
      expect(cancel.status).toBe(200);
      await refused(
        d.booking,
        body(d.payer, 1, [{ demandSplit: d.splits.middle, amount: 1 }]),
        422,
        'ALLOCATION_INVALID',
      );
      expect((await paid([d.splits.oldest]))[d.splits.oldest]).toBe('0.00');
    });

    it('409 BOOKING_CANCELLED and 404 BOOKING_NOT_FOUND', async () => {
      const booking = (await createBooking(t, tenant)).id;
      const cancel = await post(t, tenant, `/bookings/${booking}/cancel`, { reason: 'withdrawn' });
      expect(cancel.status).toBe(200);
      await refused(booking, body(randomUUID(), 1), 409, 'BOOKING_CANCELLED');
      await refused(randomUUID(), body(randomUUID(), 1), 404, 'BOOKING_NOT_FOUND');
    });

    it.each([
      ['more than 100 allocation entries', { allocation: 'many' }, 'allocation'],
      ['an empty allocation', { allocation: [] }, 'allocation'],
      ['an unknown allocation keyword', { allocation: 'NEWEST_FIRST' }, 'allocation'],
      [
        'an entry amount of 0',
        { allocation: [{ demandSplit: randomUUID(), amount: 0 }] },
        'allocation',
      ],
      [
        'an entry with 3 decimals',
        { allocation: [{ demandSplit: randomUUID(), amount: 1.001 }] },
        'allocation',
      ],
      [
        'an entry split that is not a UUID',
        { allocation: [{ demandSplit: 'x', amount: 1 }] },
        'allocation',
      ],
      [
        'an unknown entry field',
        { allocation: [{ demandSplit: randomUUID(), amount: 1, note: 'x' }] },
        'allocation',
      ],
      ['an amount of 0', { amount: 0 }, 'amount'],
      ['a payerId that is not a UUID', { payerId: '42' }, 'payerId'],
      ['an unknown payment mode', { paymentMode: 'BITCOIN' }, 'paymentMode'],
      ['an impossible date', { receivedDate: '2026-02-30' }, 'receivedDate'],
    ])('400 for %s, recording nothing', async (_what, override, field) => {
      const d = await dues();
      const payload: Record<string, unknown> = { ...body(d.payer, 1), ...override };
      if (payload.allocation === 'many') {
        payload.allocation = Array.from({ length: 101 }, () => ({
          demandSplit: d.splits.oldest,
          amount: 0.01,
        }));
        payload.amount = 1.01;
      }
      const res = await refused(d.booking, payload, 400, 'VALIDATION_FAILED');
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    });

    it('accepts exactly 100 allocation entries as far as validation goes', async () => {
      const d = await dues();
      const allocation = Array.from({ length: 100 }, () => ({
        demandSplit: d.splits.oldest,
        amount: 0.01,
      }));
      // Valid input: the repeated split is the business refusal, not a 400.
      await refused(d.booking, body(d.payer, 1, allocation), 422, 'ALLOCATION_INVALID');
    });
  });

  it('writes one receipt.recorded event per receipt, none on a refusal', async () => {
    const key = (await t.createTenant()).key;
    const d = await dues(key);
    const events = async () => {
      const res = await request(t.server).get('/events?after=0&limit=100').set(as(key));
      expect(res.status).toBe(200);
      return res.body.events as { type: string; data: { id: string } }[];
    };
    const before = (await events()).length;
    const res = await pay(d.booking, body(d.payer, 300.3), key);
    expect(res.status).toBe(201);
    const refused = await pay(d.booking, body(d.payer, 1000), key);
    expect(refused.status).toBe(422);
    const after = (await events()).slice(before);
    expect(after.map((e) => [e.type, e.data.id])).toEqual(
      (res.body.receipts as Receipt[]).map((r) => ['receipt.recorded', r.id]),
    );
  });

  it('replays an Idempotency-Key: the same receipts, none created', async () => {
    const d = await dues();
    const key = randomUUID();
    const payload = body(d.payer, 150);
    const first = await pay(d.booking, payload, tenant, key);
    expect(first.status).toBe(201);
    expect(first.body.receipts).toHaveLength(2);
    const count = await receiptsOf(d.booking);
    const again = await pay(d.booking, payload, tenant, key);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(await receiptsOf(d.booking)).toBe(count);
    expect(await paid([d.splits.oldest, d.splits.middle])).toEqual({
      [d.splits.oldest]: '100.10',
      [d.splits.middle]: '49.90',
    });
    const otherBody = await pay(d.booking, { ...payload, amount: 1 }, tenant, key);
    expect(otherBody.status).toBe(422);
    expect(await receiptsOf(d.booking)).toBe(count);
  });

  describe('concurrency', () => {
    it('five parallel payments of the whole outstanding: one succeeds, no split overpaid', async () => {
      const d = await dues();
      const results = await Promise.all(
        Array.from({ length: 5 }, () => pay(d.booking, body(d.payer, 600.6))),
      );
      const statuses = results.map((r) => r.status).sort();
      expect(statuses).toEqual([201, 422, 422, 422, 422]);
      for (const r of results.filter((x) => x.status === 422)) {
        expect(r.body.code).toBe('PAYMENT_EXCEEDS_OUTSTANDING');
      }
      expect(await receiptsOf(d.booking)).toBe(3);
      expect(await paid(Object.values(d.splits))).toEqual({
        [d.splits.oldest]: '100.10',
        [d.splits.middle]: '200.20',
        [d.splits.late]: '300.30',
      });
    });

    it('parallel partial payments and receipts never pay a split more than it owes', async () => {
      const d = await dues();
      const results = await Promise.all([
        ...Array.from({ length: 4 }, () => pay(d.booking, body(d.payer, 250))),
        // Listed in opposite orders: fixed lock order, so no deadlock.
        pay(
          d.booking,
          body(d.payer, 100, [
            { demandSplit: d.splits.late, amount: 50 },
            { demandSplit: d.splits.oldest, amount: 50 },
          ]),
        ),
        pay(
          d.booking,
          body(d.payer, 100, [
            { demandSplit: d.splits.oldest, amount: 50 },
            { demandSplit: d.splits.late, amount: 50 },
          ]),
        ),
        post(t, tenant, '/receipts', receiptBody(d.splits.middle, { amount: 150 })),
      ]);
      for (const r of results) expect([201, 409, 422]).toContain(r.status);
      expect(results.some((r) => r.status === 201)).toBe(true);
      const rows = await db.query<{ id: string; paid: string; amount: string; receipts: string }[]>(
        `SELECT s.id, s.paid_amount::text AS paid, s.amount::text AS amount,
                (SELECT coalesce(sum(r.amount), 0)::text FROM receipts r
                  WHERE r.demand_split_id = s.id AND r.status = 'ACTIVE') AS receipts
           FROM demand_splits s WHERE s.id = ANY($1::uuid[])`,
        [Object.values(d.splits)],
      );
      for (const row of rows) {
        expect(Number(row.paid)).toBeLessThanOrEqual(Number(row.amount));
        expect(row.receipts).toBe(row.paid);
      }
      const accepted = results
        .filter((r) => r.status === 201)
        .reduce((sum, r) => sum + Math.round((r.body.amount.amount as number) * 100), 0);
      const paidCents = rows.reduce((sum, r) => sum + Math.round(Number(r.paid) * 100), 0);
      expect(paidCents).toBe(accepted);
      expect(paidCents).toBeLessThanOrEqual(60060);
    });
  });

  describe('tenancy and scope', () => {
    it("another tenant's booking is 404 and records nothing", async () => {
      const d = await dues(other);
      const before = await receiptsOf(d.booking);
      const res = await pay(d.booking, body(d.payer, 1));
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('BOOKING_NOT_FOUND');
      expect(await receiptsOf(d.booking)).toBe(before);
    });

    it("another tenant's split in an allocation is 422 ALLOCATION_INVALID", async () => {
      const mine = await dues();
      const theirs = await dues(other);
      const before = await receiptsOf(theirs.booking);
      const res = await pay(
        mine.booking,
        body(mine.payer, 2, [
          { demandSplit: mine.splits.oldest, amount: 1 },
          { demandSplit: theirs.splits.oldest, amount: 1 },
        ]),
      );
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('ALLOCATION_INVALID');
      expect(await receiptsOf(theirs.booking)).toBe(before);
      expect(await receiptsOf(mine.booking)).toBe(0);
      expect((await paid([theirs.splits.oldest]))[theirs.splits.oldest]).toBe('0.00');
    });

    it('needs receipts:write (receipts:read only is 403) and records nothing', async () => {
      const d = await dues();
      const res = await request(t.server)
        .post(`/bookings/${d.booking}/payments`)
        .set(as(tenant, { scope: 'receipts:read' }))
        .send(body(d.payer, 1));
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('INSUFFICIENT_SCOPE');
      expect(await receiptsOf(d.booking)).toBe(0);
    });

    it('a booking id that is not a UUID is 400', async () => {
      const res = await pay('not-a-uuid', body(randomUUID(), 1));
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
    });
  });
});
