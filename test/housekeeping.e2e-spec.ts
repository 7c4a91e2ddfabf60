import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import request from 'supertest';
import { DataSource } from 'typeorm';
import PgBoss from 'pg-boss';
import { HousekeepingService, PURGE_QUEUE } from '@/housekeeping/housekeeping.service';
import { Tenant } from '@/http/tenancy/tenant.entity';
import { bookingBody } from './support/factories';
import { createTestApp, ownerDataSource, TestApp } from './support/test-app';
import { as } from './support/tokens';

/**
 * Idempotency keys expire after IDEMPOTENCY_TTL_HOURS: a pg-boss job (schema and queue made by a
 * migration) purges them for every tenant in bounded batches; the application login owns nothing
 * and creates nothing, in the pgboss schema either.
 */
describe('housekeeping: idempotency keys are purged after their retention', () => {
  let t: TestApp;
  let owner: DataSource;
  let housekeeping: HousekeepingService;
  let a: Tenant;
  let b: Tenant;

  beforeAll(async () => {
    t = await createTestApp({ HOUSEKEEPING_ENABLED: 'true', IDEMPOTENCY_TTL_HOURS: '24' });
    owner = await ownerDataSource(t.ownerUrl);
    housekeeping = t.app.get(HousekeepingService);
    a = await t.createTenant();
    b = await t.createTenant();
  });
  afterAll(async () => {
    await owner?.destroy();
    await t?.close();
  });

  // One body: a replay must be the same request.
  const BODY = bookingBody();
  const book = (tenant: Tenant, key: string) =>
    request(t.server).post('/bookings').set(as(tenant.key)).set('Idempotency-Key', key).send(BODY);
  const age = (tenant: Tenant, key: string, hours: number) =>
    owner.query(
      `UPDATE idempotency_keys SET created_at = now() - $3::numeric * interval '1 hour'
        WHERE tenant_id = $1 AND key = $2`,
      [tenant.id, key, hours],
    );
  const keysOf = async (tenant: Tenant): Promise<string[]> =>
    (
      await owner.query<{ key: string }[]>(
        'SELECT key FROM idempotency_keys WHERE tenant_id = $1 ORDER BY key',
        [tenant.id],
      )
    ).map((r) => r.key);

  it('a replay after the purge is a new request; before it, the stored response', async () => {
    const key = randomUUID();
    const first = await book(a, key);
    expect(first.status).toBe(201);
    const replay = await book(a, key);
    expect(replay.body).toEqual(first.body);

    await age(a, key, 25);
    // Through the queue: any instance's worker takes the job.
    expect(await housekeeping.requestPurge()).toEqual(expect.any(String));
    const deadline = Date.now() + 30_000;
    while ((await keysOf(a)).includes(key)) {
      if (Date.now() > deadline) throw new Error('the purge job did not run within 30 s');
      await sleep(100);
    }
    const afterExpiry = await book(a, key);
    expect(afterExpiry.status).toBe(201);
    expect(afterExpiry.body.id).not.toBe(first.body.id);
  });

  it("runs from the cron path too: pg-boss' timekeeper queue hands the job to the purge queue", async () => {
    const key = randomUUID();
    expect((await book(b, key)).status).toBe(201);
    await age(b, key, 25);
    const schedule = await owner.query<{ cron: string }[]>(
      'SELECT cron FROM pgboss.schedule WHERE name = $1',
      [PURGE_QUEUE],
    );
    expect(schedule).toEqual([{ cron: '*/10 * * * *' }]);
    // What the timekeeper sends when a cron slot is due (as another instance would).
    const boss = new PgBoss({
      connectionString: t.appUrl,
      schema: 'pgboss',
      migrate: false,
      schedule: false,
      supervise: false,
    });
    boss.on('error', () => undefined);
    await boss.start();
    try {
      await boss.send('__pgboss__send-it', { name: PURGE_QUEUE, data: {} });
      const deadline = Date.now() + 30_000;
      while ((await keysOf(b)).includes(key)) {
        if (Date.now() > deadline) throw new Error('the cron-path job did not run within 30 s');
        await sleep(100);
      }
    } finally {
      await boss.stop({ graceful: false, wait: true });
    }
  });

  it('never purges a key younger than an hour, whatever the configured age', async () => {
    const key = randomUUID();
    expect((await book(a, key)).status).toBe(201);
    await age(a, key, 0.5);
    await owner.query(`SELECT purge_expired_idempotency_keys(interval '0 seconds', 1000)`);
    expect(await keysOf(a)).toContain(key);
  });

  it('purges expired keys of every tenant and never a fresh one of any tenant', async () => {
    const keys = { aOld: randomUUID(), aNew: randomUUID(), bOld: randomUUID(), bNew: randomUUID() };
    for (const [tenant, key] of [
      [a, keys.aOld],
      [a, keys.aNew],
      [b, keys.bOld],
      [b, keys.bNew],
    ] as const) {
      expect((await book(tenant, key)).status).toBe(201);
    }
    await age(a, keys.aOld, 30);
    await age(b, keys.bOld, 30);
    await age(b, keys.bNew, 23); // inside the 24 h retention
    await housekeeping.purgeExpiredIdempotencyKeys();
    expect(await keysOf(a)).toContain(keys.aNew);
    expect(await keysOf(a)).not.toContain(keys.aOld);
    expect(await keysOf(b)).toContain(keys.bNew);
    expect(await keysOf(b)).not.toContain(keys.bOld);
  });

  it('works in bounded batches: 2,500 expired keys with batches of 1,000 are 3 batches', async () => {
    const c = await t.createTenant();
    await owner.query(
      `INSERT INTO idempotency_keys (tenant_id, key, request_hash, response_status, response_body, created_at)
       SELECT $1, 'old-' || i, 'h', 201, '{}'::jsonb, now() - interval '48 hours'
         FROM generate_series(1, 2500) AS i`,
      [c.id],
    );
    const result = await housekeeping.purgeExpiredIdempotencyKeys(1000);
    expect(result.batches).toBe(3);
    expect(result.removed).toBeGreaterThanOrEqual(2500);
    expect(await keysOf(c)).toEqual([]);
  });

  describe('the application login', () => {
    let app: Client;
    beforeAll(async () => {
      app = new Client({ connectionString: t.appUrl });
      await app.connect();
    });
    afterAll(() => app.end());

    const refused = async (sql: string) => {
      await app.query('BEGIN');
      try {
        await expect(app.query(sql)).rejects.toThrow(/permission denied/);
      } finally {
        await app.query('ROLLBACK');
      }
    };

    it('cannot create tables, in pgboss or public, nor queues (which are tables)', async () => {
      await refused('CREATE TABLE pgboss.intruder (id int)');
      await refused('CREATE TABLE public.intruder (id int)');
      await refused(`SELECT pgboss.create_queue('intruder', '{}'::json)`);
    });

    it('cannot UPDATE tenants, bookings, amounts or numbers, nor DELETE idempotency keys directly', async () => {
      await refused(`UPDATE tenants SET name = 'x'`);
      await refused(`UPDATE bookings SET buyer_name = 'x'`);
      await refused(`UPDATE receipts SET amount = 0`);
      await refused(`UPDATE demands SET demand_number = 'x'`);
      await refused(`UPDATE demand_splits SET amount = 0`);
      await refused('DELETE FROM idempotency_keys');
    });

    it('owns no table, type or function, in any schema', async () => {
      const { rows } = await app.query<{ owned: number }>(
        `SELECT (SELECT count(*) FROM pg_class WHERE relowner = r.oid)
              + (SELECT count(*) FROM pg_type WHERE typowner = r.oid)
              + (SELECT count(*) FROM pg_proc WHERE proowner = r.oid) AS owned
           FROM pg_roles r WHERE r.rolname = current_user`,
      );
      expect(Number(rows[0].owned)).toBe(0);
    });
  });
});
