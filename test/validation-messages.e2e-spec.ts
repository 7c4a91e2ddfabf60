import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { get, post } from './support/factories';
import { createTestApp, TestApp } from './support/test-app';
import { as } from './support/tokens';

interface FieldError {
  field: string;
  message: string;
}

/** One VALIDATION_FAILED wording for bodies, query parameters and path ids. */
describe('validation messages', () => {
  let t: TestApp;
  let tenant: string;

  beforeAll(async () => {
    t = await createTestApp();
    tenant = (await t.createTenant()).key;
  });
  afterAll(() => t?.close());

  const expectInvalid = (res: request.Response): FieldError[] => {
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    const errors = res.body.errors as FieldError[];
    expect(res.body.detail).toBe(
      `The request is not valid: ${errors.map((e) => e.message).join('; ')}.`,
    );
    for (const e of errors) expect(e.message.startsWith(`${e.field} `)).toBe(true);
    return errors;
  };

  it('a missing reason is required, not too long', async () => {
    const res = await post(t, tenant, `/bookings/${randomUUID()}/interest-waivers`, {
      payerId: randomUUID(),
      amount: 10,
    });
    expect(expectInvalid(res)).toEqual([{ field: 'reason', message: 'reason is required' }]);
  });

  it('a policy missing every field but one gets one message per missing field', async () => {
    const res = await request(t.server)
      .put('/tenant/interest-policy')
      .set(as(tenant))
      .send({ enabled: true });
    const errors = expectInvalid(res);
    const fields = errors.map((e) => e.field);
    expect(new Set(fields).size).toBe(fields.length);
    expect(fields).not.toContain('enabled');
    expect(errors).toContainEqual({ field: 'graceDays', message: 'graceDays is required' });
    for (const e of errors) expect(e.message).toBe(`${e.field} is required`);
  });

  it('a repeated receipt in a manual match says so plainly', async () => {
    const receipt = randomUUID();
    const res = await post(t, tenant, `/bank-lines/${randomUUID()}/match`, {
      receipts: [receipt, receipt],
    });
    expect(expectInvalid(res)).toEqual([
      { field: 'receipts', message: 'receipts must not list the same value twice' },
    ]);
  });

  it('query parameters read as bodies do', async () => {
    expect(expectInvalid(await get(t, tenant, '/receivables/ageing?groupBy=unit'))).toEqual([
      { field: 'groupBy', message: 'groupBy must be one of none, booking, payerType, demandType' },
    ]);
    expect(expectInvalid(await get(t, tenant, '/events?limit=0'))).toEqual([
      { field: 'limit', message: 'limit must be an integer from 1 to 500' },
    ]);
    expectInvalid(await get(t, tenant, `/bookings/${randomUUID()}/statement?asOf=2026-02-30`));
    expectInvalid(await get(t, tenant, '/receipts/not-a-uuid'));
  });

  it('an unknown body field is named', async () => {
    const res = await request(t.server)
      .put('/tenant/interest-policy')
      .set(as(tenant))
      .send({ colour: 'blue' });
    expect(expectInvalid(res)).toContainEqual({
      field: 'colour',
      message: 'colour is an unknown field',
    });
  });

  describe('valid JSON of the wrong shape', () => {
    const send = (method: 'post' | 'put', path: string, body: string) =>
      request(t.server)
        [method](path)
        .set(as(tenant))
        .set('content-type', 'application/json')
        .send(body);

    it.each([
      ['post', '/receipts', '"hello"', 'body must be a JSON object'],
      ['post', '/receipts', '[1,2]', 'body must be a JSON object'],
      ['post', '/receipts', 'null', 'body must be a JSON object'],
      ['put', '/tenant/configuration', '42', 'body must be a JSON object'],
      ['post', '/receipts/search', '"hello"', 'body must be a JSON array of filters'],
      ['post', '/receipts/search', '{"field":"amount"}', 'body must be a JSON array of filters'],
    ] as const)('%s %s %s', async (method, path, body, message) => {
      const errors = expectInvalid(await send(method, path, body));
      expect(errors).toHaveLength(1);
      expect(errors[0].field).toBe('body');
      expect(errors[0].message).toContain(message);
    });

    it('malformed JSON is still MALFORMED_JSON', async () => {
      const res = await send('post', '/receipts', '"hello');
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('MALFORMED_JSON');
    });
  });
});
