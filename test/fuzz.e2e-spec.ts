import { existsSync, readFileSync } from 'node:fs';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import request from 'supertest';
import { fuzzSeed, operationsOf, problemShapeError, runFuzz } from '../bench/fuzz';
import { createTestApp, TestApp } from './support/test-app';
import { as } from './support/tokens';

/**
 * Property-based fuzzing over every operation of the committed OpenAPI document (or the live
 * /docs-json while the file does not exist), plus the cases as explicit tests.
 * Reproduce a run with FUZZ_SEED=<seed> (default 42) and FUZZ_RUNS=<n> (default 300).
 */
describe('Fuzzing: no input reaches a 500', () => {
  let t: TestApp;
  let auth: Record<string, string>;
  let baseUrl: string;

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${(t.server.address() as AddressInfo).port}`;
    const tenant = await t.createTenant();
    auth = as(tenant.key);
  });
  afterAll(() => t.close());

  const post = (url: string) => request(t.server).post(url).set(auth);
  /** Raw bytes as sent (supertest would JSON-encode a Buffer under a JSON Content-Type). */
  const sendRaw = async (url: string, headers: Record<string, string>, body: Buffer) => {
    const res = await fetch(`${baseUrl}${url}`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json', ...headers },
      body,
    });
    const text = await res.text();
    const contentType = res.headers.get('content-type') ?? '';
    return {
      status: res.status,
      text,
      headers: { 'content-type': contentType },
      body: contentType.includes('json') ? (JSON.parse(text) as unknown) : text,
    } as unknown as request.Response;
  };
  const expectProblem = (res: request.Response, status: number, code: string) => {
    expect({ status: res.status, code: (res.body as { code?: string }).code }).toEqual({
      status,
      code,
    });
    expect(problemShapeError(res.status, res.headers['content-type'] ?? '', res.text)).toBeNull();
    return res.body as { errors?: { field: string; message: string }[]; errorsTruncated?: number };
  };

  it('every operation of the OpenAPI document: 0 responses >= 500, every error problem+json', async () => {
    const file = join(__dirname, '..', 'openapi.json');
    const doc = existsSync(file)
      ? JSON.parse(readFileSync(file, 'utf8'))
      : (await request(t.server).get('/docs-json').expect(200)).body;
    expect(operationsOf(doc).length).toBeGreaterThanOrEqual(10);
    const result = await runFuzz({
      baseUrl,
      doc,
      auth,
      seed: fuzzSeed(),
      runs: Number(process.env.FUZZ_RUNS ?? 300),
    });
    expect(result.serverErrors).toEqual([]);
    expect(result.notProblem).toEqual([]);
    expect(result.sent).toBeGreaterThan(0);
  });

  describe('Content-Encoding', () => {
    const body = Buffer.from('[]');
    it.each([
      ['gzip', gzipSync(body)],
      ['deflate', deflateSync(body)],
      ['br', brotliCompressSync(body)],
      ['identity', body],
    ])('a real %s body still works', async (encoding, bytes) => {
      const res = await sendRaw('/receipts/search', { 'content-encoding': encoding }, bytes);
      expect(res.status).toBe(200);
    });

    it.each(['gzip', 'deflate', 'br'])(
      'a body that says %s but is not is 400 BODY_ENCODING_INVALID',
      async (encoding) => {
        const res = await sendRaw(
          '/receipts/search',
          { 'content-encoding': encoding },
          Buffer.from('[{"field":"amount"}]'),
        );
        expectProblem(res, 400, 'BODY_ENCODING_INVALID');
      },
    );

    it.each(['zstd', 'compress', 'gzip, br'])(
      '%s is 415 UNSUPPORTED_CONTENT_ENCODING',
      async (e) => {
        const res = await post('/receipts/search')
          .set('content-type', 'application/json')
          .set('content-encoding', e)
          .send(Buffer.from('[]'));
        expectProblem(res, 415, 'UNSUPPORTED_CONTENT_ENCODING');
      },
    );

    it('a decompression bomb is cut at the body limit (413)', async () => {
      const res = await sendRaw(
        '/receipts/search',
        { 'content-encoding': 'gzip' },
        gzipSync(Buffer.from(`["${'a'.repeat(20_000_000)}"]`)),
      );
      expectProblem(res, 413, 'PAYLOAD_TOO_LARGE');
    });
  });

  describe('one guard for all string input', () => {
    it.each([
      ['receiptNumberPrefix', '"\\ud800x"'],
      ['separator', '"\\udc00"'],
      ['bookingNumberPrefix', '"A\\u0000"'],
    ])(
      'the numbering configuration refuses bad text in %s (was a 500 22P02)',
      async (field, raw) => {
        // A complete, otherwise valid configuration, so only the bad text can be refused.
        const current = (await request(t.server).get('/tenant/configuration').set(auth).expect(200))
          .body as Record<string, unknown>;
        for (const key of ['id', 'created', 'createdBy', 'modified', 'lastModifiedBy', 'version']) {
          delete current[key];
        }
        const body = JSON.stringify({ ...current, [field]: 'BAD' }).replace('"BAD"', raw);
        for (const method of ['put', 'post'] as const) {
          const url = method === 'put' ? '/tenant/configuration' : '/tenant/configuration/preview';
          const res = await request(t.server)
            [method](url)
            .set(auth)
            .set('content-type', 'application/json')
            .send(body);
          const problem = expectProblem(res, 400, 'VALIDATION_FAILED');
          expect(problem.errors).toEqual([{ field, message: expect.any(String) }]);
        }
      },
    );

    it('invalid UTF-8 bytes are refused naming the field, never stored as U+FFFD', async () => {
      const raw = Buffer.concat([
        Buffer.from('{"reason":"bad '),
        Buffer.from([0xff, 0xc3]),
        Buffer.from('"}'),
      ]);
      const res = await sendRaw('/receipts/00000000-0000-4000-8000-000000000000/cancel', {}, raw);
      const body = expectProblem(res, 400, 'VALIDATION_FAILED');
      expect(body.errors).toEqual([{ field: 'reason', message: expect.stringMatching(/UTF-8/) }]);
    });

    it('a lone surrogate in a nested search filter names its path', async () => {
      const res = await post('/receipts/search')
        .set('content-type', 'application/json')
        .send('[{"field":"payerName","operator":"equals","value":"x\\ud83d"}]');
      const body = expectProblem(res, 400, 'VALIDATION_FAILED');
      expect(body.errors?.[0]?.field).toBe('[0].value');
    });
  });

  describe('BODY_TOO_COMPLEX before validation, errors capped at 50', () => {
    it('50,000 unknown keys are refused at once with a small answer', async () => {
      const wide = Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`k${i}`, i]));
      const res = await request(t.server).put('/tenant/configuration').set(auth).send(wide);
      expectProblem(res, 400, 'BODY_TOO_COMPLEX');
      expect(res.text.length).toBeLessThan(2000);
    });

    it('nesting deeper than 32 is BODY_TOO_COMPLEX', async () => {
      let deep: unknown = 1;
      for (let i = 0; i < 33; i++) deep = { a: deep };
      expectProblem(await post('/demands').send(deep as object), 400, 'BODY_TOO_COMPLEX');
    });

    it('1,000 unknown keys give 50 errors plus errorsTruncated', async () => {
      const wide = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`k${i}`, i]));
      const body = expectProblem(
        await request(t.server).put('/tenant/configuration').set(auth).send(wide),
        400,
        'VALIDATION_FAILED',
      );
      expect(body.errors).toHaveLength(50);
      expect(body.errorsTruncated).toBeGreaterThanOrEqual(950);
    });
  });

  describe('UNKNOWN_PARAMETER', () => {
    it.each([
      ['page[]=1', 'page[]'],
      ['sort[a]=b', 'sort[a]'],
      ['page=1&page=2', 'page'],
      ['pgae=1', 'pgae'],
    ])('search?%s is 400 naming %s', async (query, name) => {
      const res = await post(`/receipts/search?${query}`).send([]);
      const body = expectProblem(res, 400, 'UNKNOWN_PARAMETER');
      expect(body.errors?.[0]?.field).toBe(name);
    });

    it('declared parameters still work, sort is repeatable', async () => {
      await post('/receipts/search?page=0&size=5&sort=amount,asc&sort=id,desc')
        .send([])
        .expect(200);
    });

    it('a route that declares none accepts none', async () => {
      const res = await request(t.server).get('/tenant/configuration?verbose=1').set(auth);
      expectProblem(res, 400, 'UNKNOWN_PARAMETER');
    });

    it('query text that is not valid Unicode is VALIDATION_FAILED', async () => {
      const res = await post('/receipts/search?sort=%ED%A0%80').send([]);
      expectProblem(res, 400, 'VALIDATION_FAILED');
    });
  });
});
