import request from 'supertest';
import { createTestApp, TestApp } from './support/test-app';
import { as } from './support/tokens';

describe('rate limiting', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '3' });
  });
  afterAll(() => t?.close());

  it('answers 429 problem+json with Retry-After once the per-minute budget is spent', async () => {
    const tenant = await t.createTenant();
    const statuses: number[] = [];
    let last: request.Response | undefined;
    for (let i = 0; i < 4; i++) {
      last = await request(t.server).post('/receipts/search').set(as(tenant.key)).send([]);
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(last!.headers['content-type']).toMatch(/problem\+json/);
    expect(last!.body.code).toBe('RATE_LIMITED');
    expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
  });
});
