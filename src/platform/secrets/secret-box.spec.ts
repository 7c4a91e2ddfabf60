import { randomBytes } from 'node:crypto';
import {
  parseSecretsKey,
  SealedSecretError,
  SecretBox,
  sealedLength,
  secretsKeyId,
} from './secret-box';

describe(SecretBox.name, () => {
  const oldKey = randomBytes(32);
  const newKey = randomBytes(32);
  const secret = randomBytes(32);
  const context = 'webhook_subscriptions/tenant/subscription';

  it('opens what it sealed, for the same context; each seal is different', () => {
    const box = new SecretBox(newKey);
    const sealed = box.seal(secret, context);
    expect(sealed).toHaveLength(sealedLength(32));
    expect(sealed).toHaveLength(69);
    expect(sealed[0]).toBe(1);
    expect(sealed.subarray(1, 9)).toEqual(secretsKeyId(newKey));
    expect(sealed.includes(secret)).toBe(false);
    expect(box.open(sealed, context)).toEqual(secret);
    expect(box.seal(secret, context).equals(sealed)).toBe(false);
  });

  it('refuses a value altered anywhere: version, key id, IV, ciphertext or tag', () => {
    const box = new SecretBox(newKey);
    const sealed = box.seal(secret, context);
    for (const at of [0, 1, 8, 9, 20, 21, 40, 52, 53, 68]) {
      const tampered = Buffer.from(sealed);
      tampered[at] ^= 0x01;
      expect(() => box.open(tampered, context)).toThrow(SealedSecretError);
    }
    expect(() => box.open(sealed.subarray(0, 36), context)).toThrow(SealedSecretError);
    expect(() => box.open(secret, context)).toThrow(SealedSecretError);
  });

  it('refuses a value sealed for another record (copied to another row or tenant)', () => {
    const box = new SecretBox(newKey);
    const sealed = box.seal(secret, context);
    expect(() => box.open(sealed, 'webhook_subscriptions/tenant/other')).toThrow(
      /failed authentication/,
    );
  });

  it('refuses a value sealed with a key it does not have, naming the key id', () => {
    const sealed = new SecretBox(oldKey).seal(secret, context);
    expect(() => new SecretBox(newKey).open(sealed, context)).toThrow(
      new RegExp(`key ${secretsKeyId(oldKey).toString('hex')}, which is neither`),
    );
    // A wrong key with the right id (a forged header) fails authentication instead.
    const forged = Buffer.from(sealed);
    secretsKeyId(newKey).copy(forged, 1);
    expect(() => new SecretBox(newKey).open(forged, context)).toThrow(SealedSecretError);
  });

  it('opens with the previous key what it sealed, and seals with the current one only', () => {
    const sealedBefore = new SecretBox(oldKey).seal(secret, context);
    const rotating = new SecretBox(newKey, [oldKey]);
    expect(rotating.isCurrent(sealedBefore)).toBe(false);
    expect(rotating.open(sealedBefore, context)).toEqual(secret);
    const resealed = rotating.seal(rotating.open(sealedBefore, context), context);
    expect(rotating.isCurrent(resealed)).toBe(true);
    expect(resealed.subarray(1, 9)).toEqual(rotating.keyId);
    expect(new SecretBox(newKey).open(resealed, context)).toEqual(secret);
    expect(() => new SecretBox(oldKey).open(resealed, context)).toThrow(SealedSecretError);
  });

  it('refuses keys that are not 32 bytes', () => {
    expect(() => new SecretBox(randomBytes(16))).toThrow(/32 bytes/);
    expect(() => new SecretBox(newKey, [randomBytes(31)])).toThrow(/32 bytes/);
  });
});

describe(parseSecretsKey.name, () => {
  it('reads 32 bytes of base64 or base64url (openssl rand -base64 32)', () => {
    const key = randomBytes(32);
    expect(parseSecretsKey(key.toString('base64'))).toEqual(key);
    expect(parseSecretsKey(key.toString('base64url'))).toEqual(key);
  });

  it('refuses anything else', () => {
    for (const text of [
      '',
      'short',
      randomBytes(16).toString('base64'),
      randomBytes(33).toString('base64'),
      randomBytes(32).toString('hex'),
      `${randomBytes(32).toString('base64').slice(0, 42)}!=`,
    ]) {
      expect(() => parseSecretsKey(text)).toThrow(/32 bytes in base64/);
    }
  });
});
