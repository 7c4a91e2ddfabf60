import { existsSync } from 'node:fs';
import { Browser, chromium, Page } from 'playwright-core';
import { Tenant } from '@/http/tenancy/tenant.entity';
import { createTestApp, TestApp } from './support/test-app';
import { token } from './support/tokens';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * What a person does in Swagger UI: Authorize with both schemes, then Try it out on the search
 * and on the configuration, in a real (headless) Chromium.
 */
describe('Swagger UI in a browser', () => {
  let t: TestApp;
  let tenant: Tenant;
  let browser: Browser;
  let page: Page;
  let baseUrl: string;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) {
      throw new Error(
        `Chromium not found at ${CHROMIUM}: apt-get install chromium, or set CHROMIUM_PATH`,
      );
    }
    t = await createTestApp();
    await t.app.listen(0, '127.0.0.1');
    baseUrl = await t.app.getUrl();
    tenant = await t.createTenant();
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
    page = await browser.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('authorizes with the bearer token and the tenant key, then executes a search', async () => {
    await page.goto(`${baseUrl.replace('[::1]', '127.0.0.1')}/docs`);
    await page.getByRole('button', { name: 'Authorize' }).first().click();
    const dialog = page.locator('.modal-ux');
    await dialog
      .locator('input')
      .nth(0)
      .fill(token({ tenant: tenant.key }));
    await dialog.locator('input').nth(1).fill(tenant.key);
    // One Authorize button per scheme; each turns into Logout once used (React re-renders).
    const authorize = dialog.locator('button.modal-btn.auth.authorize');
    await authorize.first().click();
    await expectVisible(dialog.locator('button', { hasText: 'Logout' }).first());
    await authorize.first().click();
    await expectVisible(dialog.locator('button', { hasText: 'Logout' }).nth(1));
    await dialog.locator('button.btn-done').first().click();

    const search = page.locator('#operations-receipts-ReceiptsController_search');
    await search.locator('.opblock-summary').click();
    await search.getByRole('button', { name: 'Try it out' }).click();
    // The operation also declares x-tenant-id as a required parameter pre-filled with the
    // Postman variable {{tenantId}} (for Postman's import and Portman); nobody fills it in here:
    // the Authorized tenant replaces it on the request that goes out.
    const field = search.locator('tr[data-param-name="x-tenant-id"] input');
    expect(await field.inputValue()).toBe('{{tenantId}}');
    const sent = page.waitForRequest(
      (request) =>
        request.method() === 'POST' && new URL(request.url()).pathname === '/receipts/search',
    );
    await search.getByRole('button', { name: 'Execute' }).click();
    expect((await (await sent).allHeaders())['x-tenant-id']).toBe(tenant.key);
    const status = search.locator('.live-responses-table .response .response-col_status').first();
    await expectVisible(status);
    expect((await status.innerText()).trim()).toBe('200');
    const body = await search
      .locator('.live-responses-table .response-col_description pre')
      .first()
      .innerText();
    expect(JSON.parse(body)).toMatchObject({ pageNumber: 0, totalElements: 0, empty: true });
    // A picture for a human to look at, on request only (nothing is written to /tmp).
    if (process.env.SCREENSHOT_PATH) {
      await page.screenshot({ path: process.env.SCREENSHOT_PATH, fullPage: false });
    }
  });

  it('keeps the authorization for the next operation (GET /tenant/configuration)', async () => {
    const config = page.locator('#operations-tenant_configuration-TenantConfigController_get');
    await config.locator('.opblock-summary').click();
    await config.getByRole('button', { name: 'Try it out' }).click();
    const sent = page.waitForRequest(
      (request) =>
        request.method() === 'GET' && new URL(request.url()).pathname === '/tenant/configuration',
    );
    await config.getByRole('button', { name: 'Execute' }).click();
    expect((await (await sent).allHeaders())['x-tenant-id']).toBe(tenant.key);
    const status = config.locator('.live-responses-table .response .response-col_status').first();
    await expectVisible(status);
    expect((await status.innerText()).trim()).toBe('200');
  });
});

async function expectVisible(locator: ReturnType<Page['locator']>): Promise<void> {
  await locator.waitFor({ state: 'visible', timeout: 15_000 });
}
