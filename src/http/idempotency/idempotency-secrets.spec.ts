import { randomBytes } from 'node:crypto';
import { SecretBox } from '@/platform/secrets/secret-box';
import { idempotencySecretsContext, sealResponse, unsealResponse } from './idempotency-secrets';

describe('stored responses with secret fields', () => {
  const box = new SecretBox(randomBytes(32));
  const context = idempotencySecretsContext('a3c1f1de-0000-4000-8000-000000000001', 'key-1');
  const response = {
    id: 'w1',
    secret: 'whsec_c2VjcmV0',
    url: 'https://x.example/h',
    events: ['*'],
  };

  it('stores the secret fields as null, in place, and puts them back on replay', () => {
    const { json, secrets } = sealResponse(response, ['secret'], box, context);
    expect(json).toBe('{"id":"w1","secret":null,"url":"https://x.example/h","events":["*"]}');
    expect(json).not.toContain('c2VjcmV0');
    expect(secrets).not.toBeNull();
    expect(secrets?.includes(Buffer.from('c2VjcmV0'))).toBe(false);
    const replayed = unsealResponse(json, secrets, box, context);
    expect(JSON.stringify(replayed)).toBe(JSON.stringify(response));
  });

  it('stores a response without secret fields as it is', () => {
    expect(sealResponse(response, [], box, context)).toEqual({
      json: JSON.stringify(response),
      secrets: null,
    });
    expect(sealResponse({ id: 'w1' }, ['secret'], box, context)).toEqual({
      json: '{"id":"w1"}',
      secrets: null,
    });
    expect(sealResponse(undefined, ['secret'], box, context)).toEqual({
      json: 'null',
      secrets: null,
    });
    expect(unsealResponse('{"id":"w1"}', null, box, context)).toEqual({ id: 'w1' });
  });

  it("does not open another key's or tenant's sealed fields", () => {
    const { json, secrets } = sealResponse(response, ['secret'], box, context);
    const elsewhere = idempotencySecretsContext('a3c1f1de-0000-4000-8000-000000000002', 'key-1');
    expect(() => unsealResponse(json, secrets, box, elsewhere)).toThrow(/authentication/);
  });
});
