import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Browser, chromium, Page } from 'playwright-core';
import { Tenant } from '@/http/tenancy/tenant.entity';
import { createDemand, receiptBody, searchReceipts } from './support/factories';
import { createTestApp, TestApp } from './support/test-app';
import { token } from './support/tokens';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * The dashboard's page: plain fetch() calls to the API on another origin, as a single-page app
 * would make them. `window.dashboard` returns what the script could see of each response.
 */
const DASHBOARD_HTML = `<!doctype html>
<html><head><meta charset="utf-8"><title>Finance dashboard</title></head>
<body><script>
window.dashboard = async ({ api, token, tenant, otherTenant, receipt, idempotencyKey }) => {
  const auth = { Authorization: 'Bearer ' + token, 'x-tenant-id': tenant };
  const json = { ...auth, 'Content-Type': 'application/json' };
  const seen = {};
  try {
    const search = await fetch(api + '/receipts/search', { method: 'POST', headers: json, body: '[]' });
    seen.search = { status: search.status, body: await search.json() };

    const write = await fetch(api + '/receipts', {
      method: 'POST',
      headers: { ...json, 'Idempotency-Key': idempotencyKey },
      body: JSON.stringify(receipt),
    });
    const written = await write.json();
    seen.write = {
      status: write.status,
      id: written.id,
      consistencyToken: write.headers.get('X-Consistency-Token'),
    };

    // Read-your-writes: the token goes back on the next read.
    const read = await fetch(api + '/receipts/' + written.id, {
      headers: { ...auth, 'X-Consistency-Token': seen.write.consistencyToken },
    });
    seen.read = { status: read.status, id: (await read.json()).id };

    const config = await fetch(api + '/tenant/configuration', { headers: auth });
    await config.json();
    seen.config = { status: config.status, etag: config.headers.get('ETag') };

    const pdf = await fetch(api + '/receipts/' + written.id + '/document?download=1', { headers: auth });
    seen.pdf = {
      status: pdf.status,
      contentDisposition: pdf.headers.get('Content-Disposition'),
      etag: pdf.headers.get('ETag'),
      bytes: (await pdf.arrayBuffer()).byteLength,
    };

    const anonymous = await fetch(api + '/receipts/search', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'x-tenant-id': tenant },
      body: '[]',
    });
    seen.unauthenticated = { status: anonymous.status, code: (await anonymous.json()).code };

    const crossTenant = await fetch(api + '/receipts/search', {
      method: 'POST',
      headers: { ...json, 'x-tenant-id': otherTenant },
      body: '[]',
    });
    seen.crossTenant = { status: crossTenant.status, code: (await crossTenant.json()).code };
  } catch (error) {
    seen.error = { name: error.name, message: error.message };
  }
  return seen;
};
</script></body></html>`;

interface Seen {
  search?: { status: number; body: { totalElements: number } };
  write?: { status: number; id: string; consistencyToken: string | null };
  read?: { status: number; id: string };
  config?: { status: number; etag: string | null };
  pdf?: { status: number; contentDisposition: string | null; etag: string | null; bytes: number };
  unauthenticated?: { status: number; code: string };
  crossTenant?: { status: number; code: string };
  error?: { name: string; message: string };
}

interface DashboardArgs {
  api: string;
  token: string;
  tenant: string;
  otherTenant: string;
  receipt: unknown;
  idempotencyKey: string;
}

type DashboardWindow = { dashboard: (args: DashboardArgs) => Promise<Seen> };

/** Serves the dashboard page on 127.0.0.1 at a port of its own: one origin per server. */
async function servePage(): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    if (req.url !== '/') {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(DASHBOARD_HTML);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const closeServer = (server?: Server) =>
  new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));

/**
 * CORS (docs/browser.md) in a real (headless) Chromium: a dashboard page on a listed origin calls the API on
 * another origin (search, an idempotent write, its X-Consistency-Token, an ETag, a PDF); the
 * same page on an unlisted origin is refused by the browser itself.
 */
describe('CORS in a browser', () => {
  let t: TestApp;
  let tenant: Tenant;
  let otherTenant: Tenant;
  let browser: Browser;
  let api: string;
  let listed: { server: Server; origin: string };
  let unlisted: { server: Server; origin: string };

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) {
      throw new Error(
        `Chromium not found at ${CHROMIUM}: apt-get install chromium, or set CHROMIUM_PATH`,
      );
    }
    listed = await servePage();
    unlisted = await servePage();
    t = await createTestApp({ CORS_ORIGINS: listed.origin });
    await t.app.listen(0, '127.0.0.1');
    // Another host than the pages' (localhost, not 127.0.0.1): cross-origin and cross-site.
    api = `http://localhost:${(t.server.address() as AddressInfo).port}`;
    tenant = await t.createTenant();
    otherTenant = await t.createTenant();
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await closeServer(listed?.server);
    await closeServer(unlisted?.server);
  });

  /** Opens the page from `origin` and runs the dashboard's calls in it. */
  async function runDashboard(
    origin: string,
    idempotencyKey: string,
  ): Promise<{ seen: Seen; console: string[] }> {
    const demand = await createDemand(t, tenant.key);
    const page: Page = await browser.newPage();
    const messages: string[] = [];
    page.on('console', (message) => messages.push(message.text()));
    try {
      await page.goto(`${origin}/`);
      const args: DashboardArgs = {
        api,
        token: token({ tenant: tenant.key }),
        tenant: tenant.key,
        otherTenant: otherTenant.key,
        receipt: receiptBody(demand.splits[0].id, { transactionRef: `UTR-${idempotencyKey}` }),
        idempotencyKey,
      };
      const seen = await page.evaluate(
        (a) => (globalThis as unknown as DashboardWindow).dashboard(a),
        args,
      );
      return { seen, console: messages };
    } finally {
      await page.close();
    }
  }

  it('lets the listed origin search, write, and read the exposed headers', async () => {
    const { seen } = await runDashboard(listed.origin, randomUUID());
    expect(seen.error).toBeUndefined();
    expect(seen.search).toEqual({
      status: 200,
      body: expect.objectContaining({ totalElements: 0 }),
    });
    expect(seen.write).toEqual({
      status: 201,
      id: expect.any(String),
      consistencyToken: expect.stringMatching(/\S/),
    });
    expect(seen.read).toEqual({ status: 200, id: seen.write!.id });
    expect(seen.config).toEqual({ status: 200, etag: expect.stringMatching(/^"/) });
    // Cross-Origin-Resource-Policy: same-origin (helmet) does not stop a CORS fetch, PDF included.
    expect(seen.pdf).toEqual({
      status: 200,
      contentDisposition: expect.stringMatching(/^attachment; filename="receipt-/),
      etag: expect.stringMatching(/^"/),
      bytes: expect.any(Number),
    });
    expect(seen.pdf!.bytes).toBeGreaterThan(1000);
    // Errors are readable too (the problem body and its status), and tenancy holds.
    expect(seen.unauthenticated).toEqual({ status: 401, code: 'UNAUTHENTICATED' });
    expect(seen.crossTenant).toEqual({ status: 403, code: 'TENANT_FORBIDDEN' });
    expect((await searchReceipts(t, tenant.key, [])).map((r) => r.id)).toContain(seen.write!.id);
    expect(await searchReceipts(t, otherTenant.key, [])).toEqual([]);
  });

  it('refuses the same page served from an unlisted origin (fetch rejects with TypeError)', async () => {
    const before = await searchReceipts(t, tenant.key, []);
    const { seen, console } = await runDashboard(unlisted.origin, randomUUID());
    expect(seen.error).toEqual({ name: 'TypeError', message: expect.any(String) });
    expect(seen.search).toBeUndefined();
    expect(seen.write).toBeUndefined();
    expect(console.join('\n')).toMatch(/CORS policy/);
    // Refused at the preflight: the write was never sent.
    expect(await searchReceipts(t, tenant.key, [])).toHaveLength(before.length);
  });
});
