import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { SCOPES } from '@/http/auth/auth.decorators';
import { loadConfig } from '@/platform/config/app-config';
import { signDevelopmentToken, TokenRefused } from '@/cli/dev-token';
import { createTestApp, TestApp } from './support/test-app';

/**
 * `npm run -s token` signs with the server's secret: the one the server generated into its
 * DATA_DIR (real files in a temp directory), or it refuses, naming the directory.
 */
describe('development token CLI', () => {
  let t: TestApp;
  let tenant: string;
  const root = mkdtempSync(join(tmpdir(), 'finance-token-'));
  const serverDir = join(root, 'server-data');
  const otherDir = join(root, 'elsewhere');
  const ask = { sub: 'dev-user', scope: SCOPES.join(' '), ttl: '1h' };

  beforeAll(async () => {
    // The server generates its secret into DATA_DIR (no JWT_SECRET).
    t = await createTestApp({ DATA_DIR: serverDir, JWT_SECRET: '' });
    tenant = (await t.createTenant()).key;
  });
  afterAll(async () => {
    await t?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('signs with the secret of the DATA_DIR the server uses; the server accepts the token', async () => {
    // A first request makes the server load (and, on first start, generate) its secret.
    await request(t.server).get('/receipts/00000000-0000-4000-8000-000000000000');
    expect(existsSync(join(serverDir, 'secrets.json'))).toBe(true);
    const token = signDevelopmentToken(loadConfig({ DATA_DIR: serverDir }), {
      tenants: [tenant],
      ...ask,
    });
    const res = await request(t.server)
      .post('/receipts/search')
      .set({ authorization: `Bearer ${token}`, 'x-tenant-id': tenant })
      .send([]);
    expect(res.status).toBe(200);
  });

  it('refuses, naming the directory and the fix, when that DATA_DIR has no secret; creates nothing', () => {
    const sign = () =>
      signDevelopmentToken(loadConfig({ DATA_DIR: otherDir }), { tenants: ['demo'], ...ask });
    expect(sign).toThrow(TokenRefused);
    expect(sign).toThrow(join(otherDir, 'secrets.json'));
    expect(sign).toThrow('DATA_DIR=/path/the/server/uses npm run -s token -- --tenant demo');
    expect(existsSync(otherDir)).toBe(false);
  });

  it('uses JWT_SECRET when set, like the server', () => {
    const secret = 'x'.repeat(40);
    const token = signDevelopmentToken(loadConfig({ DATA_DIR: otherDir, JWT_SECRET: secret }), {
      tenants: ['demo'],
      ...ask,
    });
    expect(token.split('.')).toHaveLength(3);
    expect(existsSync(otherDir)).toBe(false);
  });
});
