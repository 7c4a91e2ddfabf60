import { Client, ClientBase } from 'pg';
import { resealStoredSecrets } from '@/http/idempotency/idempotency-secrets';
import { ALL_TENANT_IDS_SQL, BIND_TENANT_SQL } from '@/http/tenancy/tenant-setup.sql';
import type { SecretBox } from '@/platform/secrets/secret-box';
import { resealWebhookSecrets } from '@/webhooks/webhook-secrets';

export interface RotationResult {
  /** The current key's id (hex), which every sealed value is now under. */
  keyId: string;
  tenants: number;
  webhookSubscriptions: number;
  storedResponses: number;
}

/** Rows re-sealed per transaction: short transactions, short row locks. */
export const ROTATION_BATCH = 200;

type Batch = (
  client: ClientBase,
  box: SecretBox,
  tenantId: string,
  limit: number,
) => Promise<number>;

/**
 * `npm run secrets:rotate`: re-seals every sealed secret that is not under the current
 * SECRETS_KEY (opened with SECRETS_KEY_PREVIOUS), tenant by tenant, one transaction per batch
 * of rows, as the schema owner (FORCE ROW LEVEL SECURITY binds it to each tenant in turn; only
 * the owner may change a stored idempotent response). Idempotent: values already under the
 * current key are left alone, so a second run changes nothing and an interrupted one resumes.
 * A value no configured key opens stops the run with an error (nothing of its batch is written).
 */
export async function rotateSecretsKey(
  ownerUrl: string,
  box: SecretBox,
  batchSize = ROTATION_BATCH,
): Promise<RotationResult> {
  const client = new Client({ connectionString: ownerUrl });
  await client.connect();
  try {
    const { rows: tenants } = await client.query<{ id: string }>(ALL_TENANT_IDS_SQL);
    const result: RotationResult = {
      keyId: box.keyId.toString('hex'),
      tenants: tenants.length,
      webhookSubscriptions: 0,
      storedResponses: 0,
    };
    for (const { id } of tenants) {
      result.webhookSubscriptions += await inBatches(
        client,
        box,
        id,
        batchSize,
        resealWebhookSecrets,
      );
      result.storedResponses += await inBatches(client, box, id, batchSize, resealStoredSecrets);
    }
    return result;
  } finally {
    await client.end();
  }
}

async function inBatches(
  client: ClientBase,
  box: SecretBox,
  tenantId: string,
  batchSize: number,
  batch: Batch,
): Promise<number> {
  let total = 0;
  for (;;) {
    await client.query('BEGIN');
    let changed: number;
    try {
      await client.query(BIND_TENANT_SQL, [tenantId]);
      changed = await batch(client, box, tenantId, batchSize);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
    total += changed;
    if (changed < batchSize) return total;
  }
}
