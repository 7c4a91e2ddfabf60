import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What this migration needs of the application's SecretBox (src/platform/secrets/secret-box.ts):
 * runMigrations hands it over (`useSecrets`) with the configured SECRETS_KEY.
 */
export interface MigrationSecrets {
  seal(plain: Buffer, context: string): Buffer;
  open(sealed: Buffer, context: string): Buffer;
}

// The contexts (authenticated data) the application seals these values for: the same text as
// webhookSecretContext (src/webhooks/webhook-secrets.ts) and idempotencySecretsContext
// (src/http/idempotency/idempotency-secrets.ts). test/secrets-at-rest.e2e-spec.ts opens what
// this migration seals through the application.
const webhookContext = (tenantId: string, id: string) => `webhook_subscriptions/${tenantId}/${id}`;
const idempotencyContext = (tenantId: string, key: string) => `idempotency_keys/${tenantId}/${key}`;

/** version (1) + key id (8) + IV (12) + a 32-byte secret + GCM tag (16). */
const SEALED_SECRET_BYTES = 69;
const sealedCheck = (column: string) =>
  `octet_length(${column}) = ${SEALED_SECRET_BYTES} AND get_byte(${column}, 0) = 1`;

const select = async <T>(q: QueryRunner, sql: string, params: unknown[] = []): Promise<T[]> =>
  (await q.query(sql, params)) as T[];

/** The clear `secret` of a stored POST /webhooks response (JSON text), if it has one. */
function clearSecretOf(body: Record<string, unknown> | null): string | undefined {
  const secret = body?.secret;
  return typeof secret === 'string' && secret.startsWith('whsec_') ? secret : undefined;
}

/**
 * Webhook signing secrets encrypted at rest (docs/operations.md, "Secrets at rest").
 *
 * - `webhook_subscriptions.secret` and `previous_secret` hold the secret sealed with
 *   SECRETS_KEY (AES-256-GCM, key id inside), no longer the 32 raw bytes; the CHECKs say so.
 * - `idempotency_keys.response_secrets`: the fields of a stored response that carry a secret
 *   (POST /webhooks' `secret`), sealed; `response_body` keeps them as null. A replay puts them
 *   back.
 *
 * Existing rows are sealed here, in TypeScript, with the key runMigrations was given: the key is
 * configuration, never in the database, so SQL alone could not. Without a key the migration
 * only goes ahead when there is nothing to seal (a new database). `down` opens them again.
 * Tenant by tenant: FORCE ROW LEVEL SECURITY applies to the owner unless it is a superuser.
 */
export class SecretsAtRest1765500000000 implements MigrationInterface {
  name = 'SecretsAtRest1765500000000';
  private secrets?: MigrationSecrets;

  useSecrets(secrets: MigrationSecrets): void {
    this.secrets = secrets;
  }

  public async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE webhook_subscriptions DROP CONSTRAINT webhook_subscriptions_secret_check`,
    );
    await q.query(`ALTER TABLE idempotency_keys ADD COLUMN response_secrets bytea`);
    await this.eachTenant(q, async (tenantId) => {
      const subscriptions = await select<{
        id: string;
        secret: Buffer;
        previous_secret: Buffer | null;
      }>(
        q,
        `SELECT id, secret, previous_secret FROM webhook_subscriptions
          WHERE tenant_id = $1 ORDER BY id`,
        [tenantId],
      );
      for (const row of subscriptions) {
        const secrets = this.required('webhook signing secrets are stored in clear');
        const context = webhookContext(tenantId, row.id);
        await q.query(
          `UPDATE webhook_subscriptions SET secret = $3, previous_secret = $4
            WHERE tenant_id = $1 AND id = $2`,
          [
            tenantId,
            row.id,
            secrets.seal(row.secret, context),
            row.previous_secret && secrets.seal(row.previous_secret, context),
          ],
        );
      }
      // Only POST /webhooks stored a secret; a field inside a string would be escaped (\").
      const stored = await select<{ key: string; body: string }>(
        q,
        `SELECT key, response_body #>> '{}' AS body FROM idempotency_keys
          WHERE tenant_id = $1 AND response_body #>> '{}' LIKE '%"secret":"whsec\\_%'`,
        [tenantId],
      );
      for (const row of stored) {
        const body = JSON.parse(row.body) as Record<string, unknown> | null;
        const secret = clearSecretOf(body);
        if (body === null || secret === undefined) continue;
        const secrets = this.required('stored responses of POST /webhooks show secrets in clear');
        const sealed = secrets.seal(
          Buffer.from(JSON.stringify({ secret }), 'utf8'),
          idempotencyContext(tenantId, row.key),
        );
        await q.query(
          `UPDATE idempotency_keys SET response_body = to_jsonb($3::text), response_secrets = $4
            WHERE tenant_id = $1 AND key = $2`,
          [tenantId, row.key, JSON.stringify({ ...body, secret: null }), sealed],
        );
      }
    });
    await q.query(`ALTER TABLE webhook_subscriptions
      ADD CONSTRAINT webhook_subscriptions_secret_check CHECK (${sealedCheck('secret')}),
      ADD CONSTRAINT webhook_subscriptions_previous_secret_check
        CHECK (previous_secret IS NULL OR (${sealedCheck('previous_secret')}))`);
    await q.query(`ALTER TABLE idempotency_keys ADD CONSTRAINT idempotency_keys_response_secrets_check
      CHECK (response_secrets IS NULL OR get_byte(response_secrets, 0) = 1)`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhook_subscriptions
      DROP CONSTRAINT webhook_subscriptions_secret_check,
      DROP CONSTRAINT webhook_subscriptions_previous_secret_check`);
    await this.eachTenant(q, async (tenantId) => {
      const subscriptions = await select<{
        id: string;
        secret: Buffer;
        previous_secret: Buffer | null;
      }>(
        q,
        `SELECT id, secret, previous_secret FROM webhook_subscriptions
          WHERE tenant_id = $1 ORDER BY id`,
        [tenantId],
      );
      for (const row of subscriptions) {
        const secrets = this.required('webhook signing secrets are sealed');
        const context = webhookContext(tenantId, row.id);
        await q.query(
          `UPDATE webhook_subscriptions SET secret = $3, previous_secret = $4
            WHERE tenant_id = $1 AND id = $2`,
          [
            tenantId,
            row.id,
            secrets.open(row.secret, context),
            row.previous_secret && secrets.open(row.previous_secret, context),
          ],
        );
      }
      const stored = await select<{ key: string; body: string; response_secrets: Buffer }>(
        q,
        `SELECT key, response_body #>> '{}' AS body, response_secrets FROM idempotency_keys
          WHERE tenant_id = $1 AND response_secrets IS NOT NULL`,
        [tenantId],
      );
      for (const row of stored) {
        const secrets = this.required('stored responses hold sealed secrets');
        const fields = JSON.parse(
          secrets
            .open(row.response_secrets, idempotencyContext(tenantId, row.key))
            .toString('utf8'),
        ) as Record<string, unknown>;
        const body = { ...(JSON.parse(row.body) as Record<string, unknown>), ...fields };
        await q.query(
          `UPDATE idempotency_keys SET response_body = to_jsonb($3::text)
            WHERE tenant_id = $1 AND key = $2`,
          [tenantId, row.key, JSON.stringify(body)],
        );
      }
    });
    await q.query(`ALTER TABLE idempotency_keys DROP COLUMN response_secrets`);
    await q.query(`ALTER TABLE webhook_subscriptions
      ADD CONSTRAINT webhook_subscriptions_secret_check CHECK (octet_length(secret) = 32)`);
  }

  private required(what: string): MigrationSecrets {
    if (!this.secrets) {
      throw new Error(
        `SecretsAtRest1765500000000: ${what} and no SECRETS_KEY was given to the migration; run it with the service's configuration (npm start, or npm run migration:run with SECRETS_KEY set)`,
      );
    }
    return this.secrets;
  }

  private async eachTenant(q: QueryRunner, fn: (tenantId: string) => Promise<void>) {
    const tenants = await select<{ id: string }>(q, `SELECT id FROM tenants ORDER BY id`);
    for (const { id } of tenants) {
      await q.query(`SELECT set_config('app.tenant_id', $1, true)`, [id]);
      await fn(id);
    }
    await q.query(`SELECT set_config('app.tenant_id', '', true)`);
  }
}
