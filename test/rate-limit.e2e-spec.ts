import request from 'supertest';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { Tenant } from '@/http/tenancy/tenant.entity';
import { budgetKey } from '@/http/throttling/client-throttler.guard';
import { PostgresBudgetReserver } from '@/http/throttling/rate-limit-storage';
import { SharedBudgetStorage, SLICE } from '@/http/throttling/shared-budget-storage';
import { createTestApp, ownerDataSource, TestApp } from './support/test-app';
import { as } from './support/tokens';

/** The key a subject's budget in a tenant is kept under (ClientThrottlerGuard). */
const keyOf = (subject: string, tenantKey: string) =>
  budgetKey('default', `sub:${JSON.stringify([subject, tenantKey])}`);

interface BudgetRow {
  key: string;
  used: number;
  previous_used: number;
  start_ms: number;
}

const budgetRow = async (db: DataSource, key: string): Promise<BudgetRow | undefined> =>
  (
    await db.query<BudgetRow[]>(
      `SELECT key, used, previous_used,
              (extract(epoch FROM window_start) * 1000)::float8 AS start_ms
         FROM rate_limit_budgets WHERE key = $1`,
      [key],
    )
  )[0];

const search = (t: TestApp, headers: Record<string, string>) =>
  request(t.server).post('/receipts/search').set(headers).send([]);

describe('rate limiting', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '3' });
  });
  afterAll(() => t?.close());

  it('answers 429 problem+json with Retry-After once the per-minute budget is spent', async () => {
    const tenant = await t.createTenant();
    const statuses: number[] = [];
    let last: request.Response | undefined;
    for (let i = 0; i < 4; i++) {
      last = await request(t.server).post('/receipts/search').set(as(tenant.key)).send([]);
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(last!.headers['content-type']).toMatch(/problem\+json/);
    expect(last!.body.code).toBe('RATE_LIMITED');
    expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
  });
});

/**
 * Issue 29, item 2: one budget per client whatever the number of instances. Two application
 * instances on one database, as behind a round-robin balancer.
 */
describe('one budget across instances (RATE_LIMIT_STORE=postgres)', () => {
  const BUDGET = 120;
  let a: TestApp;
  let b: TestApp;
  let db: DataSource;
  let tenant: Tenant;
  let other: Tenant;

  beforeAll(async () => {
    const env = {
      RATE_LIMIT_PER_MINUTE: String(BUDGET),
      RATE_LIMIT_STORE: 'postgres',
      TRUSTED_PROXIES: '127.0.0.1/32,::1',
    };
    a = await createTestApp(env);
    b = await createTestApp(env);
    db = await ownerDataSource(a.ownerUrl);
    tenant = await a.createTenant();
    other = await b.createTenant();
  });
  afterAll(async () => {
    await db?.destroy();
    await a?.close();
    await b?.close();
  });

  /** `count` requests alternating over both instances, `concurrency` at a time. */
  const roundRobin = async (
    count: number,
    send: (t: TestApp) => request.Test,
    concurrency = 6,
  ): Promise<{ instance: 'a' | 'b'; res: request.Response }[]> => {
    const out: { instance: 'a' | 'b'; res: request.Response }[] = [];
    for (let i = 0; i < count; i += concurrency) {
      const wave = Array.from({ length: Math.min(concurrency, count - i) }, (_, j) => {
        const instance = (i + j) % 2 === 0 ? 'a' : 'b';
        return send(instance === 'a' ? a : b).then((res) => ({ instance, res }) as const);
      });
      out.push(...(await Promise.all(wave)));
    }
    return out;
  };

  it('2 × the budget round robin over two instances: the budget passes (at most 1.1 ×), the rest 429', async () => {
    const results = await roundRobin(2 * BUDGET, (t) => search(t, as(tenant.key)));
    const passed = results.filter((r) => r.res.status === 200);
    const limited = results.filter((r) => r.res.status === 429);
    expect(passed.length + limited.length).toBe(2 * BUDGET);
    expect(passed.length).toBeGreaterThanOrEqual(BUDGET);
    expect(passed.length).toBeLessThanOrEqual(1.1 * BUDGET);
    // Both instances served part of the one budget (per instance, 2 × the budget would pass).
    expect(passed.filter((r) => r.instance === 'a').length).toBeGreaterThan(BUDGET / 4);
    expect(passed.filter((r) => r.instance === 'b').length).toBeGreaterThan(BUDGET / 4);
    for (const { res } of limited) {
      expect(res.headers['content-type']).toMatch(/problem\+json/);
      expect(res.body.code).toBe('RATE_LIMITED');
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
    // The table holds the one budget: what both instances took, no more than the budget.
    const row = await budgetRow(db, keyOf('tester', tenant.key));
    expect(row).toMatchObject({ used: BUDGET, previous_used: 0 });
  });

  it("does not limit another tenant's client, or another subject, when one client's budget is spent", async () => {
    const spent = as(tenant.key);
    expect((await search(a, spent)).status).toBe(429);
    expect((await search(b, spent)).status).toBe(429);
    // The same subject acting for the other tenant, another subject of the same tenant.
    for (const headers of [as(other.key), as(tenant.key, { sub: 'someone-else' })]) {
      expect((await search(a, headers)).status).toBe(200);
      expect((await search(b, headers)).status).toBe(200);
    }
    // One token granting both tenants: spending the first leaves the second whole.
    const both = { sub: 'two-tenants', tenant: [tenant.key, other.key] };
    const inFirst = await roundRobin(2 * BUDGET, (t) => search(t, as(tenant.key, both)));
    expect(inFirst.filter((r) => r.res.status === 200).length).toBeLessThanOrEqual(1.1 * BUDGET);
    const inSecond = await roundRobin(20, (t) => search(t, as(other.key, both)));
    expect(inSecond.map((r) => r.res.status)).toEqual(Array(20).fill(200));
  });

  it('charges refused tokens to the client address, one budget across instances', async () => {
    // A forwarded address of this test's own: the peer address is every suite's.
    const address = `198.18.${randomBytes(1)[0]}.${1 + (randomBytes(1)[0] % 250)}`;
    const results = await roundRobin(2 * BUDGET, (t) =>
      search(t, { authorization: 'Bearer not-a-token', 'x-forwarded-for': address }),
    );
    const unauthenticated = results.filter((r) => r.res.status === 401).length;
    expect(unauthenticated).toBeGreaterThanOrEqual(BUDGET);
    expect(unauthenticated).toBeLessThanOrEqual(1.1 * BUDGET);
    expect(results.filter((r) => r.res.status === 429).length).toBe(2 * BUDGET - unauthenticated);
  });

  it('stores hashes and counters only: no subject, tenant or address', async () => {
    const rows = await db.query<{ key: string; text: string }[]>(
      `SELECT key, row_to_json(b)::text AS text FROM rate_limit_budgets b`,
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      expect(r.key).toMatch(/^[0-9a-f]{64}$/);
      expect(r.text).not.toContain(tenant.key);
      expect(r.text).not.toContain('tester');
    }
  });
});

describe('shared budgets, the storage on PostgreSQL (windows, a stopped instance, clean-up)', () => {
  let appUrl: string;
  let db: DataSource;
  const pools: Pool[] = [];
  const storage = () => {
    const pool = new Pool({ connectionString: appUrl, max: 1 });
    pools.push(pool);
    return new SharedBudgetStorage(new PostgresBudgetReserver(pool));
  };
  const freshKey = () => randomBytes(32).toString('hex');
  /** Requests until the first refusal, or `max`: how many passed. */
  const spend = async (s: SharedBudgetStorage, key: string, limit: number, windowMs: number) => {
    let passed = 0;
    for (let i = 0; i < 2 * limit + 10; i++) {
      const record = await s.increment(key, windowMs, limit, windowMs, 'default');
      if (record.isBlocked) return { passed, retryAfter: record.timeToBlockExpire };
      passed++;
    }
    return { passed, retryAfter: 0 };
  };

  beforeAll(async () => {
    const t = await createTestApp(); // migrates the suite's database
    appUrl = t.appUrl;
    db = await ownerDataSource(t.ownerUrl);
    await t.close();
  });
  afterAll(async () => {
    await db?.destroy();
    await Promise.all(pools.map((p) => p.end().catch(() => undefined)));
  });

  it('slides over a window roll-over, and starts over after two idle windows', async () => {
    const WINDOW = 1000;
    const s = storage();
    const key = freshKey();
    const first = await spend(s, key, 10, WINDOW);
    expect(first.passed).toBe(10);
    expect(first.retryAfter).toBeGreaterThanOrEqual(1);
    const opened = (await budgetRow(db, key))!;
    expect(opened).toMatchObject({ used: 10, previous_used: 0 });

    // Into the next window: the first window's 10 still weigh, by the share of it within the
    // last WINDOW ms, so some but not all of a budget passes.
    await sleep(opened.start_ms + 1.4 * WINDOW - Date.now());
    const second = await spend(s, key, 10, WINDOW);
    const rolled = (await budgetRow(db, key))!;
    expect(rolled.previous_used).toBe(10);
    expect(rolled.start_ms).toBeCloseTo(opened.start_ms + WINDOW, 0);
    expect(second.passed).toBeGreaterThan(0);
    expect(second.passed).toBeLessThan(10);
    expect(rolled.used).toBe(second.passed);

    // Two windows without a request: a fresh budget, nothing carried.
    await sleep(rolled.start_ms + 3.2 * WINDOW - Date.now());
    expect((await spend(s, key, 10, WINDOW)).passed).toBe(10);
    expect(await budgetRow(db, key)).toMatchObject({ used: 10, previous_used: 0 });
    await s.onApplicationShutdown();
  });

  it('an instance that stops loses at most one slice of the client budget', async () => {
    const key = freshKey();
    const stopped = storage();
    expect((await stopped.increment(key, 60_000, 50, 60_000, 'default')).isBlocked).toBe(false);
    await sleep(50); // its top-up lands
    await stopped.onApplicationShutdown(); // as a crash would: its unspent tokens are gone
    const taken = (await budgetRow(db, key))!.used;
    expect(taken - 1).toBeLessThanOrEqual(SLICE);

    const survivor = storage();
    const { passed } = await spend(survivor, key, 50, 60_000);
    expect(passed).toBe(50 - taken);
    expect(passed).toBeGreaterThanOrEqual(50 - 1 - SLICE);
    await survivor.onApplicationShutdown();
  });

  it('deletes budgets idle for two windows, and only those', async () => {
    const idle = freshKey();
    const live = freshKey();
    await db.query(
      `INSERT INTO rate_limit_budgets (key, window_start, previous_used, used, granted)
       VALUES ($1, now() - interval '1 hour', 0, 5, 5), ($2, now(), 0, 5, 5)`,
      [idle, live],
    );
    const pool = new Pool({ connectionString: appUrl, max: 1 });
    pools.push(pool);
    await new PostgresBudgetReserver(pool).purge(2 * 60_000);
    expect(await budgetRow(db, idle)).toBeUndefined();
    expect(await budgetRow(db, live)).toMatchObject({ used: 5 });
  });
});

describe('RATE_LIMIT_STORE=memory (one instance)', () => {
  let a: TestApp;
  let b: TestApp;
  let db: DataSource;

  beforeAll(async () => {
    a = await createTestApp({ RATE_LIMIT_PER_MINUTE: '3', RATE_LIMIT_STORE: 'memory' });
    b = await createTestApp({ RATE_LIMIT_PER_MINUTE: '3', RATE_LIMIT_STORE: 'memory' });
    db = await ownerDataSource(a.ownerUrl);
  });
  afterAll(async () => {
    await db?.destroy();
    await a?.close();
    await b?.close();
  });

  it('limits each instance alone (N instances allow N budgets), writing nothing to the table', async () => {
    const tenant = await a.createTenant();
    const other = await a.createTenant();
    const statuses = async (t: TestApp, key: string) => {
      const out: number[] = [];
      for (let i = 0; i < 4; i++) out.push((await search(t, as(key))).status);
      return out;
    };
    expect(await statuses(a, tenant.key)).toEqual([200, 200, 200, 429]);
    const limited = await search(a, as(tenant.key));
    expect(limited.body.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(await statuses(b, tenant.key)).toEqual([200, 200, 200, 429]);
    expect(await statuses(a, other.key)).toEqual([200, 200, 200, 429]);
    expect(await budgetRow(db, keyOf('tester', tenant.key))).toBeUndefined();
  });
});
