import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { Tenant } from '@/http/tenancy/tenant.entity';
import { get, recordReceipt } from './support/factories';
import { createTestApp, TestApp } from './support/test-app';
import { as } from './support/tokens';

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

  it('counts bodies refused before routing (413, 415) under their route template', async () => {
    const tooLarge = await request(t.server)
      .post('/bookings')
      .set(as(tenant.key))
      .send({ buyerName: 'x'.repeat(2_000_000) });
    expect(tooLarge.status).toBe(413);
    const encoded = await request(t.server)
      .post(`/receipts/${randomUUID()}/cancel`)
      .set(as(tenant.key))
      .set('content-type', 'application/json')
      .set('content-encoding', 'compress')
      .send('{}');
    expect(encoded.status).toBe(415);
    const text = await scrape();
    expect(
      value(text, 'http_requests_total{method="POST",route="/bookings",status="413"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(
      value(text, 'http_requests_total{method="POST",route="/receipts/:id/cancel",status="415"}'),
    ).toBeGreaterThanOrEqual(1);
    // A path no route serves stays unmatched, whatever its status.
    await request(t.server).post('/no-such-route').set('content-encoding', 'compress').send('{}');
    expect(
      value(await scrape(), 'http_requests_total{method="POST",route="unmatched",status="415"}'),
    ).toBeGreaterThanOrEqual(1);
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
