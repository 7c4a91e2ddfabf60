import { ConfigError, loadConfig } from '@/platform/config/app-config';

describe(loadConfig.name, () => {
  it('applies defaults for local use', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      nodeEnv: 'development',
      port: 3000,
      dbPoolSize: 10,
      dbConnectTimeoutMs: 3000,
      seedDemoData: true,
      bodyLimit: '1mb',
      statementMaxBytes: 20 * 1024 * 1024,
      logFormat: 'auto',
    });
    expect(config.jwt.tenantClaim).toBe('tenant');
    expect(config.databaseUrl).toBeUndefined();
  });

  it('caps heap growth at 50 % unless told otherwise (0 leaves V8 its own factor)', () => {
    expect(loadConfig({}).heapGrowingPercent).toBe(50);
    expect(loadConfig({ HEAP_GROWING_PERCENT: '0' }).heapGrowingPercent).toBe(0);
    expect(loadConfig({ HEAP_GROWING_PERCENT: '100' }).heapGrowingPercent).toBe(100);
    expect(() => loadConfig({ HEAP_GROWING_PERCENT: '-1' })).toThrow(/HEAP_GROWING_PERCENT/);
    expect(() => loadConfig({ HEAP_GROWING_PERCENT: 'half' })).toThrow(/HEAP_GROWING_PERCENT/);
  });

  it('reads STATEMENT_MAX_BYTES (bank statement uploads), refusing what is not a byte count', () => {
    expect(loadConfig({ STATEMENT_MAX_BYTES: '67108864' }).statementMaxBytes).toBe(67108864);
    expect(() => loadConfig({ STATEMENT_MAX_BYTES: '20mb' })).toThrow(/STATEMENT_MAX_BYTES/);
    expect(() => loadConfig({ STATEMENT_MAX_BYTES: '10' })).toThrow(/STATEMENT_MAX_BYTES/);
  });

  it('shares rate budgets through an external database, counts in memory with the embedded one', () => {
    const external = 'postgres://app@db.example/finance';
    expect(loadConfig({}).rateLimitStore).toBe('memory');
    expect(loadConfig({ DATABASE_URL: external }).rateLimitStore).toBe('postgres');
    expect(loadConfig({ RATE_LIMIT_STORE: '' }).rateLimitStore).toBe('memory');
    expect(loadConfig({ DATABASE_URL: external, RATE_LIMIT_STORE: 'memory' }).rateLimitStore).toBe(
      'memory',
    );
    expect(loadConfig({ RATE_LIMIT_STORE: 'postgres' }).rateLimitStore).toBe('postgres');
    expect(() => loadConfig({ RATE_LIMIT_STORE: 'redis' })).toThrow(/RATE_LIMIT_STORE="redis"/);
  });

  it('fails fast naming the bad variable', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT="eighty"/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ JWT_SECRET: 'short' })).toThrow(/JWT_SECRET/);
    expect(() => loadConfig({ NODE_ENV: 'staging' })).toThrow(/NODE_ENV/);
    expect(() => loadConfig({ DB_CONNECT_TIMEOUT_MS: '10' })).toThrow(/DB_CONNECT_TIMEOUT_MS/);
    expect(() => loadConfig({ LOG_FORMAT: 'xml' })).toThrow(/LOG_FORMAT/);
  });

  it('reads the auth and HTTP limit settings, trusting no proxy by default', () => {
    const defaults = loadConfig({});
    expect(defaults.trustedProxies).toEqual([]);
    expect(defaults.jwt.clockToleranceSec).toBe(30);
    expect(defaults.http).toEqual({
      headersTimeoutMs: 15000,
      requestTimeoutMs: 30000,
      keepAliveTimeoutMs: 5000,
    });
    const set = loadConfig({
      TRUSTED_PROXIES: '10.0.0.0/8, 192.168.1.10',
      JWT_CLOCK_TOLERANCE_SEC: '5',
      HTTP_HEADERS_TIMEOUT_MS: '2000',
      HTTP_REQUEST_TIMEOUT_MS: '4000',
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '1000',
    });
    expect(set.trustedProxies).toEqual(['10.0.0.0/8', '192.168.1.10']);
    expect(set.jwt.clockToleranceSec).toBe(5);
    expect(set.http).toEqual({
      headersTimeoutMs: 2000,
      requestTimeoutMs: 4000,
      keepAliveTimeoutMs: 1000,
    });
  });

  it('refuses bad auth and HTTP limit settings', () => {
    expect(() => loadConfig({ TRUSTED_PROXIES: '10.0.0.0/40' })).toThrow(
      /TRUSTED_PROXIES.*10\.0\.0\.0\/40/,
    );
    expect(() => loadConfig({ JWT_CLOCK_TOLERANCE_SEC: '-1' })).toThrow(/JWT_CLOCK_TOLERANCE_SEC/);
    expect(() => loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '0' })).toThrow(/HTTP_HEADERS_TIMEOUT_MS/);
    expect(() =>
      loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '40000', HTTP_REQUEST_TIMEOUT_MS: '30000' }),
    ).toThrow(/must not exceed/);
  });

  it('lists every bad variable at once', () => {
    let message = '';
    try {
      loadConfig({ PORT: '-1', LOG_LEVEL: 'loud' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/PORT/);
    expect(message).toMatch(/LOG_LEVEL/);
  });

  it('refuses production without an external database, a real token key or SECRETS_KEY', () => {
    const secretsKey = Buffer.alloc(32, 7).toString('base64');
    expect(() =>
      loadConfig({
        NODE_ENV: 'production',
        DATABASE_URL: 'postgres://a@b/c',
        SECRETS_KEY: secretsKey,
      }),
    ).toThrow(/JWT_JWKS_URI/);
    expect(() =>
      loadConfig({
        NODE_ENV: 'production',
        JWT_JWKS_URI: 'https://id.example.com/jwks',
        SECRETS_KEY: secretsKey,
      }),
    ).toThrow(/DATABASE_URL/);
    expect(() =>
      loadConfig({
        NODE_ENV: 'production',
        DATABASE_URL: 'postgres://a@b/c',
        JWT_JWKS_URI: 'https://id.example.com/jwks',
      }),
    ).toThrow(/SECRETS_KEY is required/);
    const prod = loadConfig({
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://a@b/c',
      JWT_JWKS_URI: 'https://id.example.com/jwks',
      SECRETS_KEY: secretsKey,
    });
    expect(prod.seedDemoData).toBe(false);
    expect(prod.secrets.key).toEqual(Buffer.alloc(32, 7));
  });

  it('reads SECRETS_KEY and SECRETS_KEY_PREVIOUS as 32 bytes of base64, and refuses the rest', () => {
    const key = Buffer.alloc(32, 1);
    const previous = Buffer.alloc(32, 2);
    expect(loadConfig({}).secrets).toEqual({ key: undefined, previousKey: undefined });
    expect(
      loadConfig({
        SECRETS_KEY: key.toString('base64'),
        SECRETS_KEY_PREVIOUS: previous.toString('base64url'),
      }).secrets,
    ).toEqual({ key, previousKey: previous });
    expect(() => loadConfig({ SECRETS_KEY: 'c2hvcnQ=' })).toThrow(
      /SECRETS_KEY=\(redacted\): SECRETS_KEY must be 32 bytes in base64/,
    );
    expect(() => loadConfig({ SECRETS_KEY: key.toString('hex') })).not.toThrow(
      new RegExp(key.toString('hex')),
    );
    expect(() => loadConfig({ SECRETS_KEY: key.toString('hex') })).toThrow(/SECRETS_KEY/);
    expect(() => loadConfig({ SECRETS_KEY_PREVIOUS: previous.toString('base64') })).toThrow(
      /SECRETS_KEY_PREVIOUS is set without SECRETS_KEY/,
    );
    expect(() =>
      loadConfig({
        SECRETS_KEY: key.toString('base64'),
        SECRETS_KEY_PREVIOUS: key.toString('base64'),
      }),
    ).toThrow(/the same key/);
  });

  it('drains for 5 s before shutting down, except in tests', () => {
    expect(loadConfig({})).toMatchObject({ shutdownDrainMs: 5000, shutdownTimeoutMs: 10000 });
    expect(loadConfig({ NODE_ENV: 'test' }).shutdownDrainMs).toBe(0);
    expect(
      loadConfig({ NODE_ENV: 'test', SHUTDOWN_DRAIN_MS: '500', SHUTDOWN_TIMEOUT_MS: '0' }),
    ).toMatchObject({ shutdownDrainMs: 500, shutdownTimeoutMs: 0 });
    expect(() => loadConfig({ SHUTDOWN_DRAIN_MS: '-1' })).toThrow(/SHUTDOWN_DRAIN_MS/);
    expect(() => loadConfig({ SHUTDOWN_TIMEOUT_MS: 'soon' })).toThrow(/SHUTDOWN_TIMEOUT_MS/);
  });

  it('keeps idempotency keys 24 h, events 90 days, and runs housekeeping except in tests', () => {
    expect(loadConfig({}).housekeeping).toEqual({
      enabled: true,
      idempotencyTtlHours: 24,
      eventsRetentionDays: 90,
      cron: '*/10 * * * *',
    });
    expect(loadConfig({ EVENTS_RETENTION_DAYS: '7' }).housekeeping.eventsRetentionDays).toBe(7);
    expect(() => loadConfig({ EVENTS_RETENTION_DAYS: '0' })).toThrow(/EVENTS_RETENTION_DAYS/);
    expect(loadConfig({ NODE_ENV: 'test' }).housekeeping.enabled).toBe(false);
    expect(
      loadConfig({ NODE_ENV: 'test', HOUSEKEEPING_ENABLED: 'true', IDEMPOTENCY_TTL_HOURS: '48' })
        .housekeeping,
    ).toMatchObject({ enabled: true, idempotencyTtlHours: 48 });
    expect(() => loadConfig({ IDEMPOTENCY_TTL_HOURS: '0' })).toThrow(/IDEMPOTENCY_TTL_HOURS/);
    expect(() => loadConfig({ HOUSEKEEPING_CRON: 'hourly' })).toThrow(/HOUSEKEEPING_CRON/);
    expect(loadConfig({ EXPORT_POOL_SIZE: '3' }).exportPoolSize).toBe(3);
    expect(() => loadConfig({ EXPORT_POOL_SIZE: '0' })).toThrow(/EXPORT_POOL_SIZE/);
  });

  it('reads CORS_ORIGINS as exact origins, none by default', () => {
    expect(loadConfig({}).corsOrigins).toEqual([]);
    expect(loadConfig({ CORS_ORIGINS: '' }).corsOrigins).toEqual([]);
    expect(
      loadConfig({
        CORS_ORIGINS: 'https://dashboard.example, http://127.0.0.1:8080,http://[::1]:5173',
      }).corsOrigins,
    ).toEqual(['https://dashboard.example', 'http://127.0.0.1:8080', 'http://[::1]:5173']);
  });

  it('refuses a CORS_ORIGINS entry that is not an origin, naming the variable', () => {
    for (const bad of [
      'https://a.example/',
      'a.example',
      '*',
      'https://a.example/app',
      'https://a.example:443',
      'https://Dashboard.example',
      'ftp://a.example',
      'null',
      'https://ok.example,https://a.example/',
    ]) {
      expect(() => loadConfig({ CORS_ORIGINS: bad })).toThrow(ConfigError);
      expect(() => loadConfig({ CORS_ORIGINS: bad })).toThrow(/CORS_ORIGINS/);
    }
    expect(() => loadConfig({ CORS_ORIGINS: 'https://a.example/' })).toThrow(
      /https:\/\/a\.example\/ \(did you mean https:\/\/a\.example\?\)/,
    );
  });

  it('refuses both verification modes at once', () => {
    expect(() =>
      loadConfig({ JWT_SECRET: 'x'.repeat(32), JWT_JWKS_URI: 'https://id.example.com/jwks' }),
    ).toThrow(/not both/);
  });
});
