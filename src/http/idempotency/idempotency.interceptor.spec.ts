import { canonicalJson, requestHash } from '@/http/idempotency/idempotency.interceptor';

describe(canonicalJson.name, () => {
  it('sorts object keys at every level and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 2 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[2,{"y":2,"z":1}]},"b":1}',
    );
  });

  it('drops undefined properties like JSON.stringify and maps a missing body to null', () => {
    expect(canonicalJson({ a: undefined, b: 'x' })).toBe('{"b":"x"}');
    expect(canonicalJson(undefined)).toBe('null');
  });

  it('keeps numbers as JSON writes them (100 and 100.0 parse to the same number)', () => {
    expect(canonicalJson(JSON.parse('{"amount":100.0}'))).toBe(canonicalJson({ amount: 100 }));
    expect(canonicalJson({ amount: 100.5 })).not.toBe(canonicalJson({ amount: 100.05 }));
  });
});

describe(requestHash.name, () => {
  const body = { demandSplit: 'a', amount: 10 };

  it('is equal for the same method, path and body in any key order', () => {
    expect(requestHash('POST', '/receipts', body)).toBe(
      requestHash('post', '/receipts', { amount: 10, demandSplit: 'a' }),
    );
  });

  it('differs when the path, the method or the body differs', () => {
    const base = requestHash('POST', '/receipts', body);
    expect(requestHash('POST', '/bookings', body)).not.toBe(base);
    expect(requestHash('PUT', '/receipts', body)).not.toBe(base);
    expect(requestHash('POST', '/receipts', { ...body, amount: 11 })).not.toBe(base);
    expect(requestHash('POST', '/receipts', [body])).not.toBe(base);
  });
});
