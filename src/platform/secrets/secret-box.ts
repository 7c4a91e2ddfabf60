import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Secrets at rest (docs/operations.md, "Secrets at rest"): AES-256-GCM under SECRETS_KEY, with
 * the key's id in every ciphertext so SECRETS_KEY_PREVIOUS can still open what the previous key
 * sealed while `npm run secrets:rotate` re-seals it.
 *
 * Layout of a sealed value: version (1 byte, 1) | key id (8) | IV (12) | ciphertext | tag (16).
 * The authenticated data is the header (version, key id, IV) and a context naming the record the
 * value belongs to (`webhook_subscriptions/<tenant>/<id>`), so a ciphertext copied to another
 * row or tenant does not open there.
 */
export const SECRETS_KEY_BYTES = 32;
const VERSION = 1;
const KEY_ID_BYTES = 8;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const HEADER_BYTES = 1 + KEY_ID_BYTES + IV_BYTES;

/** The length of a sealed value of `plainBytes` bytes (a 32-byte webhook secret: 69). */
export const sealedLength = (plainBytes: number): number => HEADER_BYTES + plainBytes + TAG_BYTES;

/** A sealed value that cannot be opened: altered, for another record, or under an unknown key. */
export class SealedSecretError extends Error {}

/** 8 bytes of SHA-256 over the key (domain-separated): names the key, reveals nothing of it. */
export function secretsKeyId(key: Buffer): Buffer {
  return createHash('sha256')
    .update('finance-service secrets key id\0')
    .update(key)
    .digest()
    .subarray(0, KEY_ID_BYTES);
}

/** SECRETS_KEY's text: base64 (or base64url) of exactly 32 bytes, as `openssl rand -base64 32`. */
export const SECRETS_KEY_FORMAT = /^[A-Za-z0-9+/_-]{43}=?$/;

export function parseSecretsKey(text: string): Buffer {
  if (!SECRETS_KEY_FORMAT.test(text)) {
    throw new Error('a secrets key is 32 bytes in base64 (openssl rand -base64 32)');
  }
  // Node's base64 decoder takes the base64url alphabet too.
  const key = Buffer.from(text, 'base64');
  if (key.length !== SECRETS_KEY_BYTES) {
    throw new Error('a secrets key is 32 bytes in base64 (openssl rand -base64 32)');
  }
  return key;
}

/** Seals with the current key; opens with whichever configured key sealed the value. */
export class SecretBox {
  readonly keyId: Buffer;
  private readonly keys = new Map<string, Buffer>();

  constructor(
    private readonly current: Buffer,
    previous: readonly Buffer[] = [],
  ) {
    for (const key of [current, ...previous]) {
      if (key.length !== SECRETS_KEY_BYTES) throw new Error('a secrets key is 32 bytes');
    }
    this.keyId = secretsKeyId(current);
    for (const key of [...previous, current]) this.keys.set(secretsKeyId(key).toString('hex'), key);
  }

  seal(plain: Buffer, context: string): Buffer {
    const iv = randomBytes(IV_BYTES);
    const header = Buffer.concat([Buffer.of(VERSION), this.keyId, iv]);
    const cipher = createCipheriv('aes-256-gcm', this.current, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.concat([header, Buffer.from(context, 'utf8')]));
    return Buffer.concat([header, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
  }

  open(sealed: Buffer, context: string): Buffer {
    if (sealed.length < HEADER_BYTES + TAG_BYTES || sealed[0] !== VERSION) {
      throw new SealedSecretError('not a sealed secret (unknown version or too short)');
    }
    const keyId = sealed.subarray(1, 1 + KEY_ID_BYTES).toString('hex');
    const key = this.keys.get(keyId);
    if (!key) {
      throw new SealedSecretError(
        `a secret is sealed with key ${keyId}, which is neither SECRETS_KEY nor SECRETS_KEY_PREVIOUS`,
      );
    }
    const header = sealed.subarray(0, HEADER_BYTES);
    const decipher = createDecipheriv(
      'aes-256-gcm',
      key,
      sealed.subarray(1 + KEY_ID_BYTES, HEADER_BYTES),
      {
        authTagLength: TAG_BYTES,
      },
    );
    decipher.setAAD(Buffer.concat([header, Buffer.from(context, 'utf8')]));
    decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
    try {
      return Buffer.concat([
        decipher.update(sealed.subarray(HEADER_BYTES, sealed.length - TAG_BYTES)),
        decipher.final(),
      ]);
    } catch {
      throw new SealedSecretError(
        `a sealed secret failed authentication (altered, or not sealed for ${context})`,
      );
    }
  }

  /** Whether `sealed` is under the current key (what secrets:rotate leaves alone). */
  isCurrent(sealed: Buffer): boolean {
    return sealed.subarray(1, 1 + KEY_ID_BYTES).equals(this.keyId);
  }
}
