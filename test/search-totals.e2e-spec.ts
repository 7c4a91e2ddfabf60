import request from 'supertest';
import { Tenant } from '@/tenants/tenant.entity';
import { cancelReceipt, createDemand, recordReceipt, split } from './support/factories';
import { createTestApp, TestApp } from './support/test-app';
import { as } from './support/tokens';

/**
 * Totals of full pages are exact counts that may be served from a cache keyed by the tenant's
 * receipt write version: every write must show up at once, on any instance, for that tenant only.
 */
describe('search totals after writes', () => {
  let a: TestApp;
  let b: TestApp; // a second instance on the same database
  let tenant: Tenant;
  let other: Tenant;
  let splitId: string;

  const total = async (t: TestApp, key: string, filters: unknown[] = []) => {
    const res = await request(t.server).post('/receipts/search?size=10').set(as(key)).send(filters);
    expect(res.status).toBe(200);
    expect(res.body.content).toHaveLength(Math.min(10, res.body.totalElements));
    return res.body.totalElements as number;
  };
  const active = [{ field: 'status', query: 'ACTIVE', type: 'EQUALS' }];

  beforeAll(async () => {
    a = await createTestApp();
    b = await createTestApp();
    tenant = await a.createTenant();
    other = await a.createTenant();
    splitId = (await createDemand(a, tenant.key, { splits: [split(100000)] })).splits[0].id;
    for (let i = 0; i < 12; i++)
      await recordReceipt(a, tenant.key, { demandSplit: splitId, amount: 10 });
    await recordReceipt(a, other.key);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('counts a new receipt at once, on this instance and on another', async () => {
    expect(await total(a, tenant.key)).toBe(12);
    expect(await total(b, tenant.key)).toBe(12);
    expect(await total(a, tenant.key)).toBe(12); // served again (cached)
    await recordReceipt(b, tenant.key, { demandSplit: splitId, amount: 10 });
    expect(await total(a, tenant.key)).toBe(13);
    expect(await total(b, tenant.key)).toBe(13);
  });

  it('reflects a cancellation in status-filtered totals', async () => {
    const before = await total(a, tenant.key, active);
    const receipt = await recordReceipt(a, tenant.key, { demandSplit: splitId, amount: 10 });
    expect(await total(a, tenant.key, active)).toBe(before + 1);
    await cancelReceipt(b, tenant.key, receipt.id);
    expect(await total(a, tenant.key, active)).toBe(before);
    expect(await total(a, tenant.key)).toBe(before + 1);
  });

  it("keeps each tenant's totals apart", async () => {
    expect(await total(a, other.key)).toBe(1);
    await recordReceipt(a, other.key);
    expect(await total(a, other.key)).toBe(2);
    expect(await total(a, tenant.key, active)).toBe(13);
  });
});
