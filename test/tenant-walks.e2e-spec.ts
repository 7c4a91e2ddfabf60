import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { createTestApp, TestApp } from './support/test-app';

/**
 * The cross-tenant functions that no longer walk every tenant (migrations/
 * 1765550000001-TenantWalks.ts): the dispatcher's poll finds the due subscriptions of the
 * tenants that have them and nothing of the others; each purge removes expired rows of the
 * tenants that have them and nothing else. Everything happens in one transaction of the owner,
 * rolled back, so that no other suite's dispatcher or purge sees (or races with) these rows.
 */
describe('work across tenants (dispatcher poll, housekeeping purges)', () => {
  let t: TestApp;
  let db: Client;

  beforeAll(async () => {
    t = await createTestApp(); // migrates the suite's database
    db = new Client({ connectionString: t.ownerUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await t?.close();
  });

  const one = async <T>(sql: string, params: unknown[] = []): Promise<T> =>
    (await db.query(sql, params)).rows[0] as T;
  const tenantRow = async (active = true) =>
    (
      await one<{ id: string }>(
        `INSERT INTO tenants (key, name, active) VALUES ($1, 'Walk', $2) RETURNING id`,
        [`walk-${randomBytes(5).toString('hex')}`, active],
      )
    ).id;
  /** A subscription (sealed-shaped secret, never opened) with `delivered` of 5 events handled. */
  const subscription = async (
    tenantId: string,
    extra: { delivered?: number; enabled?: boolean; deleted?: boolean; backoff?: boolean } = {},
  ) =>
    (
      await one<{ id: string }>(
        `INSERT INTO webhook_subscriptions (tenant_id, url, event_types, secret, delivered_sequence,
                                            enabled, deleted_at, next_attempt_at, created_by)
         VALUES ($1, 'https://example.test/hook', '{*}',
                 '\\x01'::bytea || decode(repeat('00', 68), 'hex'), $2, $3,
                 CASE WHEN $4 THEN now() END, CASE WHEN $5 THEN now() + interval '1 hour' END, 'test')
         RETURNING id`,
        [tenantId, extra.delivered ?? 0, extra.enabled ?? true, !!extra.deleted, !!extra.backoff],
      )
    ).id;
  const events = (tenantId: string, last: number, occurredAt = 'now()') =>
    db.query(
      `WITH q AS (INSERT INTO event_sequences (tenant_id, last_sequence) VALUES ($1, $2)
                    ON CONFLICT (tenant_id) DO UPDATE SET last_sequence = excluded.last_sequence)
       INSERT INTO events (tenant_id, sequence, type, occurred_at, actor, data)
       SELECT $1, k, 'booking.created', ${occurredAt}, 'test', '{}'::json
         FROM generate_series(1, $2::int) k`,
      [tenantId, last],
    );

  it('polls the due subscriptions of the tenants that have them, and none of the others', async () => {
    await db.query('BEGIN');
    try {
      const due = await tenantRow();
      const dueSubs = [await subscription(due), await subscription(due, { delivered: 4 })];
      await events(due, 5);
      const caughtUp = await tenantRow();
      const caughtUpSub = await subscription(caughtUp, { delivered: 5 });
      await events(caughtUp, 5);
      const quiet = await tenantRow(); // events, no subscription
      await events(quiet, 5);
      const disabled = await tenantRow();
      const notDue = [
        caughtUpSub,
        await subscription(disabled, { enabled: false }),
        await subscription(disabled, { deleted: true }),
        await subscription(disabled, { backoff: true }),
      ];
      await events(disabled, 5);
      const inactive = await tenantRow(false);
      notDue.push(await subscription(inactive));
      await events(inactive, 5);

      const { rows } = await db.query<{ tenant_id: string; subscription_id: string }>(
        'SELECT tenant_id, subscription_id FROM webhook_due_subscriptions()',
      );
      const mine = rows.filter((r) =>
        [due, caughtUp, quiet, disabled, inactive].includes(r.tenant_id),
      );
      expect(mine.map((r) => r.subscription_id).sort()).toEqual([...dueSubs].sort());
      expect(mine.every((r) => r.tenant_id === due)).toBe(true);
      for (const id of notDue) expect(rows.map((r) => r.subscription_id)).not.toContain(id);
      // One tenant's own lookup (what the instance that committed events asks) agrees.
      const own = await db.query<{ subscription_id: string }>(
        'SELECT subscription_id FROM webhook_due_subscriptions($1)',
        [due],
      );
      expect(own.rows.map((r) => r.subscription_id).sort()).toEqual([...dueSubs].sort());
    } finally {
      await db.query('ROLLBACK');
    }
  });

  it("purges expired rows of the tenants that have them, and nothing of the others'", async () => {
    await db.query('BEGIN');
    try {
      const old = await tenantRow();
      const fresh = await tenantRow();
      const empty = await tenantRow();
      await events(old, 3, `now() - interval '100 days'`);
      await events(fresh, 3);
      await db.query(
        `INSERT INTO idempotency_keys (tenant_id, key, request_hash, response_status, response_body, created_at)
         VALUES ($1, 'old', 'h', 201, '{}', now() - interval '3 days'),
                ($2, 'fresh', 'h', 201, '{}', now())`,
        [old, fresh],
      );
      const oldSub = await subscription(old, { delivered: 3 });
      const freshSub = await subscription(fresh, { delivered: 3 });
      await db.query(
        `INSERT INTO webhook_deliveries (tenant_id, subscription_id, event_id, event_sequence,
                                        event_type, attempt, outcome, duration_ms, attempted_at)
         VALUES ($1, $2, gen_random_uuid(), 1, 'booking.created', 1, 'SUCCEEDED', 5, now() - interval '100 days'),
                ($3, $4, gen_random_uuid(), 1, 'booking.created', 1, 'SUCCEEDED', 5, now())`,
        [old, oldSub, fresh, freshSub],
      );
      const count = async (table: string, tenantId: string) =>
        Number(
          (
            await one<{ n: string }>(`SELECT count(*) AS n FROM ${table} WHERE tenant_id = $1`, [
              tenantId,
            ])
          ).n,
        );
      // Other suites' expired rows may be purged too; ours are what is checked.
      await db.query(`SELECT purge_expired_idempotency_keys('24 hours', 10000)`);
      await db.query(`SELECT purge_expired_events('90 days', 10000)`);
      await db.query(`SELECT purge_expired_webhook_deliveries('90 days', 10000)`);
      for (const table of ['idempotency_keys', 'events', 'webhook_deliveries']) {
        expect({ table, old: await count(table, old), fresh: await count(table, fresh) }).toEqual({
          table,
          old: 0,
          fresh: table === 'events' ? 3 : 1,
        });
        expect(await count(table, empty)).toBe(0);
      }
    } finally {
      await db.query('ROLLBACK');
    }
  });
});
