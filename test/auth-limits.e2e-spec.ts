import request from 'supertest';
import { randomBytes } from 'node:crypto';
import { Tenant } from '@/http/tenancy/tenant.entity';
import { createTestApp, TestApp } from './support/test-app';
import { as, token } from './support/tokens';

const now = () => Math.floor(Date.now() / 1000);

describe('token time claims (HS256 mode, 30 s clock tolerance)', () => {
  let t: TestApp;
  let tenant: Tenant;

  beforeAll(async () => {
    t = await createTestApp();
    tenant = await t.createTenant();
  });
  afterAll(() => t?.close());

  const search = (claims: Record<string, unknown>) =>
    request(t.server)
      .post('/receipts/search')
      .set(as(tenant.key, { extra: claims }))
      .send([]);

  it.each([
    ['iat 300 s in the future', () => ({ iat: now() + 300 })],
    ['nbf 300 s in the future', () => ({ nbf: now() + 300 })],
  ])('refuses a token with %s: 401 UNAUTHENTICATED problem+json', async (_name, claims) => {
    const res = await search(claims());
    expect(res.status).toBe(401);
    expect(res.headers['content-type']).toMatch(/problem\+json/);
    expect(res.body.code).toBe('UNAUTHENTICATED');
    expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
  });

  it('accepts iat and nbf within the tolerance (a few seconds of clock skew)', async () => {
    const res = await search({ iat: now() + 10, nbf: now() + 10 });
    expect(res.status).toBe(200);
  });
});

describe.each(['postgres', 'memory'])(
  'rate limit (%s store): one budget per client across routes',
  (store) => {
    let t: TestApp;
    let a: Tenant;
    let b: Tenant;
    // Requests come through a trusted proxy from an address of this app's own: with the shared
    // store, the peer address (127.0.0.1) would be charged by every suite on the database.
    const address = `198.18.${randomBytes(1)[0]}.${1 + (randomBytes(1)[0] % 250)}`;

    beforeAll(async () => {
      t = await createTestApp({
        RATE_LIMIT_PER_MINUTE: '3',
        RATE_LIMIT_STORE: store,
        TRUSTED_PROXIES: '127.0.0.1/32,::1',
      });
      a = await t.createTenant();
      b = await t.createTenant();
    });
    afterAll(() => t?.close());

    const search = (headers: Record<string, string>) =>
      request(t.server)
        .post('/receipts/search')
        .set({ 'x-forwarded-for': address, ...headers })
        .send([]);
    const config = (headers: Record<string, string>) =>
      request(t.server)
        .get('/tenant/configuration')
        .set({ 'x-forwarded-for': address, ...headers });

    it('spends one budget on two different routes, then 429 problem+json with Retry-After', async () => {
      const alice = as(a.key, { sub: 'alice' });
      const statuses = [
        (await search(alice)).status,
        (await config(alice)).status,
        (await search(alice)).status,
      ];
      expect(statuses).toEqual([200, 200, 200]);
      const limited = await config(alice);
      expect(limited.status).toBe(429);
      expect(limited.headers['content-type']).toMatch(/problem\+json/);
      expect(limited.body.code).toBe('RATE_LIMITED');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    });

    it("does not limit tenant B when the same subject spent tenant A's budget", async () => {
      const bob = { sub: 'bob', tenant: [a.key, b.key] };
      for (let i = 0; i < 3; i++) expect((await search(as(a.key, bob))).status).toBe(200);
      expect((await search(as(a.key, bob))).status).toBe(429);
      const inB = await search(as(b.key, bob));
      expect(inB.status).toBe(200);
    });

    it('does not limit another subject of the same tenant and address', async () => {
      for (let i = 0; i < 4; i++) await search(as(a.key, { sub: 'carol' }));
      expect((await search(as(a.key, { sub: 'dave' }))).status).toBe(200);
    });

    it('never limits health routes, even for a client whose budget is spent', async () => {
      const erin = as(a.key, { sub: 'erin' });
      for (let i = 0; i < 4; i++) await search(erin);
      expect((await search(erin)).status).toBe(429);
      for (let i = 0; i < 10; i++) {
        expect((await request(t.server).get('/health/live').set(erin)).status).toBe(200);
        expect((await request(t.server).get('/health/ready')).status).toBe(200);
      }
    });

    it('charges refused tokens to the client address', async () => {
      const bad = { authorization: `Bearer ${token({ tenant: a.key, secret: 'x'.repeat(40) })}` };
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++)
        statuses.push((await search({ ...bad, 'x-tenant-id': a.key })).status);
      expect(statuses).toEqual([401, 401, 401, 429]);
    });
  },
);

describe('X-Forwarded-For and TRUSTED_PROXIES', () => {
  // Requests without a token are charged to the client address (req.ip). The apps count in
  // memory: how the address is found does not depend on the store, and a shared budget of the
  // peer address (127.0.0.1) would count every suite's anonymous requests.
  const anonymous = (t: TestApp, forwardedFor: string) =>
    request(t.server).post('/receipts/search').set('x-forwarded-for', forwardedFor).send([]);

  describe('with no trusted proxy (the default)', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '3', RATE_LIMIT_STORE: 'memory' });
    });
    afterAll(() => t?.close());

    it('ignores a spoofed X-Forwarded-For: every address shares the peer budget', async () => {
      const statuses: number[] = [];
      for (const ip of ['198.51.100.1', '198.51.100.2', '198.51.100.3', '198.51.100.4']) {
        statuses.push((await anonymous(t, ip)).status);
      }
      expect(statuses).toEqual([401, 401, 401, 429]);
    });
  });

  describe('from a trusted proxy', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({
        RATE_LIMIT_PER_MINUTE: '3',
        RATE_LIMIT_STORE: 'memory',
        TRUSTED_PROXIES: '127.0.0.1/32,::1',
      });
    });
    afterAll(() => t?.close());

    it('keys the budget by the forwarded client address', async () => {
      const first: number[] = [];
      for (let i = 0; i < 4; i++) first.push((await anonymous(t, '203.0.113.7')).status);
      expect(first).toEqual([401, 401, 401, 429]);
      // Another forwarded client behind the same proxy still has its own budget.
      expect((await anonymous(t, '203.0.113.8')).status).toBe(401);
    });
  });
});
