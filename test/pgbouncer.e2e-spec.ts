import request from 'supertest';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { Tenant } from '@/http/tenancy/tenant.entity';
import { verifySignature } from '@/webhooks/webhook-signature';
import { createDemand, receiptBody, split } from './support/factories';
import { PgBouncer, startPgBouncer } from './support/pgbouncer';
import { createTestApp, ownerDataSource, TestApp } from './support/test-app';
import { as } from './support/tokens';
import { WebhookReceiver } from './support/webhook-receiver';

const POOL = 4;

/**
 * The service behind PgBouncer in transaction pooling mode (issue 12, item 2): 20 application
 * connections share 4 server connections, so consecutive transactions of one client land on
 * different server sessions. Every guarantee must hold through it: the tenant setting per
 * transaction (row-level security), row locks (numbers, no overpayment), idempotency (advisory
 * transaction locks), the event cursor, and webhook delivery on pg-boss. Nothing may rely on
 * named prepared statements, session state, LISTEN or session advisory locks.
 */
describe('behind PgBouncer (transaction pooling)', () => {
  let bouncer: PgBouncer;
  let t: TestApp;
  let db: DataSource;
  let receiver: WebhookReceiver;
  let tenant: Tenant;
  let other: Tenant;

  const post = (key: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
    request(t.server)
      .post(path)
      .set(as(key))
      .set(headers)
      .send(body as object);
  const admin = async (command: string) => {
    const client = new Client({ connectionString: bouncer.adminUrl });
    await client.connect();
    try {
      return (await client.query<Record<string, string>>(command)).rows;
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    // The server itself, also under npm run test:pgbouncer (no pooler in front of this one);
    // an external TEST_DATABASE_APP_URL (no global setup) is the server itself too.
    const appUrl = (process.env.TEST_DATABASE_DIRECT_APP_URL ??
      process.env.TEST_DATABASE_APP_URL) as string;
    const ownerUrl = process.env.TEST_DATABASE_URL as string;
    db = await ownerDataSource(ownerUrl);
    // PgBouncer cannot pass node-postgres' `options` startup parameter on: the login role's
    // defaults carry the same settings (the values the service sets anyway).
    const login = new URL(appUrl).username;
    await db.query(`ALTER ROLE ${login} SET datestyle = 'ISO, YMD'`);
    await db.query(`ALTER ROLE ${login} SET timezone = 'UTC'`);
    bouncer = await startPgBouncer(appUrl, POOL);
    receiver = await new WebhookReceiver().start();
    t = await createTestApp(
      {
        DB_POOL_SIZE: '20',
        WEBHOOK_DELIVERY_ENABLED: 'true',
        WEBHOOK_POLL_INTERVAL_MS: '100',
        WEBHOOK_RETRY_SCHEDULE: '300ms',
      },
      { ownerUrl, appUrl: bouncer.url },
    );
    tenant = await t.createTenant();
    other = await t.createTenant();
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.stop();
    await bouncer?.stop();
    await db?.destroy();
  });

  it('runs in transaction mode, with fewer server connections than application connections', async () => {
    const config = await admin('SHOW CONFIG');
    expect(config.find((r) => r.key === 'pool_mode')?.value).toBe('transaction');
    const responses = await Promise.all(
      Array.from({ length: 40 }, () => post(tenant.key, '/receipts/search?size=5', [])),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(40).fill(200));
    const [pool] = (await admin('SHOW POOLS')).filter((p) => p.user !== 'bouncer_admin');
    const servers = Number(pool.sv_active) + Number(pool.sv_idle) + Number(pool.sv_used);
    expect(servers).toBeGreaterThan(0);
    expect(servers).toBeLessThanOrEqual(POOL);
  });

  it('numbers stay gap-free and no split is overpaid (row locks per transaction)', async () => {
    const demand = await createDemand(t, tenant.key, { splits: [split(1000), split(100000)] });
    const [small, large] = demand.splits.map((s) => s.id);
    const responses = await Promise.all(
      [...Array(20).fill(small), ...Array(30).fill(large)].map((s: string) =>
        post(tenant.key, '/receipts', receiptBody(s, { amount: 100 })),
      ),
    );
    const created = responses.filter((r) => r.status === 201);
    expect(created).toHaveLength(40);
    expect(responses.filter((r) => r.status === 422)).toHaveLength(10);
    const seqs = created
      .map((r) => Number((r.body.receiptNumber as string).split('/').at(-1)))
      .sort((x, y) => x - y);
    expect(seqs).toEqual(Array.from({ length: 40 }, (_, i) => seqs[0] + i));
  });

  it('the tenant setting never leaks between transactions sharing a server connection', async () => {
    const mine = await createDemand(t, tenant.key, { splits: [split(1000)] });
    const theirs = await createDemand(t, other.key, { splits: [split(1000)] });
    const checks = await Promise.all(
      Array.from({ length: 40 }, (_, i) => {
        const [key, id, expected] =
          i % 4 === 0
            ? [tenant.key, mine.id, 200]
            : i % 4 === 1
              ? [other.key, theirs.id, 200]
              : i % 4 === 2
                ? [tenant.key, theirs.id, 404]
                : [other.key, mine.id, 404];
        return request(t.server)
          .get(`/demands/${id}`)
          .set(as(key))
          .then((r) => [r.status, expected]);
      }),
    );
    for (const [status, expected] of checks) expect(status).toBe(expected);
  });

  it('an Idempotency-Key sent twice at once creates one receipt (advisory transaction lock)', async () => {
    const demand = await createDemand(t, tenant.key, { splits: [split(5000)] });
    const key = randomUUID();
    const body = receiptBody(demand.splits[0].id, { amount: 100 });
    const [a, b] = await Promise.all([
      post(tenant.key, '/receipts', body, { 'Idempotency-Key': key }),
      post(tenant.key, '/receipts', body, { 'Idempotency-Key': key }),
    ]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body).toEqual(b.body);
    const [{ n }] = await db.query<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM receipts WHERE tenant_id = $1 AND demand_split_id = $2`,
      [tenant.id, demand.splits[0].id],
    );
    expect(n).toBe(1);
  });

  it('a reader following the event cursor sees every event once, in order, under writers', async () => {
    const start = (
      await request(t.server).get('/events?limit=1&type=receipt.bounced').set(as(tenant.key))
    ).body as { nextAfter: number };
    const demand = await createDemand(t, tenant.key, { splits: [split(100000)] });
    let writing = true;
    const writers = Promise.all(
      Array.from({ length: 6 }, async () => {
        for (let i = 0; i < 8; i++) {
          await post(tenant.key, '/receipts', receiptBody(demand.splits[0].id, { amount: 1 }));
        }
      }),
    ).finally(() => (writing = false));
    const seen: number[] = [];
    let cursor = start.nextAfter;
    for (;;) {
      const stillWriting = writing;
      const page = (
        await request(t.server).get(`/events?after=${cursor}&limit=5`).set(as(tenant.key))
      ).body as { events: { sequence: number }[]; nextAfter: number };
      seen.push(...page.events.map((e) => e.sequence));
      cursor = page.nextAfter;
      if (!stillWriting && page.events.length === 0) break;
      if (page.events.length === 0) await sleep(20);
    }
    await writers;
    expect(seen).toEqual(Array.from({ length: seen.length }, (_, i) => start.nextAfter + i + 1));
    expect(seen.length).toBeGreaterThanOrEqual(48);
  });

  it('webhooks are delivered once each, in order, signed (pg-boss through the pooler)', async () => {
    const sub = await post(tenant.key, '/webhooks', {
      url: receiver.url('/through-bouncer'),
      events: ['receipt.recorded'],
    });
    expect(sub.status).toBe(201);
    const demand = await createDemand(t, tenant.key, { splits: [split(100000)] });
    const recorded = [];
    for (let i = 0; i < 15; i++) {
      const res = await post(
        tenant.key,
        '/receipts',
        receiptBody(demand.splits[0].id, { amount: 2 }),
      );
      recorded.push((res.body as { id: string }).id);
    }
    const got = await receiver.waitFor('/through-bouncer', 15);
    await sleep(500);
    expect(receiver.at('/through-bouncer')).toHaveLength(15);
    expect(got.map((r) => (r.event.data as { id: string }).id)).toEqual(recorded);
    for (const hook of got) {
      expect(verifySignature(sub.body.secret as string, hook, hook.body)).toBe(true);
    }
  });
});
