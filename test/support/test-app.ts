import { NestExpressApplication } from '@nestjs/platform-express';
import { ClsService } from 'nestjs-cls';
import { createApp } from '@/app.factory';
import { loadConfig } from '@/platform/config/app-config';
import { runMigrations } from '@/database/migrate';
import { TenantProvisioningService } from '@/tenants/tenant-provisioning.service';
import { Tenant } from '@/http/tenancy/tenant.entity';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';

export const TEST_JWT_SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';
/** SECRETS_KEY of every test app: one key for the one shared database (32 bytes, base64). */
export const TEST_SECRETS_KEY = Buffer.alloc(32, 'test-secrets-key').toString('base64');

export interface TestApp {
  app: NestExpressApplication;
  server: ReturnType<NestExpressApplication['getHttpServer']>;
  ownerUrl: string;
  appUrl: string;
  createTenant(
    overrides?: Partial<Pick<Tenant, 'currency' | 'locale' | 'timezone' | 'fyStartMonth'>>,
  ): Promise<Tenant>;
  close(): Promise<void>;
}

/** The suite's PostgreSQL (started by the global setup): owner and application login. */
function globalSetupDatabase(): { ownerUrl: string; appUrl: string } {
  const ownerUrl = process.env.TEST_DATABASE_URL;
  const appUrl = process.env.TEST_DATABASE_APP_URL;
  if (!ownerUrl || !appUrl)
    throw new Error('TEST_DATABASE_URL / TEST_DATABASE_APP_URL not set (global setup)');
  return { ownerUrl, appUrl };
}

/**
 * Boots the real AppModule against the suite's PostgreSQL, or against `database` (a cluster of
 * the test's own), migrated first.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  { ownerUrl, appUrl } = globalSetupDatabase(),
): Promise<TestApp> {
  await runMigrations(ownerUrl);
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: appUrl,
    JWT_SECRET: TEST_JWT_SECRET,
    SECRETS_KEY: TEST_SECRETS_KEY,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_MINUTE: '1000000',
    DB_POOL_SIZE: '20',
    ...env,
  });
  const app = await createApp(config, appUrl, { bufferLogs: false });
  await app.init();
  return {
    app,
    server: app.getHttpServer(),
    ownerUrl,
    appUrl,
    createTenant: (overrides = {}) =>
      app.get(ClsService).run(() =>
        app.get(TenantProvisioningService).create({
          key: `t-${randomBytes(6).toString('hex')}`,
          name: 'Test Realty',
          ...overrides,
        }),
      ),
    close: () => app.close(),
  };
}

/** A connection as the schema owner, for assertions that must see across tenants. */
export async function ownerDataSource(ownerUrl: string): Promise<DataSource> {
  const ds = new DataSource({ type: 'postgres', url: ownerUrl, extra: { max: 2 } });
  return ds.initialize();
}
