import request from 'supertest';
import { DataSource } from 'typeorm';
import { Tenant } from '@/http/tenancy/tenant.entity';
import {
  cancelReceipt,
  createBooking,
  createDemand,
  get,
  post,
  receiptBody,
  recordReceipt,
  split,
} from './support/factories';
import { HousekeepingService } from '@/housekeeping/housekeeping.service';
import { createTestApp, ownerDataSource, TestApp } from './support/test-app';
import { as } from './support/tokens';

interface EventView {
  id: string;
  sequence: number;
  type: string;
  occurredAt: string;
  actor: string;
  data: { id: string } & Record<string, unknown>;
}
interface EventPage {
  events: EventView[];
  nextAfter: number;
}

/** The transactional outbox and GET /events (docs/api.md, Events). */
describe('events: the outbox and its feed', () => {
  let t: TestApp;
  let db: DataSource;
  let tenant: Tenant;
  let other: Tenant;

  const feed = async (key: string, query = '') => {
    const res = await request(t.server).get(`/events${query}`).set(as(key));
    if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
    return res.body as EventPage;
  };
  /** Every event after `after`, following nextAfter page by page. */
  const drain = async (key: string, after: number, extra = '') => {
    const events: EventView[] = [];
    let cursor = after;
    for (;;) {
      const page = await feed(key, `?after=${cursor}&limit=7${extra}`);
      events.push(...page.events);
      if (page.nextAfter === cursor) return { events, cursor };
      cursor = page.nextAfter;
    }
  };
  const lastSequence = async (key: string) => (await drain(key, 0)).cursor;

  beforeAll(async () => {
    t = await createTestApp();
    db = await ownerDataSource(t.ownerUrl);
    tenant = await t.createTenant();
    other = await t.createTenant();
  });
  afterAll(async () => {
    await db?.destroy();
    await t?.close();
  });

  it('writes one event per change, with data equal to the GET of the record', async () => {
    const start = await lastSequence(tenant.key);
    const booking = await createBooking(t, tenant.key);
    const demand = await createDemand(t, tenant.key, {
      booking: booking.id,
      splits: [split(1000)],
    });
    const receipt = await recordReceipt(t, tenant.key, {
      demandSplit: demand.splits[0].id,
      amount: 400,
      paymentMode: 'CHEQUE',
    });
    const cancelled = await recordReceipt(t, tenant.key, {
      demandSplit: demand.splits[0].id,
      amount: 1,
    });
    await cancelReceipt(t, tenant.key, cancelled.id);
    const bounce = await post(t, tenant.key, `/receipts/${receipt.id}/bounce`, {
      reason: 'Insufficient funds',
      bouncedOn: '2026-11-25',
      charges: 250,
    });
    expect(bounce.status).toBe(200);

    const { events } = await drain(tenant.key, start);
    expect(events.map((e) => e.type)).toEqual([
      'booking.created',
      'demand.created',
      'receipt.recorded',
      'receipt.recorded',
      'receipt.cancelled',
      'receipt.bounced',
      'demand.created',
    ]);
    expect(events.map((e) => e.sequence)).toEqual(events.map((_, i) => start + i + 1));
    const paths: Record<string, string> = {
      booking: '/bookings',
      demand: '/demands',
      receipt: '/receipts',
    };
    for (const e of events) {
      const path = paths[e.type.split('.')[0]];
      const now = (await get(t, tenant.key, `${path}/${e.data.id}`)).body as Record<
        string,
        unknown
      >;
      if (e === events.at(-1) || e.type === 'receipt.bounced') {
        expect(e.data).toEqual(now); // nothing changed them since
      } else {
        expect(e.data.id).toBe(now.id);
      }
      expect(e.actor).toBe('tester');
      expect(Date.parse(e.occurredAt)).not.toBeNaN();
    }
    expect(events[0].data).toEqual((await get(t, tenant.key, `/bookings/${booking.id}`)).body);
    expect(events[6].data).toEqual(bounce.body.chargesDemand);
  });

  it('a booking cancel writes booking.cancelled and one demand.cancelled per demand', async () => {
    const booking = await createBooking(t, tenant.key);
    const d1 = await createDemand(t, tenant.key, { booking: booking.id });
    const d2 = await createDemand(t, tenant.key, { booking: booking.id });
    const start = await lastSequence(tenant.key);
    expect(
      (await post(t, tenant.key, `/bookings/${booking.id}/cancel`, { reason: 'x' })).status,
    ).toBe(200);
    const { events } = await drain(tenant.key, start);
    expect(events.map((e) => e.type)).toEqual([
      'booking.cancelled',
      'demand.cancelled',
      'demand.cancelled',
    ]);
    expect(
      events
        .slice(1)
        .map((e) => e.data.id)
        .sort(),
    ).toEqual([d1.id, d2.id].sort());
    expect(events.slice(1).every((e) => e.data.status === 'CANCELLED')).toBe(true);
  });

  it('writes nothing for a change that fails or is rolled back, or for a replay', async () => {
    const demand = await createDemand(t, tenant.key, { splits: [split(100)] });
    const start = await lastSequence(tenant.key);
    // 422 (over the pending amount), 409 (cancel twice), 404 (another tenant's split), 400.
    expect(
      (await post(t, tenant.key, '/receipts', receiptBody(demand.splits[0].id, { amount: 101 })))
        .status,
    ).toBe(422);
    const r = await recordReceipt(t, tenant.key, { demandSplit: demand.splits[0].id, amount: 10 });
    await cancelReceipt(t, tenant.key, r.id);
    expect(
      (await post(t, tenant.key, `/receipts/${r.id}/cancel`, { reason: 'again' })).status,
    ).toBe(409);
    expect((await post(t, other.key, '/receipts', receiptBody(demand.splits[0].id))).status).toBe(
      404,
    );
    expect((await post(t, tenant.key, '/bookings', { unit: 'x' })).status).toBe(400);
    // A replayed Idempotency-Key returns the original and writes no second event.
    const body = receiptBody(demand.splits[0].id, { amount: 5 });
    await post(t, tenant.key, '/receipts', body, { idempotencyKey: 'events-replay-1' });
    await post(t, tenant.key, '/receipts', body, { idempotencyKey: 'events-replay-1' });
    const { events } = await drain(tenant.key, start);
    expect(events.map((e) => e.type)).toEqual([
      'receipt.recorded',
      'receipt.cancelled',
      'receipt.recorded',
    ]);
    // No stray rows either: every stored event of the tenant is one the feed numbers (the
    // rollback after recording is the next test).
    const [{ n }] = await db.query<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM events WHERE tenant_id = $1`,
      [tenant.id],
    );
    expect(n).toBe(await lastSequence(tenant.key));
  });

  it('a change rolled back after it recorded its event leaves no event (the sequence row locked)', async () => {
    const start = await lastSequence(other.key);
    const runner = db.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    try {
      // Hold the tenant's sequence row: the request's last statement waits on it until its
      // lock_timeout, and the whole request rolls back (503), booking included.
      await runner.query(
        `INSERT INTO event_sequences (tenant_id, last_sequence) VALUES ($1, 0)
         ON CONFLICT (tenant_id) DO UPDATE SET last_sequence = event_sequences.last_sequence`,
        [other.id],
      );
      const res = await post(t, other.key, '/bookings', {
        unit: '4f1d2c3b-6a7e-4b8c-9d0e-1f2a3b4c5d6e',
        buyerName: 'Rolled Back',
        bookingDate: '2026-11-22',
      });
      expect(res.status).toBe(503);
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
    const [{ n }] = await db.query<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM bookings WHERE tenant_id = $1 AND buyer_name = 'Rolled Back'`,
      [other.id],
    );
    expect(n).toBe(0);
    expect((await drain(other.key, start)).events).toEqual([]);
  });

  it('a reader following nextAfter sees every event exactly once, in order, under concurrent writers on two instances', async () => {
    // A second application instance on the same database: half the writers and the reader use it.
    const t2 = await createTestApp();
    const feed2 = async (query: string) => {
      const res = await request(t2.server).get(`/events${query}`).set(as(tenant.key));
      if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
      return res.body as EventPage;
    };
    try {
      for (let round = 0; round < 3; round++) {
        const start = await lastSequence(tenant.key);
        const seen: EventView[] = [];
        let cursor = start;
        let writing = true;
        const reader = (async () => {
          while (writing || cursor < start + 40) {
            const page = await feed2(`?after=${cursor}&limit=5`);
            seen.push(...page.events);
            cursor = page.nextAfter;
          }
        })();
        await Promise.all(
          Array.from({ length: 8 }, async (_, w) => {
            for (let i = 0; i < 5; i++) await createBooking(w % 2 === 0 ? t : t2, tenant.key);
          }),
        );
        writing = false;
        await reader;
        expect(seen.map((e) => e.sequence)).toEqual(
          Array.from({ length: 40 }, (_, i) => start + i + 1),
        );
        expect(new Set(seen.map((e) => e.id)).size).toBe(40);
      }
    } finally {
      await t2.close();
    }
  });

  it('filters by type and still moves the cursor past what it scanned', async () => {
    const start = await lastSequence(tenant.key);
    await createBooking(t, tenant.key);
    const page = await feed(tenant.key, `?after=${start}&type=receipt.bounced,receipt.cancelled`);
    expect(page.events).toEqual([]);
    expect(page.nextAfter).toBe(start + 1);
    const empty = await feed(tenant.key, `?after=${start + 1}`);
    expect(empty).toEqual({ events: [], nextAfter: start + 1 });
    const bookings = await feed(tenant.key, `?after=${start - 1}&type=booking.created`);
    expect(bookings.events.map((e) => e.sequence)).toContain(start + 1);
  });

  it('purges events past the retention, oldest first, and answers 410 below them', async () => {
    const old = await t.createTenant();
    for (let i = 0; i < 3; i++) await createBooking(t, old.key);
    const age = (upTo: number) =>
      db.query(
        `UPDATE events SET occurred_at = now() - interval '100 days'
          WHERE tenant_id = $1 AND sequence <= $2`,
        [old.id, upTo],
      );
    const housekeeping = t.app.get(HousekeepingService);
    await age(2);
    expect((await housekeeping.purgeExpiredEvents()).removed).toBe(2);
    for (const after of [0, 1]) {
      const expired = await request(t.server).get(`/events?after=${after}`).set(as(old.key));
      expect(expired.status).toBe(410);
      expect(expired.body.code).toBe('EVENTS_EXPIRED');
      expect(expired.body.detail).toContain('the oldest kept is 3');
    }
    expect((await feed(old.key, '?after=2')).events.map((e) => e.sequence)).toEqual([3]);
    // Everything purged: the counter still tells where the feed stands.
    await age(3);
    expect((await housekeeping.purgeExpiredEvents()).removed).toBe(1);
    expect((await request(t.server).get('/events?after=2').set(as(old.key))).status).toBe(410);
    expect(await feed(old.key, '?after=3')).toEqual({ events: [], nextAfter: 3 });
    // Other tenants' recent events are untouched.
    expect((await feed(tenant.key, '?after=0&limit=1')).events[0].sequence).toBe(1);
  });

  it('keeps tenants apart and refuses bad parameters and the wrong scope', async () => {
    const mine = (await drain(tenant.key, 0)).events.map((e) => e.id);
    const theirs = (await drain(other.key, 0)).events.map((e) => e.id);
    expect(mine.filter((id) => theirs.includes(id))).toEqual([]);
    for (const [query, field] of [
      ['?after=-1', 'after'],
      ['?after=abc', 'after'],
      ['?limit=0', 'limit'],
      ['?limit=501', 'limit'],
      ['?type=receipt.deleted', 'type'],
      ['?type=', 'type'],
      ['?cursor=1', 'cursor'],
    ]) {
      const res = await request(t.server).get(`/events${query}`).set(as(tenant.key));
      expect(res.status).toBe(400);
      expect(res.body.errors[0].field).toBe(field);
    }
    const reader = await request(t.server)
      .get('/events')
      .set(as(tenant.key, { scope: 'receipts:read receipts:write' }));
    expect(reader.status).toBe(403);
  });
});
