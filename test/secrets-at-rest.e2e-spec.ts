/**
 * Secrets at rest (docs/operations.md, "Secrets at rest"): webhook signing secrets, and the
 * stored response of an idempotent POST /webhooks, never in clear in the database. A database of
 * this suite's own (the key rotation re-seals every row of its database, which would pull the key
 * from under the other suites' apps on the shared one).
 */
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '@/database/data-source-options';
import { provideMigrationSecrets, runMigrations } from '@/database/migrate';
import { rotateSecretsKey } from '@/cli/secrets-rotation';
import { Tenant } from '@/http/tenancy/tenant.entity';
import { SecretBox, secretsKeyId } from '@/platform/secrets/secret-box';
import { secretKey, verifySignature } from '@/webhooks/webhook-signature';
import { SecretsAtRest1765500000000 } from '../migrations/1765500000000-SecretsAtRest';
import { createBooking, post } from './support/factories';
import { withDatabase } from './support/database-url';
import { createTestApp, TestApp } from './support/test-app';
import { as } from './support/tokens';
import { WebhookReceiver } from './support/webhook-receiver';

const MIGRATION = 'SecretsAtRest1765500000000';
/** Retries in a fraction of a second (as test/webhooks.e2e-spec.ts). */
const DELIVERY_ENV = {
  WEBHOOK_DELIVERY_ENABLED: 'true',
  WEBHOOK_RETRY_SCHEDULE: '300ms,300ms,300ms',
  WEBHOOK_TIMEOUT_MS: '1000',
  WEBHOOK_POLL_INTERVAL_MS: '100',
};

interface Webhook {
  id: string;
  secret: string;
}

/** Every form a secret could be written in: its bytes, hex, base64 (padded or not), base64url, whsec_. */
function forms(secret: string): Buffer[] {
  const key = secretKey(secret);
  const texts = [
    secret,
    key.toString('hex'),
    key.toString('hex').toUpperCase(),
    key.toString('base64'),
    key.toString('base64').replace(/=+$/, ''),
    key.toString('base64url'),
  ];
  return [key, ...texts.map((text) => Buffer.from(text, 'utf8'))];
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Every text, varchar, char, json, jsonb, bytea and array column of every table in every schema
 * of the database (public, pgboss), read as the schema owner: `table.column` where one of the
 * secrets appears, in any of its forms.
 */
async function findSecrets(owner: Client, secrets: string[]): Promise<string[]> {
  const { rows: columns } = await owner.query<{
    schema: string;
    table: string;
    column: string;
    type: string;
  }>(`SELECT c.table_schema AS schema, c.table_name AS table, c.column_name AS column,
             c.data_type AS type
        FROM information_schema.columns c
        JOIN information_schema.tables t USING (table_schema, table_name)
       WHERE t.table_type = 'BASE TABLE'
         AND c.table_schema NOT IN ('pg_catalog', 'information_schema')
         AND c.data_type IN ('text', 'character varying', 'character', 'json', 'jsonb', 'bytea',
                             'ARRAY', 'USER-DEFINED')
       ORDER BY 1, 2, 3`);
  expect(columns.length).toBeGreaterThan(50);
  const needles = secrets.flatMap(forms);
  const found: string[] = [];
  for (const { schema, table, column, type } of columns) {
    const value = type === 'bytea' ? quote(column) : `convert_to(${quote(column)}::text, 'UTF8')`;
    const { rows } = await owner.query<{ n: number }>(
      `SELECT n::int FROM unnest($1::bytea[]) WITH ORDINALITY AS x(needle, n)
        WHERE EXISTS (SELECT 1 FROM ${quote(schema)}.${quote(table)}
                       WHERE position(x.needle IN ${value}) > 0)`,
      [needles],
    );
    if (rows.length > 0) found.push(`${table}.${column}`);
  }
  return found;
}

describe('secrets at rest', () => {
  const serverUrl = process.env.TEST_DATABASE_URL;
  const appServerUrl =
    process.env.TEST_DATABASE_DIRECT_APP_URL ?? process.env.TEST_DATABASE_APP_URL;
  const database = `finance_secrets_${randomBytes(4).toString('hex')}`;
  const oldKey = randomBytes(32);
  const newKey = randomBytes(32);
  let ownerUrl: string;
  let appUrl: string;
  let admin: Client;
  let owner: Client;
  let receiver: WebhookReceiver;
  let t: TestApp | undefined;
  let tenant: Tenant;
  let other: Tenant;
  const body = () => ({ url: receiver.url('/at-rest'), events: ['*'] });
  /** Every secret the API showed, in order: created, rotated, created after the key rotation. */
  const shown: string[] = [];
  let subscription: Webhook;

  const start = (env: Record<string, string>) =>
    createTestApp({ ...DELIVERY_ENV, ...env }, { ownerUrl, appUrl });

  beforeAll(async () => {
    if (!serverUrl || !appServerUrl) throw new Error('TEST_DATABASE_URL not set (global setup)');
    admin = new Client({ connectionString: withDatabase(serverUrl, 'postgres') });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    ownerUrl = withDatabase(serverUrl, database);
    appUrl = withDatabase(appServerUrl, database);
    owner = new Client({ connectionString: ownerUrl });
    await owner.connect();
    receiver = await new WebhookReceiver().start();
    t = await start({ SECRETS_KEY: oldKey.toString('base64') });
    tenant = await t.createTenant();
    other = await t.createTenant();
  });

  afterAll(async () => {
    await t?.close();
    await receiver?.stop();
    await owner?.end();
    await admin?.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin?.end();
  });

  it('shows the secret once and stores it sealed, the replay of POST /webhooks too', async () => {
    const app = t as TestApp;
    const created = await post(app, tenant.key, '/webhooks', body(), { idempotencyKey: 'k-1' });
    expect(created.status).toBe(201);
    subscription = created.body as Webhook;
    shown.push(subscription.secret);
    const rotated = await post(app, tenant.key, `/webhooks/${subscription.id}/rotate-secret`, {});
    expect(rotated.status).toBe(200);
    shown.push((rotated.body as Webhook).secret);

    const replay = await post(app, tenant.key, '/webhooks', body(), { idempotencyKey: 'k-1' });
    expect(replay.status).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(created.body);

    const { rows } = await owner.query<{ secret: Buffer; previous_secret: Buffer }>(
      'SELECT secret, previous_secret FROM webhook_subscriptions WHERE id = $1',
      [subscription.id],
    );
    for (const sealed of [rows[0].secret, rows[0].previous_secret]) {
      expect(sealed).toHaveLength(69);
      expect(sealed.subarray(1, 9)).toEqual(secretsKeyId(oldKey));
    }
    expect(await findSecrets(owner, shown)).toEqual([]);
  });

  it('a key is per tenant: the same Idempotency-Key elsewhere is a new subscription', async () => {
    const app = t as TestApp;
    const theirs = await post(app, other.key, '/webhooks', body(), { idempotencyKey: 'k-1' });
    expect(theirs.status).toBe(201);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect((theirs.body as Webhook).id).not.toBe(subscription.id);
    expect((theirs.body as Webhook).secret).not.toBe(subscription.secret);
    shown.push((theirs.body as Webhook).secret);
    const mine = await request(app.server).get(`/webhooks/${subscription.id}`).set(as(other.key));
    expect(mine.status).toBe(404);
  });

  it('a token without webhooks:write stores nothing', async () => {
    const app = t as TestApp;
    const res = await request(app.server)
      .post('/webhooks')
      .set(as(tenant.key, { scope: 'receipts:read' }))
      .set('Idempotency-Key', 'k-denied')
      .send(body());
    expect(res.status).toBe(403);
    const { rows } = await owner.query(`SELECT 1 FROM idempotency_keys WHERE key = 'k-denied'`);
    expect(rows).toHaveLength(0);
  });

  it('the migration seals the secrets stored in clear before it, and needs the key to', async () => {
    await t?.close();
    t = undefined;
    // Back to the schema before the migration (its down opens every sealed value) ...
    const ds = await new DataSource(dataSourceOptions(ownerUrl, 2)).initialize();
    try {
      provideMigrationSecrets(ds, new SecretBox(oldKey));
      const migration = ds.migrations.find((m) => m.name === MIGRATION);
      expect(migration).toBeInstanceOf(SecretsAtRest1765500000000);
      const runner = ds.createQueryRunner();
      await runner.startTransaction();
      await migration?.down(runner);
      await runner.query('DELETE FROM migrations WHERE name = $1', [MIGRATION]);
      await runner.commitTransaction();
      await runner.release();
    } finally {
      await ds.destroy();
    }
    // ... where the scan finds them in clear: the bytes of both secrets, and whsec_ in the
    // stored response (so the scan reaches these rows as the owner).
    expect(await findSecrets(owner, [shown[0]])).toEqual([
      'idempotency_keys.response_body',
      'webhook_subscriptions.previous_secret',
    ]);
    expect(await findSecrets(owner, [shown[1]])).toEqual(['webhook_subscriptions.secret']);

    await expect(runMigrations(ownerUrl)).rejects.toThrow(/no SECRETS_KEY was given/);
    expect(await findSecrets(owner, [shown[1]])).toEqual(['webhook_subscriptions.secret']);

    expect(await runMigrations(ownerUrl, { secrets: new SecretBox(oldKey) })).toEqual([MIGRATION]);
    expect(await findSecrets(owner, shown)).toEqual([]);
  });

  it('secrets:rotate re-seals every value under the new key, once', async () => {
    const box = new SecretBox(newKey, [oldKey]);
    const first = await rotateSecretsKey(ownerUrl, box, 1); // batches of one: several transactions
    expect(first).toEqual({
      keyId: secretsKeyId(newKey).toString('hex'),
      tenants: 2,
      webhookSubscriptions: 2,
      storedResponses: 2,
    });
    const again = await rotateSecretsKey(ownerUrl, box);
    expect(again).toMatchObject({ webhookSubscriptions: 0, storedResponses: 0 });

    const { rows } = await owner.query<{ key_id: Buffer }>(
      `SELECT substring(secret FROM 2 FOR 8) AS key_id FROM webhook_subscriptions
       UNION ALL
       SELECT substring(previous_secret FROM 2 FOR 8) FROM webhook_subscriptions
        WHERE previous_secret IS NOT NULL
       UNION ALL
       SELECT substring(response_secrets FROM 2 FOR 8) FROM idempotency_keys
        WHERE response_secrets IS NOT NULL`,
    );
    expect(rows).toHaveLength(5);
    expect(rows.every((r) => r.key_id.equals(secretsKeyId(newKey)))).toBe(true);
    expect(await findSecrets(owner, shown)).toEqual([]);
  });

  it('without the previous key, deliveries still verify and the replay shows the secret', async () => {
    t = await start({ SECRETS_KEY: newKey.toString('base64') });
    const replay = await post(t, tenant.key, '/webhooks', body(), { idempotencyKey: 'k-1' });
    expect(replay.status).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect((replay.body as Webhook).secret).toBe(shown[0]);

    await createBooking(t, tenant.key);
    const [hook] = await receiver.waitFor('/at-rest', 1);
    expect(hook.signature.split(' ')).toHaveLength(2);
    expect(verifySignature(shown[1], hook, hook.body)).toBe(true);
    expect(verifySignature(shown[0], hook, hook.body)).toBe(true);

    const later = await post(t, tenant.key, '/webhooks', { ...body(), url: receiver.url('/new') });
    expect(later.status).toBe(201);
    shown.push((later.body as Webhook).secret);
    await createBooking(t, tenant.key);
    const [fresh] = await receiver.waitFor('/new', 1);
    expect(verifySignature(shown.at(-1) as string, fresh, fresh.body)).toBe(true);

    expect(shown).toHaveLength(4);
    expect(await findSecrets(owner, shown)).toEqual([]);
  });

  it('an application without the key that sealed a secret does not deliver with a wrong one', async () => {
    await t?.close();
    t = await start({ SECRETS_KEY: oldKey.toString('base64') }); // the retired key
    const before = receiver.at('/at-rest').length;
    await createBooking(t, tenant.key);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(receiver.at('/at-rest')).toHaveLength(before);
  });
});
