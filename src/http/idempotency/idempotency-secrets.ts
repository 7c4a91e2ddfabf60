import type { ClientBase } from 'pg';
import type { SecretBox } from '@/platform/secrets/secret-box';
import {
  RESEAL_STORED_SECRETS_SQL,
  resealStoredSecretsParams,
  STORED_SECRETS_TO_RESEAL_SQL,
  storedSecretsToResealParams,
  StoredSecretsRow,
} from '@/platform/idempotency/idempotency.sql';

/**
 * The sealed fields of a stored response are bound to its tenant and key: copied to another row
 * they do not open. migrations/1765500000000-SecretsAtRest.ts seals with the same text.
 */
export const idempotencySecretsContext = (tenantId: string, key: string): string =>
  `idempotency_keys/${tenantId}/${key}`;

interface Sealer {
  seal(plain: Buffer, context: string): Buffer;
  open(sealed: Buffer, context: string): Buffer;
}

/**
 * A response as it is stored: JSON text with each of `fields` (top-level) as null, and those
 * fields' values sealed as one JSON object (null when the response has none of them).
 */
export function sealResponse(
  body: unknown,
  fields: readonly string[],
  sealer: Sealer,
  context: string,
): { json: string; secrets: Buffer | null } {
  if (fields.length === 0 || body === null || typeof body !== 'object' || Array.isArray(body)) {
    return { json: JSON.stringify(body ?? null), secrets: null };
  }
  const shown = { ...(body as Record<string, unknown>) };
  const hidden: Record<string, unknown> = {};
  for (const field of fields) {
    if (shown[field] === undefined) continue;
    hidden[field] = shown[field];
    shown[field] = null; // kept in place: the replay has the fields in their order
  }
  if (Object.keys(hidden).length === 0) return { json: JSON.stringify(shown), secrets: null };
  return {
    json: JSON.stringify(shown),
    secrets: sealer.seal(Buffer.from(JSON.stringify(hidden), 'utf8'), context),
  };
}

/** The response as it was sent: the stored JSON with its sealed fields put back. */
export function unsealResponse(
  json: string,
  secrets: Buffer | null,
  sealer: Sealer,
  context: string,
): unknown {
  const body = JSON.parse(json) as unknown;
  if (secrets === null) return body;
  const hidden = JSON.parse(sealer.open(secrets, context).toString('utf8')) as object;
  return { ...(body as object), ...hidden };
}

/**
 * Re-seals up to `limit` of the tenant's stored responses whose fields are under another key
 * (secrets:rotate), in the caller's transaction bound to the tenant, as the schema owner (the
 * application role may not change a stored response). Returns how many it changed.
 */
export async function resealStoredSecrets(
  client: ClientBase,
  box: SecretBox,
  tenantId: string,
  limit: number,
): Promise<number> {
  const { rows } = await client.query<StoredSecretsRow>(
    STORED_SECRETS_TO_RESEAL_SQL,
    storedSecretsToResealParams({ tenantId, keyId: box.keyId, limit }),
  );
  if (rows.length === 0) return 0;
  const sealed = rows.map((row) => {
    const context = idempotencySecretsContext(tenantId, row.key);
    return box.seal(box.open(row.response_secrets, context), context);
  });
  await client.query(
    RESEAL_STORED_SECRETS_SQL,
    resealStoredSecretsParams({ tenantId, keys: rows.map((r) => r.key), sealed }),
  );
  return rows.length;
}
