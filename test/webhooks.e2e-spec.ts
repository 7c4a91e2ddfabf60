import request from 'supertest';
import { promises as dnsPromises } from 'node:dns';
import { setTimeout as sleep } from 'node:timers/promises';
import { DataSource } from 'typeorm';
import { Tenant } from '@/http/tenancy/tenant.entity';
import { HousekeepingService } from '@/housekeeping/housekeeping.service';
import { verifySignature } from '@/webhooks/webhook-signature';
import { createBooking, createDemand, get, post, recordReceipt, split } from './support/factories';
import { createTestApp, ownerDataSource, TestApp } from './support/test-app';
import { as } from './support/tokens';
import { WebhookReceiver } from './support/webhook-receiver';

interface Webhook {
  id: string;
  url: string;
  events: string[];
  enabled: boolean;
  disabledReason: string | null;
  deliveredThrough: number;
  failingAttempts: number;
  nextAttemptAt: string | null;
  lastError: string | null;
  secret?: string;
}
interface Delivery {
  id: number;
  eventId: string;
  eventSequence: number;
  attempt: number;
  outcome: string;
  statusCode: number | null;
  error: string | null;
  nextRetryAt: string | null;
}

/** Retries in a fraction of a second, so a whole schedule runs in a test. */
const DELIVERY_ENV = {
  WEBHOOK_DELIVERY_ENABLED: 'true',
  WEBHOOK_RETRY_SCHEDULE: '300ms,300ms,300ms',
  WEBHOOK_TIMEOUT_MS: '1000',
  WEBHOOK_POLL_INTERVAL_MS: '100',
};

/** Webhooks (docs/api.md): subscriptions, signed ordered delivery, retries, the SSRF guard. */
describe('webhooks', () => {
  let t: TestApp;
  let db: DataSource;
  let receiver: WebhookReceiver;
  let tenant: Tenant;
  let other: Tenant;

  const subscribe = async (key: string, body: Record<string, unknown>) => {
    const res = await post(t, key, '/webhooks', body);
    if (res.status !== 201) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
    return res.body as Webhook;
  };
  const webhook = async (key: string, id: string) =>
    (await get(t, key, `/webhooks/${id}`)).body as Webhook;
  const deliveries = async (key: string, id: string) =>
    (await get(t, key, `/webhooks/${id}/deliveries?limit=200`)).body as {
      deliveries: Delivery[];
      nextAfter: number;
    };
  const patch = (key: string, id: string, body: unknown) =>
    request(t.server)
      .patch(`/webhooks/${id}`)
      .set(as(key))
      .send(body as object);
  /** A demand of one split to pay receipts against. */
  const payable = async (key: string) =>
    (await createDemand(t, key, { splits: [split(1_000_000)] })).splits[0].id;
  const until = async (what: string, check: () => Promise<boolean>, timeoutMs = 15_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await sleep(50);
    }
  };

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    t = await createTestApp(DELIVERY_ENV);
    db = await ownerDataSource(t.ownerUrl);
    tenant = await t.createTenant();
    other = await t.createTenant();
  });
  afterAll(async () => {
    await t?.close();
    await db?.destroy();
    await receiver?.stop();
  });

  describe('managing subscriptions', () => {
    it('creates with a secret shown once, lists, reads, changes and deletes', async () => {
      const created = await subscribe(tenant.key, {
        url: receiver.url('/crud'),
        events: ['receipt.recorded'],
        description: 'ERP',
      });
      expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(created).toMatchObject({
        enabled: true,
        events: ['receipt.recorded'],
        failingAttempts: 0,
      });
      const read = await webhook(tenant.key, created.id);
      expect(read).not.toHaveProperty('secret');
      expect(read).toEqual({ ...created, secret: undefined });
      const list = (await get(t, tenant.key, '/webhooks')).body as { webhooks: Webhook[] };
      expect(list.webhooks.map((w) => w.id)).toContain(created.id);
      expect(list.webhooks.every((w) => !('secret' in w))).toBe(true);

      const changed = await patch(tenant.key, created.id, {
        events: ['*'],
        description: null,
        enabled: false,
      });
      expect(changed.status).toBe(200);
      expect(changed.body).toMatchObject({
        events: ['*'],
        description: null,
        enabled: false,
        disabledReason: 'DISABLED_BY_USER',
      });
      const enabled = await patch(tenant.key, created.id, { enabled: true });
      expect(enabled.body).toMatchObject({ enabled: true, disabledReason: null });

      const deleted = await request(t.server).delete(`/webhooks/${created.id}`).set(as(tenant.key));
      expect(deleted.status).toBe(204);
      expect((await get(t, tenant.key, `/webhooks/${created.id}`)).status).toBe(404);
      const after = (await get(t, tenant.key, '/webhooks')).body as { webhooks: Webhook[] };
      expect(after.webhooks.map((w) => w.id)).not.toContain(created.id);
    });

    it.each([
      ['events', null],
      ['events', 'receipt.recorded'],
      ['events', [1]],
      ['url', null],
      ['url', 42],
      ['enabled', null],
      ['enabled', 'yes'],
      ['description', 7],
    ])('PATCH with %s = %j is 400 naming the field, and changes nothing', async (field, value) => {
      const sub = await subscribe(tenant.key, { url: receiver.url('/typed'), events: ['*'] });
      const res = await patch(tenant.key, sub.id, { [field]: value });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect((res.body.errors as { field: string }[]).map((e) => e.field)).toContain(field);
      expect(await webhook(tenant.key, sub.id)).toEqual({ ...sub, secret: undefined });
    });

    it('another tenant cannot see, change, rotate, read the deliveries of or delete it', async () => {
      const mine = await subscribe(tenant.key, { url: receiver.url('/private'), events: ['*'] });
      const theirs = (path: string) => get(t, other.key, path);
      expect((await theirs(`/webhooks/${mine.id}`)).body.code).toBe('WEBHOOK_NOT_FOUND');
      expect((await theirs(`/webhooks/${mine.id}/deliveries`)).status).toBe(404);
      expect((await patch(other.key, mine.id, { enabled: false })).status).toBe(404);
      expect((await post(t, other.key, `/webhooks/${mine.id}/rotate-secret`, {})).status).toBe(404);
      expect(
        (await request(t.server).delete(`/webhooks/${mine.id}`).set(as(other.key))).status,
      ).toBe(404);
      const list = (await theirs('/webhooks')).body as { webhooks: Webhook[] };
      expect(list.webhooks.map((w) => w.id)).not.toContain(mine.id);
      expect((await webhook(tenant.key, mine.id)).enabled).toBe(true);
      await request(t.server).delete(`/webhooks/${mine.id}`).set(as(tenant.key)).expect(204);
    });

    it('needs the webhooks:write scope', async () => {
      const res = await request(t.server)
        .get('/webhooks')
        .set(as(tenant.key, { scope: 'receipts:read receipts:write events:read' }));
      expect(res.status).toBe(403);
    });

    it.each([
      [{ url: 'ftp://example.com/x', events: ['*'] }, 'VALIDATION_FAILED', 'url'],
      [{ url: 'not a url', events: ['*'] }, 'VALIDATION_FAILED', 'url'],
      [{ url: 'http://u:p@127.0.0.1/x', events: ['*'] }, 'VALIDATION_FAILED', 'url'],
      [{ url: 'http://127.0.0.1/x', events: ['receipt.eaten'] }, 'VALIDATION_FAILED', 'events'],
      [{ url: 'http://127.0.0.1/x', events: [] }, 'VALIDATION_FAILED', 'events'],
      [
        { url: 'http://127.0.0.1/x', events: ['*', 'receipt.recorded'] },
        'VALIDATION_FAILED',
        'events',
      ],
      [{ url: 'http://127.0.0.1/x' }, 'VALIDATION_FAILED', 'events'],
      [{ url: 'http://127.0.0.1/x', events: ['*'], extra: 1 }, 'VALIDATION_FAILED', 'extra'],
      [{ url: 'http://nothing.invalid/x', events: ['*'] }, 'WEBHOOK_URL_UNRESOLVABLE', 'url'],
    ])('refuses %j with 400 %s naming %s', async (body, code, field) => {
      const res = await post(t, tenant.key, '/webhooks', body);
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(res.body.code).toBe(code);
      expect((res.body.errors as { field: string }[]).map((e) => e.field)).toContain(field);
    });

    it.each([
      ['POST /webhooks', 'create'],
      ['PATCH /webhooks/{id}', 'patch'],
    ])(
      '%s resolves the host before its transaction: a slow resolver holds no connection',
      async (_, route) => {
        const existing =
          route === 'patch'
            ? await subscribe(tenant.key, { url: receiver.url('/dns'), events: ['*'] })
            : null;
        let resolving!: () => void;
        const started = new Promise<void>((resolve) => (resolving = resolve));
        let answer!: () => void;
        const answered = new Promise<void>((resolve) => (answer = resolve));
        const lookup = jest.spyOn(dnsPromises, 'lookup').mockImplementation((async () => {
          resolving();
          await answered;
          return [{ address: '93.184.216.34', family: 4 }];
        }) as unknown as typeof dnsPromises.lookup);
        try {
          const body = { url: 'https://slow-resolver.example.com/hooks', events: ['*'] };
          const pending = (
            existing
              ? request(t.server).patch(`/webhooks/${existing.id}`).set(as(tenant.key)).send(body)
              : post(t, tenant.key, '/webhooks', body)
          ).then((res) => res);
          await started;
          // While the resolver is busy, this database has no transaction of the service open.
          const open = await db.query<{ n: number }[]>(
            `SELECT count(*)::int AS n FROM pg_stat_activity
              WHERE datname = current_database() AND application_name = 'finance-service'
                AND state LIKE 'idle in transaction%'`,
          );
          answer();
          const res = await pending;
          expect(res.status).toBe(existing ? 200 : 201);
          expect(res.body.url).toBe(body.url);
          expect(open[0].n).toBe(0);
        } finally {
          lookup.mockRestore();
        }
      },
    );

    it('refuses bad paging of deliveries and bad ids', async () => {
      const mine = await subscribe(tenant.key, { url: receiver.url('/paging'), events: ['*'] });
      for (const query of ['limit=0', 'limit=201', 'after=-1', 'after=x']) {
        const res = await get(t, tenant.key, `/webhooks/${mine.id}/deliveries?${query}`);
        expect(res.status).toBe(400);
        expect(res.body.errors[0].field).toBe(query.split('=')[0]);
      }
      expect((await get(t, tenant.key, '/webhooks/not-a-uuid')).status).toBe(400);
      await request(t.server).delete(`/webhooks/${mine.id}`).set(as(tenant.key)).expect(204);
    });
  });

  describe('delivery', () => {
    it('POSTs subscribed events in order, signed, with the body of GET /events', async () => {
      const sub = await subscribe(tenant.key, {
        url: receiver.url('/ordered'),
        events: ['receipt.recorded', 'receipt.cancelled'],
      });
      const splitId = await payable(tenant.key);
      const receipts = [];
      for (let i = 0; i < 5; i++) {
        receipts.push(await recordReceipt(t, tenant.key, { demandSplit: splitId, amount: 10 + i }));
      }
      await post(t, tenant.key, `/receipts/${receipts[0].id}/cancel`, { reason: 'x' }).expect(200);
      const got = await receiver.waitFor('/ordered', 6);
      // demand.created and booking.created were not subscribed
      expect(got.map((r) => r.event.type)).toEqual([
        ...Array(5).fill('receipt.recorded'),
        'receipt.cancelled',
      ]);
      const sequences = got.map((r) => r.event.sequence);
      expect(sequences).toEqual([...sequences].sort((a, b) => a - b));
      expect(got.slice(0, 5).map((r) => (r.event.data as { id: string }).id)).toEqual(
        receipts.map((r) => r.id),
      );
      const feed = (await get(t, tenant.key, `/events?after=${sequences[0] - 1}&limit=500`))
        .body as { events: { id: string }[] };
      for (const hook of got) {
        expect(hook.id).toBe(hook.event.id);
        expect(verifySignature(sub.secret as string, hook, hook.body)).toBe(true);
        expect(hook.event).toEqual(feed.events.find((e) => e.id === hook.id));
      }
      await until('cursor', async () => {
        return (await webhook(tenant.key, sub.id)).deliveredThrough >= sequences[5];
      });
      const log = await deliveries(tenant.key, sub.id);
      expect(log.deliveries.map((d) => [d.eventSequence, d.outcome, d.statusCode])).toEqual(
        sequences.map((s) => [s, 'SUCCEEDED', 200]),
      );
      expect(log.nextAfter).toBe(log.deliveries.at(-1)?.id);
      await request(t.server).delete(`/webhooks/${sub.id}`).set(as(tenant.key)).expect(204);
    });

    it('retries a 500, a reset and a timeout with the same Webhook-Id; later events wait', async () => {
      const sub = await subscribe(tenant.key, { url: receiver.url('/flaky'), events: ['*'] });
      receiver.script('/flaky', 500, 'reset', 'hang');
      const booking = await createBooking(t, tenant.key);
      const second = await createBooking(t, tenant.key);
      const got = await receiver.waitFor('/flaky', 5);
      expect(got.map((r) => (r.event.data as { id: string }).id)).toEqual([
        booking.id,
        booking.id,
        booking.id,
        booking.id,
        second.id,
      ]);
      expect(new Set(got.slice(0, 4).map((r) => r.id)).size).toBe(1);
      for (const hook of got)
        expect(verifySignature(sub.secret as string, hook, hook.body)).toBe(true);
      await until('the second delivery recorded', async () => {
        return (await deliveries(tenant.key, sub.id)).deliveries.length === 5;
      });
      const log = (await deliveries(tenant.key, sub.id)).deliveries;
      expect(log.map((d) => [d.attempt, d.outcome, d.statusCode])).toEqual([
        [1, 'RETRYING', 500],
        [2, 'RETRYING', null],
        [3, 'RETRYING', null],
        [4, 'SUCCEEDED', 200],
        [1, 'SUCCEEDED', 200],
      ]);
      expect(log[2].error).toMatch(/timed out after 1000 ms/);
      expect(log[0].nextRetryAt).not.toBeNull();
      expect((await webhook(tenant.key, sub.id)).failingAttempts).toBe(0);
      await request(t.server).delete(`/webhooks/${sub.id}`).set(as(tenant.key)).expect(204);
    });

    it('disables a subscription whose event fails every attempt; re-enabling resumes there', async () => {
      const sub = await subscribe(tenant.key, { url: receiver.url('/down'), events: ['*'] });
      receiver.always('/down', 503);
      const booking = await createBooking(t, tenant.key);
      await until('disabled', async () => !(await webhook(tenant.key, sub.id)).enabled);
      const state = await webhook(tenant.key, sub.id);
      expect(state).toMatchObject({ disabledReason: 'FAILING', lastError: 'HTTP 503' });
      const log = (await deliveries(tenant.key, sub.id)).deliveries;
      expect(log.map((d) => d.outcome)).toEqual(['RETRYING', 'RETRYING', 'RETRYING', 'FAILED']);
      const attempts = receiver.at('/down').length;
      expect(attempts).toBe(4);
      await sleep(800);
      expect(receiver.at('/down')).toHaveLength(attempts); // disabled: nothing more is tried

      receiver.always('/down', 200);
      const later = await createBooking(t, tenant.key);
      expect((await patch(tenant.key, sub.id, { enabled: true })).body.failingAttempts).toBe(0);
      const got = await receiver.waitFor('/down', attempts + 2);
      expect(got.slice(attempts).map((r) => (r.event.data as { id: string }).id)).toEqual([
        booking.id,
        later.id,
      ]);
      await request(t.server).delete(`/webhooks/${sub.id}`).set(as(tenant.key)).expect(204);
    });

    it('a hanging receiver holds up only its own subscription', async () => {
      const stuck = await subscribe(tenant.key, { url: receiver.url('/hang'), events: ['*'] });
      receiver.always('/hang', 'hang');
      const fine = await subscribe(tenant.key, { url: receiver.url('/fine'), events: ['*'] });
      const started = Date.now();
      const bookings = [await createBooking(t, tenant.key), await createBooking(t, tenant.key)];
      const got = await receiver.waitFor('/fine', 2, 5000);
      expect(got.map((r) => (r.event.data as { id: string }).id)).toEqual(
        bookings.map((b) => b.id),
      );
      expect(Date.now() - started).toBeLessThan(5000);
      await until('the stuck one failing', async () => {
        return (await webhook(tenant.key, stuck.id)).failingAttempts > 0;
      });
      expect((await webhook(tenant.key, stuck.id)).deliveredThrough).toBeLessThan(
        got[0].event.sequence,
      );
      for (const id of [stuck.id, fine.id]) {
        await request(t.server).delete(`/webhooks/${id}`).set(as(tenant.key)).expect(204);
      }
    });

    it('delivers only what is subscribed, and nothing after the delete', async () => {
      const sub = await subscribe(tenant.key, {
        url: receiver.url('/bookings'),
        events: ['booking.created'],
      });
      const first = await createBooking(t, tenant.key);
      await createDemand(t, tenant.key, { booking: first.id });
      await receiver.waitFor('/bookings', 1);
      await request(t.server).delete(`/webhooks/${sub.id}`).set(as(tenant.key)).expect(204);
      await createBooking(t, tenant.key);
      await sleep(1000);
      expect(receiver.at('/bookings').map((r) => r.event.type)).toEqual(['booking.created']);
      expect((receiver.at('/bookings')[0].event.data as { id: string }).id).toBe(first.id);
    });

    it("never delivers another tenant's events", async () => {
      const mine = await subscribe(tenant.key, { url: receiver.url('/mine'), events: ['*'] });
      await createBooking(t, other.key);
      const own = await createBooking(t, tenant.key);
      const got = await receiver.waitFor('/mine', 1);
      await sleep(500);
      expect(receiver.at('/mine')).toHaveLength(1);
      expect((got[0].event.data as { id: string }).id).toBe(own.id);
      await request(t.server).delete(`/webhooks/${mine.id}`).set(as(tenant.key)).expect(204);
    });

    it('after a rotation both secrets sign until the previous one expires', async () => {
      const sub = await subscribe(tenant.key, { url: receiver.url('/rotated'), events: ['*'] });
      const rotated = await post(t, tenant.key, `/webhooks/${sub.id}/rotate-secret`, {});
      expect(rotated.status).toBe(200);
      const secret = (rotated.body as Webhook).secret as string;
      expect(secret).not.toBe(sub.secret);
      expect(rotated.body.previousSecretExpiresAt).not.toBeNull();
      await createBooking(t, tenant.key);
      const [hook] = await receiver.waitFor('/rotated', 1);
      expect(hook.signature.split(' ')).toHaveLength(2);
      expect(verifySignature(secret, hook, hook.body)).toBe(true);
      expect(verifySignature(sub.secret as string, hook, hook.body)).toBe(true);
      await request(t.server).delete(`/webhooks/${sub.id}`).set(as(tenant.key)).expect(204);
    });

    it('the delivery log is purged after EVENTS_RETENTION_DAYS, like the events', async () => {
      const sub = await subscribe(tenant.key, { url: receiver.url('/purged'), events: ['*'] });
      await createBooking(t, tenant.key);
      await createBooking(t, tenant.key);
      await until('two deliveries logged', async () => {
        return (await deliveries(tenant.key, sub.id)).deliveries.length === 2;
      });
      const [old] = (await deliveries(tenant.key, sub.id)).deliveries;
      await db.query(
        `UPDATE webhook_deliveries SET attempted_at = now() - interval '91 days'
          WHERE subscription_id = $1 AND id = $2`,
        [sub.id, old.id],
      );
      expect((await t.app.get(HousekeepingService).purgeExpiredWebhookDeliveries()).removed).toBe(
        1,
      );
      const kept = (await deliveries(tenant.key, sub.id)).deliveries;
      expect(kept.map((d) => d.id)).not.toContain(old.id);
      expect(kept).toHaveLength(1);
      await request(t.server).delete(`/webhooks/${sub.id}`).set(as(tenant.key)).expect(204);
    });
  });

  describe('two application instances on one database', () => {
    it('deliver each event once, in order', async () => {
      const second = await createTestApp(DELIVERY_ENV);
      try {
        const sub = await subscribe(tenant.key, { url: receiver.url('/twice'), events: ['*'] });
        const splitId = await payable(tenant.key);
        const count = 40;
        await Promise.all(
          Array.from({ length: count }, (_, i) =>
            post(i % 2 ? t : second, tenant.key, '/receipts', {
              demandSplit: splitId,
              amount: 1,
              paymentMode: 'UPI',
              transactionRef: `UPI-${i}`,
              receivedDate: '2026-11-22',
            }).expect(201),
          ),
        );
        await until('cursor', async () => {
          const state = await webhook(tenant.key, sub.id);
          const feed = (await get(t, tenant.key, `/events?after=${state.deliveredThrough}`)).body;
          return feed.events.length === 0;
        });
        const got = receiver.at('/twice').filter((r) => r.event.type === 'receipt.recorded');
        expect(got).toHaveLength(count);
        expect(new Set(got.map((r) => r.id)).size).toBe(count);
        const sequences = receiver.at('/twice').map((r) => r.event.sequence);
        expect(sequences).toEqual([...sequences].sort((a, b) => a - b));
        const log = await deliveries(tenant.key, sub.id);
        expect(log.deliveries.every((d) => d.attempt === 1 && d.outcome === 'SUCCEEDED')).toBe(
          true,
        );
        expect(log.deliveries).toHaveLength(receiver.at('/twice').length);
        await request(t.server).delete(`/webhooks/${sub.id}`).set(as(tenant.key)).expect(204);
      } finally {
        await second.close();
      }
    });
  });

  describe('the SSRF guard (WEBHOOK_ALLOW_PRIVATE=false)', () => {
    let strict: TestApp;
    beforeAll(async () => {
      strict = await createTestApp({ ...DELIVERY_ENV, WEBHOOK_ALLOW_PRIVATE: 'false' });
    });
    afterAll(async () => strict?.close());

    it.each([
      'http://127.0.0.1:9/x',
      'http://localhost/x',
      'http://[::1]/x',
      'http://10.1.2.3/x',
      'http://192.168.0.10/x',
      'http://172.16.5.4/x',
      'http://169.254.169.254/latest/meta-data',
      'http://[::ffff:127.0.0.1]/x',
      'http://0.0.0.0/x',
    ])('refuses %s on create and on change', async (url) => {
      const created = await post(strict, tenant.key, '/webhooks', { url, events: ['*'] });
      expect(created.status).toBe(400);
      expect(created.body.code).toBe('WEBHOOK_URL_FORBIDDEN');
      const existing = await subscribe(tenant.key, {
        url: 'http://93.184.216.34/x',
        events: ['*'],
      });
      await patch(tenant.key, existing.id, { enabled: false }).expect(200);
      const changed = await request(strict.server)
        .patch(`/webhooks/${existing.id}`)
        .set(as(tenant.key))
        .send({ url });
      expect(changed.status).toBe(400);
      expect(changed.body.code).toBe('WEBHOOK_URL_FORBIDDEN');
      await request(t.server).delete(`/webhooks/${existing.id}`).set(as(tenant.key)).expect(204);
    });

    it('accepts a public address', async () => {
      const res = await post(strict, tenant.key, '/webhooks', {
        url: 'http://93.184.216.34/hook',
        events: ['*'],
      });
      expect(res.status).toBe(201);
      await patch(tenant.key, res.body.id, { enabled: false }).expect(200);
    });

    it('refuses to connect at delivery time to a private address stored earlier', async () => {
      const sub = await subscribe(tenant.key, { url: receiver.url('/guarded'), events: ['*'] });
      // From here on only the strict instance delivers: the permissive one is replaced by one
      // that does not.
      await t.app.close().catch(() => undefined);
      t = await createTestApp({ ...DELIVERY_ENV, WEBHOOK_DELIVERY_ENABLED: 'false' });
      await createBooking(t, tenant.key);
      await until('a refused attempt', async () => {
        return (await webhook(tenant.key, sub.id)).failingAttempts > 0;
      });
      const state = await webhook(tenant.key, sub.id);
      expect(state.lastError).toMatch(/WEBHOOK_TARGET_FORBIDDEN/);
      expect(receiver.at('/guarded')).toHaveLength(0);
      await request(t.server).delete(`/webhooks/${sub.id}`).set(as(tenant.key)).expect(204);
    });
  });

  it('the delivery tables are under row-level security like every tenant table', async () => {
    const rows: { relname: string; relrowsecurity: boolean; relforcerowsecurity: boolean }[] =
      await db.query(
        `SELECT relname, relrowsecurity, relforcerowsecurity FROM pg_class
          WHERE relname IN ('webhook_subscriptions', 'webhook_deliveries') ORDER BY relname`,
      );
    expect(rows).toEqual([
      { relname: 'webhook_deliveries', relrowsecurity: true, relforcerowsecurity: true },
      { relname: 'webhook_subscriptions', relrowsecurity: true, relforcerowsecurity: true },
    ]);
  });
});
