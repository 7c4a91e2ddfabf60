import type { ClientBase } from 'pg';
import type { SecretBox } from '@/platform/secrets/secret-box';
import {
  RESEAL_SECRETS_SQL,
  resealSecretsParams,
  SECRETS_TO_RESEAL_SQL,
  secretsToResealParams,
  SecretsToResealRow,
} from './webhooks.sql';

/**
 * A subscription's signing secrets are stored sealed (docs/operations.md, "Secrets at rest") for
 * this context: a sealed secret copied to another subscription or tenant does not open there.
 * migrations/1765500000000-SecretsAtRest.ts seals the secrets stored before with the same text.
 */
export const webhookSecretContext = (tenantId: string, subscriptionId: string): string =>
  `webhook_subscriptions/${tenantId}/${subscriptionId}`;

/**
 * Re-seals up to `limit` of the tenant's subscriptions whose secrets are not under the current key
 * (secrets:rotate); an expired previous secret is dropped instead (it no longer signs). Runs in
 * the caller's transaction, bound to the tenant. Returns how many subscriptions it changed.
 */
export async function resealWebhookSecrets(
  client: ClientBase,
  box: SecretBox,
  tenantId: string,
  limit: number,
): Promise<number> {
  const { rows } = await client.query<SecretsToResealRow>(
    SECRETS_TO_RESEAL_SQL,
    secretsToResealParams({ tenantId, keyId: box.keyId, limit }),
  );
  if (rows.length === 0) return 0;
  const reseal = (sealed: Buffer, id: string) => {
    const context = webhookSecretContext(tenantId, id);
    return box.isCurrent(sealed) ? sealed : box.seal(box.open(sealed, context), context);
  };
  await client.query(
    RESEAL_SECRETS_SQL,
    resealSecretsParams({
      tenantId,
      ids: rows.map((r) => r.id),
      secrets: rows.map((r) => reseal(r.secret, r.id)),
      previousSecrets: rows.map((r) =>
        r.previous_secret === null ? null : reseal(r.previous_secret, r.id),
      ),
    }),
  );
  return rows.length;
}
