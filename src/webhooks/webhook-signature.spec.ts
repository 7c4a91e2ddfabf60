import {
  formatSecret,
  generateSecretKey,
  secretKey,
  signatureHeader,
  verifySignature,
} from './webhook-signature';

describe(signatureHeader.name, () => {
  // The example of the Standard Webhooks specification (and Svix' libraries).
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  const id = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
  const timestamp = 1614265330;
  const body = '{"test": 2432232314}';

  it('signs "<id>.<timestamp>.<body>" as the Standard Webhooks reference does', () => {
    expect(signatureHeader(id, timestamp, body, [secretKey(secret)])).toBe(
      'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    );
  });

  it('lists one signature per key, space-separated', () => {
    const other = generateSecretKey();
    const header = signatureHeader(id, timestamp, body, [secretKey(secret), other]);
    expect(header.split(' ')).toHaveLength(2);
    expect(
      verifySignature(
        secret,
        { id, timestamp: String(timestamp), signature: header },
        body,
        timestamp * 1000,
      ),
    ).toBe(true);
    expect(
      verifySignature(
        formatSecret(other),
        { id, timestamp: String(timestamp), signature: header },
        body,
        timestamp * 1000,
      ),
    ).toBe(true);
  });

  it('a verifier refuses another body, another secret and an old timestamp', () => {
    const signature = signatureHeader(id, timestamp, body, [secretKey(secret)]);
    const headers = { id, timestamp: String(timestamp), signature };
    const now = timestamp * 1000;
    expect(verifySignature(secret, headers, body, now)).toBe(true);
    expect(verifySignature(secret, headers, '{"test": 2432232315}', now)).toBe(false);
    expect(verifySignature(formatSecret(generateSecretKey()), headers, body, now)).toBe(false);
    expect(verifySignature(secret, headers, body, now + 301_000)).toBe(false);
  });

  it('secrets are whsec_ and 32 random bytes that round-trip', () => {
    const key = generateSecretKey();
    const text = formatSecret(key);
    expect(text).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(secretKey(text).equals(key)).toBe(true);
    expect(generateSecretKey().equals(key)).toBe(false);
  });
});
