import request from 'supertest';
import { createTestApp, TestApp } from './support/test-app';
import { as } from './support/tokens';

describe('smoke', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('serves config', async () => {
    const tenant = await t.createTenant();
    const res = await request(t.server).get('/tenant/configuration').set(as(tenant.key));
    expect(res.status).toBe(200);
    expect(res.body.receiptNumberPrefix).toBe('RCT');
  });
});
