import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { SCOPES } from '@/http/auth/auth.decorators';
import { loadConfig } from '@/platform/config/app-config';
import { signDevelopmentToken, TokenRefused } from '@/cli/dev-token';
import { loadOrCreateLocalSecrets } from '@/platform/config/local-secrets';
import { ensureBuilt, ROOT } from './support/service-process';
import { createTestApp, TEST_JWT_SECRET, TestApp } from './support/test-app';

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

  /**
   * The command itself (`node dist/src/cli/token.js`): a refusal is one line on stderr, a
   * non-zero exit and nothing on stdout, so `$(npm run -s token ...)` never holds a bad token.
   */
  describe('refusals of the command', () => {
    beforeAll(() => ensureBuilt(), 300_000);
    const cli = (args: string[], env: Record<string, string> = {}) => {
      const result = spawnSync('node', ['dist/src/cli/token.js', ...args], {
        cwd: ROOT,
        encoding: 'utf8',
        env: {
          ...process.env,
          DATA_DIR: otherDir,
          DATABASE_URL: t.appUrl,
          JWT_SECRET: TEST_JWT_SECRET,
          ...env,
        },
      });
      return { status: result.status, stdout: result.stdout, stderr: result.stderr };
    };
    const refused = (result: ReturnType<typeof cli>, message: RegExp) => {
      expect(result.stdout).toBe('');
      expect(result.status).not.toBe(0);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toMatch(message);
    };

    it('prints a token for a tenant of the database', () => {
      const result = cli(['--tenant', tenant, '--scope', 'receipts:read', '--ttl', '15m']);
      expect(result.stderr).toBe('');
      expect(result.status).toBe(0);
      expect(result.stdout.trim().split('.')).toHaveLength(3);
    });

    it('refuses a tenant the database does not have', () => {
      refused(
        cli(['--tenant', tenant, '--tenant', 'no-such-tenant']),
        /unknown tenant.*no-such-tenant/i,
      );
    });

    it('refuses a scope it does not know, listing the known ones', () => {
      refused(
        cli(['--tenant', tenant, '--scope', 'receipts:read receipts:delete']),
        /unknown scope "receipts:delete".*receipts:write/,
      );
    });

    it.each(['abc', '0', '-5m', '1 fortnight', '1.5h'])('refuses --ttl %s', (ttl) => {
      refused(cli(['--tenant', tenant, `--ttl=${ttl}`]), /--ttl/);
    });

    it('refuses `--ttl -5m` (read as another option) in one line', () => {
      refused(cli(['--tenant', tenant, '--ttl', '-5m']), /--ttl/);
    });

    it('refuses when the database cannot be reached, rather than print an unchecked token', () => {
      refused(
        cli(['--tenant', tenant], { DATABASE_URL: 'postgres://nobody:x@127.0.0.1:1/none' }),
        /cannot check tenant/i,
      );
    });

    it('refuses when DATA_DIR has no database and DATABASE_URL is not set', () => {
      const dataDir = join(root, 'secrets-only');
      loadOrCreateLocalSecrets(dataDir);
      refused(
        cli(['--tenant', 'demo'], { DATA_DIR: dataDir, DATABASE_URL: '', JWT_SECRET: '' }),
        /no database/i,
      );
    });
  });
});
