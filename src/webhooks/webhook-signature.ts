import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** Standard Webhooks secrets: `whsec_` + base64 of the 32-byte HMAC key (README.md, Webhooks). */
const SECRET_PREFIX = 'whsec_';
export const SECRET_BYTES = 32;

export function generateSecretKey(): Buffer {
  return randomBytes(SECRET_BYTES);
}

export function formatSecret(key: Buffer): string {
  return `${SECRET_PREFIX}${key.toString('base64')}`;
}

/** The HMAC key of a `whsec_...` secret. */
export function secretKey(secret: string): Buffer {
  if (!secret.startsWith(SECRET_PREFIX)) throw new Error('a webhook secret starts with whsec_');
  return Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
}

/**
 * The `Webhook-Signature` header: `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">` for each
 * key, space-separated (during a rotation both the new and the previous secret sign).
 */
export function signatureHeader(
  id: string,
  timestamp: number,
  body: string,
  keys: readonly Buffer[],
): string {
  const content = `${id}.${timestamp}.${body}`;
  return keys
    .map((key) => `v1,${createHmac('sha256', key).update(content).digest('base64')}`)
    .join(' ');
}

/**
 * What a receiver does (docs/api.md, "Verifying a delivery"): true when one of the header's v1
 * signatures matches `secret`. `toleranceSec` refuses old or future timestamps (replays).
 */
export function verifySignature(
  secret: string,
  headers: { id: string; timestamp: string; signature: string },
  body: string,
  now = Date.now(),
  toleranceSec = 300,
): boolean {
  const timestamp = Number(headers.timestamp);
  if (!Number.isInteger(timestamp) || Math.abs(now / 1000 - timestamp) > toleranceSec) return false;
  const expected = Buffer.from(
    signatureHeader(headers.id, timestamp, body, [secretKey(secret)]).slice(3),
  );
  return headers.signature.split(' ').some((candidate) => {
    const [version, signature] = candidate.split(',', 2);
    const given = Buffer.from(signature ?? '');
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
}
