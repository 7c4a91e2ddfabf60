import { sign } from 'jsonwebtoken';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { Tenant } from '@/http/tenancy/tenant.entity';
import { createTestApp, ownerDataSource, TEST_JWT_SECRET, TestApp } from './support/test-app';
import { as, token } from './support/tokens';
import { createDemand, post, receiptBody } from './support/factories';

/** Every row of the tenancy status table (docs/api.md, Tenancy), through real HTTP. */
describe('authentication and tenancy', () => {
  let t: TestApp;
  let owner: DataSource;
  let tenantA: Tenant;
  let tenantB: Tenant;
  let inactive: Tenant;

  const search = () => request(t.server).post('/receipts/search').send([]);

  beforeAll(async () => {
    t = await createTestApp();
    owner = await ownerDataSource(t.ownerUrl);
    tenantA = await t.createTenant();
    tenantB = await t.createTenant();
    inactive = await t.createTenant();
    await owner.query('UPDATE tenants SET active = false WHERE id = $1', [inactive.id]);
  });
  afterAll(async () => {
    await owner.destroy();
    await t.close();
  });

  const expectProblem = (res: request.Response, status: number, code: string) => {
    expect(res.status).toBe(status);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({
      status,
      code,
      title: expect.any(String),
      detail: expect.any(String),
    });
    expect(res.body.type).toMatch(/^https:\/\//);
    expect(res.body.traceId).toEqual(expect.any(String));
    expect(res.body.instance).toBe('/receipts/search');
    expect(JSON.stringify(res.body)).not.toMatch(/at .*\.ts:\d+/); // no stack trace
  };

  it('accepts a valid token for the tenant', async () => {
    const res = await search().set(as(tenantA.key));
    expect(res.status).toBe(200);
    expect(res.body.totalElements).toBe(0);
  });

  it('accepts a tenant claim given as an array', async () => {
    const res = await search().set(as(tenantA.key, { tenant: [tenantB.key, tenantA.key] }));
    expect(res.status).toBe(200);
  });

  describe('401 with WWW-Authenticate: Bearer', () => {
    const cases: [string, () => Record<string, string>][] = [
      ['no token', () => ({ 'x-tenant-id': tenantA.key })],
      [
        'a malformed token',
        () => ({ authorization: 'Bearer not.a.jwt', 'x-tenant-id': tenantA.key }),
      ],
      [
        'a non-bearer scheme',
        () => ({ authorization: 'Basic dXNlcjpwYXNz', 'x-tenant-id': tenantA.key }),
      ],
      ['an expired token (beyond the 30 s tolerance)', () => as(tenantA.key, { expiresIn: -60 })],
      [
        'a token signed with another secret',
        () => as(tenantA.key, { secret: 'another-secret-that-is-long-enough-0123456789' }),
      ],
      [
        'a token that never expires (no exp)',
        () => ({
          authorization: `Bearer ${sign({ sub: 'x', tenant: tenantA.key, scope: 'receipts:read' }, TEST_JWT_SECRET)}`,
          'x-tenant-id': tenantA.key,
        }),
      ],
      [
        'a token with no subject (no sub, no preferred_username)',
        () => ({
          authorization: `Bearer ${sign({ tenant: tenantA.key, scope: 'receipts:read' }, TEST_JWT_SECRET, { expiresIn: '5m' })}`,
          'x-tenant-id': tenantA.key,
        }),
      ],
      [
        'an unsigned token (alg none)',
        () => ({
          authorization: `Bearer ${sign({ sub: 'x', tenant: tenantA.key, scope: 'receipts:read' }, '', { algorithm: 'none' })}`,
          'x-tenant-id': tenantA.key,
        }),
      ],
    ];
    it.each(cases)('%s', async (_name, headers) => {
      const res = await search().set(headers());
      expectProblem(res, 401, 'UNAUTHENTICATED');
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    });

    it('is checked before the tenant header', async () => {
      const res = await search();
      expect(res.status).toBe(401);
    });
  });

  it('accepts a token expired by less than the 30 s clock tolerance', async () => {
    const res = await search().set(as(tenantA.key, { expiresIn: -10 }));
    expect(res.status).toBe(200);
  });

  describe('400 for a missing or invalid x-tenant-id', () => {
    it('missing', async () => {
      const res = await search().set({ authorization: `Bearer ${token({ tenant: tenantA.key })}` });
      expectProblem(res, 400, 'TENANT_HEADER_INVALID');
    });
    // '{{tenantId}}': the document's default for Postman, sent unresolved (never a tenant).
    it.each(['Bad Key!', 'UPPER', '-leading-dash', 'x'.repeat(64), '', '{{tenantId}}'])(
      'invalid %p',
      async (key) => {
        const res = await search().set({
          authorization: `Bearer ${token({ tenant: key })}`,
          'x-tenant-id': key,
        });
        expectProblem(res, 400, 'TENANT_HEADER_INVALID');
      },
    );
  });

  describe('403 with one identical body for unknown, inactive and not-entitled tenants', () => {
    it('answers the same way in all three cases', async () => {
      const unknown = await search().set(as('no-such-tenant'));
      const inactiveRes = await search().set(as(inactive.key));
      const notEntitled = await search().set({
        authorization: `Bearer ${token({ tenant: tenantA.key })}`,
        'x-tenant-id': tenantB.key,
      });
      for (const res of [unknown, inactiveRes, notEntitled])
        expectProblem(res, 403, 'TENANT_FORBIDDEN');
      const strip = (b: Record<string, unknown>) => ({ ...b, traceId: undefined });
      expect(strip(inactiveRes.body)).toEqual(strip(unknown.body));
      expect(strip(notEntitled.body)).toEqual(strip(unknown.body));
    });

    it('refuses a tenant deactivated while its record is cached, and records nothing for it', async () => {
      const leaving = await t.createTenant();
      const demand = await createDemand(t, leaving.key);
      // The guard has now read `leaving` into its cache; deactivate it behind the service's back.
      await owner.query('UPDATE tenants SET active = false WHERE id = $1', [leaving.id]);
      const write = await post(t, leaving.key, '/receipts', receiptBody(demand.splits[0].id));
      expect(write.status).toBe(403);
      expect(write.body.code).toBe('TENANT_FORBIDDEN');
      const read = await search().set(as(leaving.key));
      expectProblem(read, 403, 'TENANT_FORBIDDEN');
      const [{ n }] = await owner.query<{ n: number }[]>(
        'SELECT count(*)::int AS n FROM receipts WHERE tenant_id = $1',
        [leaving.id],
      );
      expect(n).toBe(0);
      // Reactivated: served again (nothing negative was cached).
      await owner.query('UPDATE tenants SET active = true WHERE id = $1', [leaving.id]);
      expect((await search().set(as(leaving.key))).status).toBe(200);
    });

    it('refuses a token without any tenant claim', async () => {
      const res = await search().set({
        authorization: `Bearer ${token()}`,
        'x-tenant-id': tenantA.key,
      });
      expectProblem(res, 403, 'TENANT_FORBIDDEN');
    });
  });

  describe('403 when the token lacks the scope', () => {
    it('search needs receipts:read', async () => {
      const res = await search().set(
        as(tenantA.key, { scope: 'tenant-config:read receipts:write' }),
      );
      expectProblem(res, 403, 'INSUFFICIENT_SCOPE');
      expect(res.body.detail).toContain('receipts:read');
    });
    it('configuration PUT needs tenant-config:write', async () => {
      const res = await request(t.server)
        .put('/tenant/configuration')
        .set(as(tenantA.key, { scope: 'tenant-config:read' }))
        .send({});
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('INSUFFICIENT_SCOPE');
    });
    it('configuration GET needs tenant-config:read', async () => {
      const res = await request(t.server)
        .get('/tenant/configuration')
        .set(as(tenantA.key, { scope: 'receipts:read' }));
      expect(res.body.code).toBe('INSUFFICIENT_SCOPE');
    });
  });

  it('answers 404 for a UUID that belongs to another tenant, exactly as for one that does not exist', async () => {
    const [{ id: foreignConfigId }] = await owner.query<{ id: string }[]>(
      'SELECT id FROM tenant_configurations WHERE tenant_id = $1',
      [tenantB.id],
    );
    // A receipt id of tenant B does not exist for tenant A: same answer as a random UUID.
    const foreign = await request(t.server)
      .get(`/receipts/${foreignConfigId}`)
      .set(as(tenantA.key));
    const random = await request(t.server)
      .get('/receipts/6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b')
      .set(as(tenantA.key));
    expect(foreign.status).toBe(404);
    expect(random.status).toBe(404);
    expect(foreign.body.code).toBe(random.body.code);
  });

  describe('errors', () => {
    it('malformed JSON is a 400 problem', async () => {
      const res = await request(t.server)
        .post('/receipts/search')
        .set(as(tenantA.key))
        .set('content-type', 'application/json')
        .send('[{"field": ');
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('MALFORMED_JSON');
    });
    it('a body nested too deeply is a 400 problem, not a crash', async () => {
      const deep = '['.repeat(20_000) + ']'.repeat(20_000);
      for (const path of ['/receipts/search', '/bookings', '/tenant/configuration']) {
        const res = await request(t.server)
          [path === '/tenant/configuration' ? 'put' : 'post'](path)
          .set(as(tenantA.key))
          .set('content-type', 'application/json')
          .set('idempotency-key', 'deep-1')
          .send(`{"unit": ${deep}, "buyerName": "x", "bookingDate": "2026-11-22"}`);
        expect({ path, status: res.status, code: res.body.code }).toEqual({
          path,
          status: 400,
          code: 'BODY_TOO_COMPLEX',
        });
      }
    });
    it('a NUL character in a string is a 400 VALIDATION_FAILED naming the field', async () => {
      const res = await request(t.server).post('/bookings').set(as(tenantA.key)).send({
        unit: '6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b',
        buyerName: 'A\u0000B',
        bookingDate: '2026-11-22',
      });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.errors).toEqual([{ field: 'buyerName', message: expect.any(String) }]);
    });
    it('a body that is not JSON is refused with 415 instead of being ignored', async () => {
      const res = await request(t.server)
        .post('/receipts/search')
        .set(as(tenantA.key))
        .set('content-type', 'text/plain')
        .send('[{"field":"status","query":"ACTIVE","type":"EQUALS"}]');
      expect(res.status).toBe(415);
      expect(res.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    });
    it('an empty body sent as application/json counts as no body', async () => {
      const res = await request(t.server)
        .post('/receipts/search')
        .set(as(tenantA.key))
        .set('content-type', 'application/json')
        .send('');
      expect(res.status).toBe(200);
    });
    it('a body over the limit is a 413 problem', async () => {
      const res = await request(t.server)
        .post('/receipts/search')
        .set(as(tenantA.key))
        .set('content-type', 'application/json')
        .send(
          JSON.stringify([{ field: 'keyword', type: 'CONTAINS', query: 'x'.repeat(1_100_000) }]),
        );
      expect(res.status).toBe(413);
      expect(res.body.code).toBe('PAYLOAD_TOO_LARGE');
    });
    it('an unknown route is a 404 problem', async () => {
      const res = await request(t.server).get('/nope').set(as(tenantA.key));
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toMatch(/problem\+json/);
    });
  });

  describe('public endpoints', () => {
    it('health needs no token', async () => {
      expect((await request(t.server).get('/health/live')).status).toBe(200);
      const ready = await request(t.server).get('/health/ready');
      expect(ready.status).toBe(200);
      expect(ready.body.info.database.status).toBe('up');
    });
    it('serves the OpenAPI document with both security schemes', async () => {
      const res = await request(t.server).get('/docs-json');
      expect(res.status).toBe(200);
      expect(Object.keys(res.body.components.securitySchemes).sort()).toEqual(['bearer', 'tenant']);
      expect(res.body.components.securitySchemes.tenant).toMatchObject({
        in: 'header',
        name: 'x-tenant-id',
      });
      expect(res.body.paths['/receipts/search'].post).toBeDefined();
      expect(res.body.paths['/tenant/configuration'].put).toBeDefined();
    });
    it('documents every schema property with a description, and an example unless it is a nested object', async () => {
      const res = await request(t.server).get('/docs-json');
      const schemas = res.body.components.schemas as Record<
        string,
        { properties?: Record<string, Record<string, unknown>> }
      >;
      const lacking: string[] = [];
      for (const [name, schema] of Object.entries(schemas)) {
        for (const [prop, spec] of Object.entries(schema.properties ?? {})) {
          const nested =
            '$ref' in spec ||
            'allOf' in spec ||
            (spec.items as Record<string, unknown> | undefined)?.$ref !== undefined;
          if (!('description' in spec)) lacking.push(`${name}.${prop}: description`);
          if (!nested && !('example' in spec)) lacking.push(`${name}.${prop}: example`);
        }
      }
      expect(lacking).toEqual([]);
    });
  });
});
