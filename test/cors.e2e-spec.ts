import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { Tenant } from '@/http/tenancy/tenant.entity';
import { createTestApp, TestApp } from './support/test-app';
import { as } from './support/tokens';
import { createDemand, receiptBody, recordReceipt } from './support/factories';

const DASHBOARD = 'https://dashboard.example';
const SECOND = 'http://127.0.0.1:5173';
const UNLISTED = 'https://evil.example';

const ALLOWED_HEADERS = [
  'authorization',
  'content-type',
  'content-encoding',
  'x-tenant-id',
  'idempotency-key',
  'if-match',
  'if-none-match',
  'x-consistency-token',
];
const EXPOSED_HEADERS = [
  'etag',
  'location',
  'retry-after',
  'x-consistency-token',
  'content-disposition',
];

const list = (value: unknown) =>
  typeof value === 'string'
    ? value
        .split(',')
        .map((s) => s.trim().toLowerCase())
        .filter(Boolean)
    : [];
const accessControlHeaders = (res: request.Response) =>
  Object.keys(res.headers).filter((name) => name.startsWith('access-control-'));

/** What every response to a listed origin carries (docs/browser.md), errors included. */
function expectCorsFor(res: request.Response, origin = DASHBOARD): void {
  expect(res.headers['access-control-allow-origin']).toBe(origin);
  expect(list(res.headers['access-control-expose-headers'])).toEqual(EXPOSED_HEADERS);
  expect(res.headers['access-control-allow-credentials']).toBeUndefined();
  expect(list(res.headers.vary)).toContain('origin');
}

function expectNoCors(res: request.Response): void {
  expect(accessControlHeaders(res)).toEqual([]);
}

function expectProblem(res: request.Response, status: number, code: string): void {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(res.body.code).toBe(code);
}

const preflight = (
  t: TestApp,
  path: string,
  origin: string,
  method = 'POST',
  headers = 'authorization,content-type,x-tenant-id,idempotency-key',
) =>
  request(t.server)
    .options(path)
    .set('Origin', origin)
    .set('Access-Control-Request-Method', method)
    .set('Access-Control-Request-Headers', headers);

/** Browsers (docs/browser.md): CORS_ORIGINS, through real HTTP on the real AppModule. */
describe('CORS for a dashboard on another origin', () => {
  let t: TestApp;
  let tenantA: Tenant;
  let tenantB: Tenant;

  beforeAll(async () => {
    t = await createTestApp({ CORS_ORIGINS: `${DASHBOARD}, ${SECOND}` });
    tenantA = await t.createTenant();
    tenantB = await t.createTenant();
  });
  afterAll(() => t?.close());

  describe('preflight', () => {
    it('answers a listed origin 204 with the methods, the headers and max-age 600', async () => {
      const res = await preflight(t, '/receipts/search', DASHBOARD);
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect(res.headers['access-control-allow-origin']).toBe(DASHBOARD);
      expect(list(res.headers['access-control-allow-methods'])).toEqual(
        expect.arrayContaining(['get', 'post', 'put', 'patch', 'delete']),
      );
      expect(list(res.headers['access-control-allow-headers'])).toEqual(ALLOWED_HEADERS);
      expect(res.headers['access-control-max-age']).toBe('600');
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
      expect(list(res.headers.vary)).toContain('origin');
      // Answered before authentication: no 401 challenge.
      expect(res.headers['www-authenticate']).toBeUndefined();
    });

    it('answers every listed origin with its own origin, for each method the API uses', async () => {
      const put = await preflight(
        t,
        '/tenant/configuration',
        SECOND,
        'PUT',
        'authorization,content-type,x-tenant-id,if-match',
      );
      expect(put.status).toBe(204);
      expect(put.headers['access-control-allow-origin']).toBe(SECOND);
      const get = await preflight(
        t,
        `/receipts/${randomUUID()}/document`,
        DASHBOARD,
        'GET',
        'authorization,x-tenant-id,if-none-match,x-consistency-token',
      );
      expect(get.status).toBe(204);
      expect(get.headers['access-control-allow-origin']).toBe(DASHBOARD);
      // Any path: the preflight never reaches routing (no 404 for an id that does not exist).
      const anywhere = await preflight(t, '/no/such/route', DASHBOARD, 'DELETE');
      expect(anywhere.status).toBe(204);
      expect(anywhere.headers['access-control-allow-origin']).toBe(DASHBOARD);
    });

    it('answers an unlisted origin 204 without any CORS header (the browser refuses)', async () => {
      for (const origin of [UNLISTED, `${DASHBOARD}.evil.example`, 'https://DASHBOARD.example']) {
        const res = await preflight(t, '/receipts/search', origin);
        expect(res.status).toBe(204);
        expect(res.text).toBe('');
        expectNoCors(res);
        expect(list(res.headers.vary)).toContain('origin');
      }
    });
  });

  describe('actual requests from a listed origin', () => {
    it('search: 200 with the allow-origin and the exposed headers', async () => {
      const res = await request(t.server)
        .post('/receipts/search')
        .set('Origin', DASHBOARD)
        .set(as(tenantA.key))
        .send([]);
      expect(res.status).toBe(200);
      expectCorsFor(res);
    });

    it('a write with an Idempotency-Key exposes its X-Consistency-Token', async () => {
      const demand = await createDemand(t, tenantA.key);
      const key = randomUUID();
      const send = () =>
        request(t.server)
          .post('/receipts')
          .set('Origin', DASHBOARD)
          .set(as(tenantA.key))
          .set('Idempotency-Key', key)
          .send(receiptBody(demand.splits[0].id, { transactionRef: `UTR-${key}` }));
      const res = await send();
      expect(res.status).toBe(201);
      expectCorsFor(res);
      expect(res.headers['x-consistency-token']).toEqual(expect.any(String));
      // The replay is answered by the idempotency store: CORS headers all the same.
      const replay = await send();
      expect(replay.status).toBe(201);
      expect(replay.body.id).toBe(res.body.id);
      expectCorsFor(replay);
    });

    it('GET /tenant/configuration exposes its ETag', async () => {
      const res = await request(t.server)
        .get('/tenant/configuration')
        .set('Origin', SECOND)
        .set(as(tenantA.key));
      expect(res.status).toBe(200);
      expect(res.headers.etag).toEqual(expect.any(String));
      expectCorsFor(res, SECOND);
    });

    it('the receipt PDF exposes Content-Disposition and ETag; its 304 keeps CORS', async () => {
      const receipt = await recordReceipt(t, tenantA.key);
      const res = await request(t.server)
        .get(`/receipts/${receipt.id}/document?download=1`)
        .set('Origin', DASHBOARD)
        .set(as(tenantA.key));
      expect(res.status).toBe(200);
      expect(res.headers['content-disposition']).toMatch(/^attachment/);
      expect(res.headers.etag).toEqual(expect.any(String));
      expectCorsFor(res);
      const unchanged = await request(t.server)
        .get(`/receipts/${receipt.id}/document?download=1`)
        .set('Origin', DASHBOARD)
        .set(as(tenantA.key))
        .set('If-None-Match', res.headers.etag);
      expect(unchanged.status).toBe(304);
      expectCorsFor(unchanged);
    });
  });

  describe('error responses to a listed origin carry the CORS headers', () => {
    it('401 without a token', async () => {
      const res = await request(t.server)
        .post('/receipts/search')
        .set('Origin', DASHBOARD)
        .set('x-tenant-id', tenantA.key)
        .send([]);
      expectProblem(res, 401, 'UNAUTHENTICATED');
      expectCorsFor(res);
    });

    it('400 without x-tenant-id', async () => {
      const { authorization } = as(tenantA.key);
      const res = await request(t.server)
        .post('/receipts/search')
        .set('Origin', DASHBOARD)
        .set('authorization', authorization)
        .send([]);
      expectProblem(res, 400, 'TENANT_HEADER_INVALID');
      expectCorsFor(res);
    });

    it('404 for a route that does not exist', async () => {
      const res = await request(t.server)
        .get('/no/such/route')
        .set('Origin', DASHBOARD)
        .set(as(tenantA.key));
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expectCorsFor(res);
    });

    it('415 from the body checks that run before the guards', async () => {
      const res = await request(t.server)
        .post('/receipts/search')
        .set('Origin', DASHBOARD)
        .set(as(tenantA.key))
        .set('Content-Type', 'application/json')
        .set('Content-Encoding', 'compress')
        .send('[]');
      expect(res.status).toBe(415);
      expectCorsFor(res);
    });
  });

  describe('tenancy is unchanged from a listed origin', () => {
    it("a token for tenant A with x-tenant-id B is 403, and B's receipt stays invisible", async () => {
      const receiptOfB = await recordReceipt(t, tenantB.key);
      const forbidden = await request(t.server)
        .post('/receipts/search')
        .set('Origin', DASHBOARD)
        .set(as(tenantA.key))
        .set('x-tenant-id', tenantB.key)
        .send([]);
      expectProblem(forbidden, 403, 'TENANT_FORBIDDEN');
      expectCorsFor(forbidden);
      expect(JSON.stringify(forbidden.body)).not.toContain(receiptOfB.id);

      const read = await request(t.server)
        .get(`/receipts/${receiptOfB.id}`)
        .set('Origin', DASHBOARD)
        .set(as(tenantA.key));
      expectProblem(read, 404, 'RECEIPT_NOT_FOUND');
      expectCorsFor(read);

      const search = await request(t.server)
        .post('/receipts/search?size=500')
        .set('Origin', DASHBOARD)
        .set(as(tenantA.key))
        .send([]);
      expect(search.status).toBe(200);
      expect(search.body.content.map((r: { id: string }) => r.id)).not.toContain(receiptOfB.id);
    });
  });

  describe('other origins and same-origin calls', () => {
    it('an unlisted origin gets no CORS header on an actual request', async () => {
      const res = await request(t.server)
        .post('/receipts/search')
        .set('Origin', UNLISTED)
        .set(as(tenantA.key))
        .send([]);
      // The server does not refuse (it cannot tell a browser); the browser hides the answer.
      expect(res.status).toBe(200);
      expectNoCors(res);
      expect(list(res.headers.vary)).toContain('origin');
    });

    it('a request without Origin gets no CORS header, and Vary: Origin', async () => {
      for (const res of [
        await request(t.server).get('/tenant/configuration').set(as(tenantA.key)),
        await request(t.server).get('/health/live'),
        await request(t.server).post('/receipts/search').send([]),
      ]) {
        expectNoCors(res);
        expect(list(res.headers.vary)).toContain('origin');
      }
    });

    it("keeps helmet's Cross-Origin-Resource-Policy (it does not apply to CORS fetches)", async () => {
      const res = await request(t.server)
        .get('/tenant/configuration')
        .set('Origin', DASHBOARD)
        .set(as(tenantA.key));
      expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
      expectCorsFor(res);
    });
  });
});

describe('CORS with a spent rate budget', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ CORS_ORIGINS: DASHBOARD, RATE_LIMIT_PER_MINUTE: '2' });
  });
  afterAll(() => t?.close());

  it('429 carries the CORS headers (Retry-After readable); preflights are still 204', async () => {
    const tenant = await t.createTenant();
    const statuses: number[] = [];
    let last: request.Response | undefined;
    for (let i = 0; i < 3; i++) {
      last = await request(t.server)
        .post('/receipts/search')
        .set('Origin', DASHBOARD)
        .set(as(tenant.key))
        .send([]);
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 429]);
    expectProblem(last!, 429, 'RATE_LIMITED');
    expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
    expectCorsFor(last!);
    for (let i = 0; i < 5; i++) {
      const res = await preflight(t, '/receipts/search', DASHBOARD);
      expect(res.status).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe(DASHBOARD);
    }
  });
});

describe('CORS_ORIGINS unset', () => {
  let t: TestApp;
  let tenant: Tenant;

  beforeAll(async () => {
    t = await createTestApp();
    tenant = await t.createTenant();
  });
  afterAll(() => t?.close());

  it('no response carries any CORS header, preflight or not', async () => {
    const responses = [
      await preflight(t, '/receipts/search', DASHBOARD),
      await request(t.server)
        .post('/receipts/search')
        .set('Origin', DASHBOARD)
        .set(as(tenant.key))
        .send([]),
      await request(t.server).post('/receipts/search').set('Origin', DASHBOARD).send([]),
      await request(t.server)
        .get('/tenant/configuration')
        .set('Origin', DASHBOARD)
        .set(as(tenant.key)),
    ];
    for (const res of responses) {
      expectNoCors(res);
      expect(list(res.headers.vary)).not.toContain('origin');
    }
    expect(responses[1].status).toBe(200);
  });
});

describe('CORS_ORIGINS that is not a list of origins', () => {
  it.each(['https://a.example/', 'a.example', '*', `${DASHBOARD},https://b.example/app`])(
    'stops the boot naming CORS_ORIGINS: %s',
    async (value) => {
      await expect(createTestApp({ CORS_ORIGINS: value })).rejects.toThrow(/CORS_ORIGINS/);
    },
  );
});
