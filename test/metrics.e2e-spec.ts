import request from 'supertest';
import { Tenant } from '@/http/tenancy/tenant.entity';
import { get, recordReceipt } from './support/factories';
import { createTestApp, TestApp } from './support/test-app';

/** GET /metrics (docs/operations.md): Prometheus text, route templates, no tenant in labels. */
describe('GET /metrics', () => {
  let t: TestApp;
  let tenant: Tenant;

  const scrape = async () => {
    const res = await request(t.server).get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain;.*version=0\.0\.4/);
    return res.text;
  };
  const value = (text: string, series: string) => {
    const line = text.split('\n').find((l) => l.startsWith(`${series} `));
    return line === undefined ? undefined : Number(line.slice(series.length + 1));
  };

  beforeAll(async () => {
    t = await createTestApp();
    tenant = await t.createTenant();
  });
  afterAll(() => t?.close());

  it('counts requests by route template and status, without ids or tenants in labels', async () => {
    const receipt = await recordReceipt(t, tenant.key);
    expect((await get(t, tenant.key, `/receipts/${receipt.id}`)).status).toBe(200);
    expect((await request(t.server).get(`/receipts/${receipt.id}`)).status).toBe(401);
    const text = await scrape();
    expect(
      value(text, 'http_requests_total{method="GET",route="/receipts/:id",status="200"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(
      value(text, 'http_requests_total{method="GET",route="/receipts/:id",status="401"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(
      value(
        text,
        'http_request_duration_seconds_count{method="POST",route="/receipts",status="201"}',
      ),
    ).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain(receipt.id);
    expect(text).not.toContain(tenant.key);
    expect(text).not.toContain(tenant.id);
  });

  it('reports receipts recorded, events by type, pools and process memory', async () => {
    const before = value(await scrape(), 'receipts_recorded_total') ?? 0;
    await recordReceipt(t, tenant.key);
    const text = await scrape();
    expect(value(text, 'receipts_recorded_total')).toBe(before + 1);
    expect(value(text, 'events_committed_total{type="receipt.recorded"}')).toBeGreaterThanOrEqual(
      before + 1,
    );
    expect(value(text, 'db_pool_connections{pool="main",state="total"}')).toBeGreaterThan(0);
    expect(value(text, 'db_pool_connections{pool="main",state="waiting"}')).toBe(0);
    expect(value(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
  });

  it('is public, and refuses unknown parameters like every route', async () => {
    expect((await request(t.server).get('/metrics?tenant=x')).status).toBe(400);
  });
});
