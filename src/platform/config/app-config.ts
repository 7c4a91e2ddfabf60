import { plainToInstance, Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Max,
  Min,
  MinLength,
  validateSync,
} from 'class-validator';
import { resolve } from 'node:path';
import { parseCorsOrigins } from '@/platform/server/cors';
import type { ServerTimeouts } from '@/platform/server/server-timeouts';
import { parseTrustedProxies } from '@/platform/server/trusted-proxies';
import { LOG_FORMATS, LogFormat } from '@/platform/logging/log-format';
import { parseSecretsKey, SECRETS_KEY_FORMAT } from '@/platform/secrets/secret-box';

const toInt = ({ value }: { value: unknown }) =>
  value === undefined || value === '' ? undefined : Number(value);
const toBool = ({ value }: { value: unknown }) => {
  if (value === undefined || value === '') return undefined;
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  return value;
};
const emptyToUndefined = ({ value }: { value: unknown }) => (value === '' ? undefined : value);

/**
 * Waits before each retry of a failed delivery: about 24 h in all (10 s + 30 s + 1 m + 5 m + 15 m
 * + 30 m + 1 h + 2 h + 4 h + 8 h + 8 h), the first within about 10 s (docs/api.md, Webhooks).
 */
export const DEFAULT_WEBHOOK_RETRY_SCHEDULE = '10s,30s,1m,5m,15m,30m,1h,2h,4h,8h,8h';
const DURATION_LIST = /^\s*\d{1,9}(ms|s|m|h)\s*(,\s*\d{1,9}(ms|s|m|h)\s*){0,29}$/;
const DURATION_UNIT_MS: Readonly<Record<string, number>> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/** Where the rate limiter counts (docs/operations.md, "Rate limit"). */
export const RATE_LIMIT_STORES = ['postgres', 'memory'] as const;
export type RateLimitStore = (typeof RATE_LIMIT_STORES)[number];

/** The environment as the service reads it; every variable is listed in `.env.example`. */
class EnvironmentVariables {
  @IsIn(['development', 'test', 'production'])
  NODE_ENV = 'development';

  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 3000;

  @IsString()
  HOST = '0.0.0.0';

  @IsString()
  DATA_DIR = './.data';

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_MIGRATION_URL must be a postgres:// URL' })
  DATABASE_MIGRATION_URL?: string;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(200)
  DB_POOL_SIZE = 10;

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^postgres(ql)?:\/\/[^,\s]+(\s*,\s*postgres(ql)?:\/\/[^,\s]+)*$/, {
    message: 'DATABASE_READ_URLS must be comma-separated postgres:// URLs',
  })
  DATABASE_READ_URLS?: string;

  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(3_600_000)
  REPLICA_MAX_LAG_MS = 1000;

  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(5000)
  REPLICA_WAIT_MS = 200;

  @Transform(toInt)
  @IsInt()
  @Min(50)
  @Max(60_000)
  REPLICA_CHECK_INTERVAL_MS = 250;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  DB_LOCK_TIMEOUT_MS = 5000;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  DB_STATEMENT_TIMEOUT_MS = 30000;

  @Transform(toInt)
  @IsInt()
  @Min(100)
  DB_CONNECT_TIMEOUT_MS = 3000;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(20)
  EXPORT_POOL_SIZE = 2;

  @Transform(toInt)
  @IsInt()
  @Min(1000)
  EXPORT_STATEMENT_TIMEOUT_MS = 600000;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  @MinLength(32, { message: 'JWT_SECRET must be at least 32 characters' })
  JWT_SECRET?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'] })
  JWT_JWKS_URI?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(SECRETS_KEY_FORMAT, {
    message: 'SECRETS_KEY must be 32 bytes in base64 (openssl rand -base64 32)',
  })
  SECRETS_KEY?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(SECRETS_KEY_FORMAT, {
    message: 'SECRETS_KEY_PREVIOUS must be 32 bytes in base64 (openssl rand -base64 32)',
  })
  SECRETS_KEY_PREVIOUS?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  JWT_ISSUER?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  JWT_AUDIENCE?: string;

  @IsString()
  @Matches(/^[A-Za-z0-9_:./-]+$/)
  JWT_TENANT_CLAIM = 'tenant';

  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(300)
  JWT_CLOCK_TOLERANCE_SEC = 30;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL = 'info';

  @IsIn(LOG_FORMATS)
  LOG_FORMAT: LogFormat = 'auto';

  @IsString()
  @Matches(/^\d+(b|kb|mb)$/i, { message: 'BODY_LIMIT must look like 100kb or 1mb' })
  BODY_LIMIT = '1mb';

  /** Largest bank statement file (POST /bank-accounts/{id}/statements), in bytes: 20 MiB. */
  @Transform(toInt)
  @IsInt()
  @Min(1024)
  @Max(1024 * 1024 * 1024)
  STATEMENT_MAX_BYTES = 20 * 1024 * 1024;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  RATE_LIMIT_PER_MINUTE = 1200;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsIn(RATE_LIMIT_STORES)
  RATE_LIMIT_STORE?: RateLimitStore;

  @IsString()
  TRUSTED_PROXIES = '';

  @IsString()
  CORS_ORIGINS = '';

  @Transform(toInt)
  @IsInt()
  @Min(100)
  HTTP_HEADERS_TIMEOUT_MS = 15000;

  @Transform(toInt)
  @IsInt()
  @Min(100)
  HTTP_REQUEST_TIMEOUT_MS = 30000;

  @Transform(toInt)
  @IsInt()
  @Min(100)
  HTTP_KEEP_ALIVE_TIMEOUT_MS = 5000;

  @Transform(toBool)
  @IsOptional()
  @IsBoolean()
  SEED_DEMO_DATA?: boolean;

  /** Exactly this many receipts in each demo tenant (no demo data: SEED_DEMO_DATA=false). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  DEMO_RECEIPTS_PER_TENANT = 3000;

  @Transform(toInt)
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(600_000)
  SHUTDOWN_DRAIN_MS?: number;

  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(600_000)
  SHUTDOWN_TIMEOUT_MS = 10_000;

  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(1000)
  HEAP_GROWING_PERCENT = 50;

  @Transform(toBool)
  @IsOptional()
  @IsBoolean()
  HOUSEKEEPING_ENABLED?: boolean;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(8760)
  IDEMPOTENCY_TTL_HOURS = 24;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(36500)
  EVENTS_RETENTION_DAYS = 90;

  @IsString()
  @Matches(/^(\S+\s+){4}\S+$/, { message: 'HOUSEKEEPING_CRON must be a 5-field cron expression' })
  HOUSEKEEPING_CRON = '*/10 * * * *';

  @Transform(toBool)
  @IsOptional()
  @IsBoolean()
  WEBHOOK_DELIVERY_ENABLED?: boolean;

  @Transform(toBool)
  @IsOptional()
  @IsBoolean()
  WEBHOOK_ALLOW_PRIVATE?: boolean;

  @IsString()
  @Matches(DURATION_LIST, {
    message: 'WEBHOOK_RETRY_SCHEDULE must be comma-separated durations such as 10s,1m,1h (1 to 30)',
  })
  WEBHOOK_RETRY_SCHEDULE = DEFAULT_WEBHOOK_RETRY_SCHEDULE;

  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(60_000)
  WEBHOOK_TIMEOUT_MS = 10_000;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(32)
  WEBHOOK_CONCURRENCY = 4;

  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(60_000)
  WEBHOOK_POLL_INTERVAL_MS = 500;
}

/** `10s,1m,500ms` → [10000, 60000, 500] (the format DURATION_LIST accepts). */
export function parseDurationList(text: string): number[] {
  return text.split(',').map((part) => {
    const [, amount, unit] = /^(\d+)(ms|s|m|h)$/.exec(part.trim()) ?? [];
    if (amount === undefined) throw new ConfigError(`not a duration: ${part}`);
    return Number(amount) * DURATION_UNIT_MS[unit];
  });
}

/** Keys, even malformed ones, are not repeated into logs. */
const KEYS = new Set(['JWT_SECRET', 'SECRETS_KEY', 'SECRETS_KEY_PREVIOUS']);
const shown = (name: string, value: string | undefined) =>
  KEYS.has(name) && value ? '(redacted)' : JSON.stringify(value ?? null);

function parseKey(text: string | undefined, name: string): Buffer | undefined {
  if (text === undefined) return undefined;
  try {
    return parseSecretsKey(text);
  } catch {
    throw new ConfigError(
      `Invalid configuration:\n  ${name}: must be 32 bytes in base64 (openssl rand -base64 32)`,
    );
  }
}

export type NodeEnv = 'development' | 'test' | 'production';
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/** Typed, validated configuration. Injected by class token. */
export class AppConfig {
  readonly nodeEnv: NodeEnv;
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  readonly databaseUrl?: string;
  readonly databaseMigrationUrl?: string;
  readonly dbPoolSize: number;
  readonly dbLockTimeoutMs: number;
  readonly dbStatementTimeoutMs: number;
  readonly dbConnectTimeoutMs: number;
  readonly readReplicas: {
    /** Streaming standbys that serve reads (docs/operations.md); empty = all on the primary. */
    urls: string[];
    /** A replica further behind than this is skipped. */
    maxLagMs: number;
    /** How long a read with an X-Consistency-Token waits for a replica before using the primary. */
    waitMs: number;
    /** How often each replica's replay position and lag are checked. */
    checkIntervalMs: number;
  };
  /** Connections of the export pool: at most this many exports run at once (503 EXPORT_BUSY). */
  readonly exportPoolSize: number;
  /** statement_timeout of each export statement (a batch fetch), instead of the interactive one. */
  readonly exportStatementTimeoutMs: number;
  readonly jwt: {
    secret?: string;
    jwksUri?: string;
    issuer?: string;
    audience?: string;
    tenantClaim: string;
    /** Seconds a token's exp / nbf / iat may be off from our clock. */
    clockToleranceSec: number;
  };
  /**
   * The keys secrets are sealed with at rest (webhook signing secrets): SECRETS_KEY, else the one
   * generated into DATA_DIR (never in production); SECRETS_KEY_PREVIOUS still opens what it
   * sealed, until `npm run secrets:rotate` has re-sealed everything.
   */
  readonly secrets: {
    key?: Buffer;
    previousKey?: Buffer;
  };
  readonly logLevel: LogLevel;
  readonly logFormat: LogFormat;
  readonly bodyLimit: string;
  /** Largest bank statement upload in bytes (decoded size); larger is 413. */
  readonly statementMaxBytes: number;
  readonly rateLimitPerMinute: number;
  /**
   * `postgres`: one budget per client shared by every instance on the database; `memory`: each
   * instance counts alone (N instances allow N budgets). Default: postgres with DATABASE_URL
   * (a server other instances may share), memory with the embedded PostgreSQL (one instance).
   */
  readonly rateLimitStore: RateLimitStore;
  /** Addresses / CIDRs whose X-Forwarded-For is believed; empty = none. */
  readonly trustedProxies: string[];
  /**
   * Browser origins (exactly as a browser sends `Origin`) allowed to call the API cross-origin
   * (docs/browser.md); empty = no CORS headers at all.
   */
  readonly corsOrigins: string[];
  readonly http: ServerTimeouts;
  readonly seedDemoData: boolean;
  readonly demoReceiptsPerTenant: number;
  readonly shutdownDrainMs: number;
  readonly shutdownTimeoutMs: number;
  /**
   * How far V8 lets the heap grow past what survived the last full collection before collecting
   * again, in percent (V8's --heap-growing-percent); 0 leaves V8's own factor (up to 4x).
   */
  readonly heapGrowingPercent: number;
  readonly housekeeping: {
    /** Runs the pg-boss worker and schedule in this process. */
    enabled: boolean;
    idempotencyTtlHours: number;
    /** Events older than this many days are purged; a feed cursor below them is 410. */
    eventsRetentionDays: number;
    cron: string;
  };
  readonly webhooks: {
    /** Runs the dispatcher and the delivery workers in this process. */
    deliveryEnabled: boolean;
    /** Loopback, private and link-local targets allowed (never in production by default). */
    allowPrivate: boolean;
    /** Only https targets (production). */
    requireHttps: boolean;
    /** Wait before retry n (ms, before jitter); after the last one the delivery has failed. */
    retryScheduleMs: number[];
    /** One attempt's limit: connect, send, and the receiver's answer. */
    timeoutMs: number;
    /** Subscriptions delivered at once by this process (each holds a connection while sending). */
    concurrency: number;
    /** How often this process looks for subscriptions with events to deliver. */
    pollIntervalMs: number;
  };

  constructor(values: AppConfigValues) {
    Object.assign(this, values);
  }

  get isProduction(): boolean {
    return this.nodeEnv === 'production';
  }
}

export type AppConfigValues = Omit<AppConfig, 'isProduction'>;

export class ConfigError extends Error {}

/** Validates the environment once at boot; throws naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const raw = plainToInstance(EnvironmentVariables, { ...env }, { exposeDefaultValues: true });
  const errors = validateSync(raw, { whitelist: true, forbidUnknownValues: false });
  if (errors.length > 0) {
    const lines = errors.map(
      (e) =>
        `  ${e.property}=${shown(e.property, env[e.property])}: ${Object.values(e.constraints ?? {}).join('; ')}`,
    );
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const trusted = parseTrustedProxies(raw.TRUSTED_PROXIES);
  if (trusted.invalid.length > 0) {
    throw new ConfigError(
      `Invalid configuration:\n  TRUSTED_PROXIES: not an IP address or CIDR range: ${trusted.invalid.join(', ')}`,
    );
  }
  const cors = parseCorsOrigins(raw.CORS_ORIGINS);
  if (cors.invalid.length > 0) {
    throw new ConfigError(
      `Invalid configuration:\n  CORS_ORIGINS: not an origin (scheme://host[:port], no path, no trailing slash): ${cors.invalid.join(', ')}`,
    );
  }
  if (raw.HTTP_HEADERS_TIMEOUT_MS > raw.HTTP_REQUEST_TIMEOUT_MS) {
    throw new ConfigError(
      'Invalid configuration: HTTP_HEADERS_TIMEOUT_MS must not exceed HTTP_REQUEST_TIMEOUT_MS',
    );
  }
  if (raw.JWT_SECRET && raw.JWT_JWKS_URI) {
    throw new ConfigError('Invalid configuration: set JWT_SECRET or JWT_JWKS_URI, not both');
  }
  const isProduction = raw.NODE_ENV === 'production';
  if (isProduction && !raw.JWT_SECRET && !raw.JWT_JWKS_URI) {
    throw new ConfigError(
      'Invalid configuration: JWT_JWKS_URI (or JWT_SECRET) is required when NODE_ENV=production; a generated development secret is refused',
    );
  }
  if (isProduction && !raw.SECRETS_KEY) {
    throw new ConfigError(
      'Invalid configuration: SECRETS_KEY is required when NODE_ENV=production (openssl rand -base64 32); a generated development key is refused',
    );
  }
  if (raw.SECRETS_KEY_PREVIOUS && !raw.SECRETS_KEY) {
    throw new ConfigError(
      'Invalid configuration: SECRETS_KEY_PREVIOUS is set without SECRETS_KEY (the key that replaces it)',
    );
  }
  const secretsKey = parseKey(raw.SECRETS_KEY, 'SECRETS_KEY');
  const previousSecretsKey = parseKey(raw.SECRETS_KEY_PREVIOUS, 'SECRETS_KEY_PREVIOUS');
  if (secretsKey && previousSecretsKey?.equals(secretsKey)) {
    throw new ConfigError(
      'Invalid configuration: SECRETS_KEY_PREVIOUS is the same key as SECRETS_KEY',
    );
  }
  if (isProduction && !raw.DATABASE_URL) {
    throw new ConfigError(
      'Invalid configuration: DATABASE_URL is required when NODE_ENV=production (the embedded PostgreSQL is for development)',
    );
  }
  return new AppConfig({
    nodeEnv: raw.NODE_ENV as NodeEnv,
    port: raw.PORT,
    host: raw.HOST,
    dataDir: resolve(raw.DATA_DIR),
    databaseUrl: raw.DATABASE_URL,
    databaseMigrationUrl: raw.DATABASE_MIGRATION_URL,
    dbPoolSize: raw.DB_POOL_SIZE,
    dbLockTimeoutMs: raw.DB_LOCK_TIMEOUT_MS,
    dbStatementTimeoutMs: raw.DB_STATEMENT_TIMEOUT_MS,
    dbConnectTimeoutMs: raw.DB_CONNECT_TIMEOUT_MS,
    readReplicas: {
      urls: raw.DATABASE_READ_URLS?.split(',').map((url) => url.trim()) ?? [],
      maxLagMs: raw.REPLICA_MAX_LAG_MS,
      waitMs: raw.REPLICA_WAIT_MS,
      checkIntervalMs: raw.REPLICA_CHECK_INTERVAL_MS,
    },
    exportPoolSize: raw.EXPORT_POOL_SIZE,
    exportStatementTimeoutMs: raw.EXPORT_STATEMENT_TIMEOUT_MS,
    jwt: {
      secret: raw.JWT_SECRET,
      jwksUri: raw.JWT_JWKS_URI,
      issuer: raw.JWT_ISSUER,
      audience: raw.JWT_AUDIENCE,
      tenantClaim: raw.JWT_TENANT_CLAIM,
      clockToleranceSec: raw.JWT_CLOCK_TOLERANCE_SEC,
    },
    secrets: { key: secretsKey, previousKey: previousSecretsKey },
    logLevel: raw.LOG_LEVEL as LogLevel,
    logFormat: raw.LOG_FORMAT,
    bodyLimit: raw.BODY_LIMIT,
    statementMaxBytes: raw.STATEMENT_MAX_BYTES,
    rateLimitPerMinute: raw.RATE_LIMIT_PER_MINUTE,
    // The embedded PostgreSQL lives in this instance's DATA_DIR: no other instance can share it.
    rateLimitStore: raw.RATE_LIMIT_STORE ?? (raw.DATABASE_URL ? 'postgres' : 'memory'),
    trustedProxies: trusted.proxies,
    corsOrigins: cors.origins,
    http: {
      headersTimeoutMs: raw.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: raw.HTTP_REQUEST_TIMEOUT_MS,
      keepAliveTimeoutMs: raw.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    },
    seedDemoData: raw.SEED_DEMO_DATA ?? !isProduction,
    demoReceiptsPerTenant: raw.DEMO_RECEIPTS_PER_TENANT,
    // Tests start and stop services often; no balancer needs a drain window there.
    shutdownDrainMs: raw.SHUTDOWN_DRAIN_MS ?? (raw.NODE_ENV === 'test' ? 0 : 5000),
    shutdownTimeoutMs: raw.SHUTDOWN_TIMEOUT_MS,
    heapGrowingPercent: raw.HEAP_GROWING_PERCENT,
    housekeeping: {
      // Off in tests unless asked for: dozens of short-lived apps need no scheduler each.
      enabled: raw.HOUSEKEEPING_ENABLED ?? raw.NODE_ENV !== 'test',
      idempotencyTtlHours: raw.IDEMPOTENCY_TTL_HOURS,
      eventsRetentionDays: raw.EVENTS_RETENTION_DAYS,
      cron: raw.HOUSEKEEPING_CRON,
    },
    webhooks: {
      deliveryEnabled: raw.WEBHOOK_DELIVERY_ENABLED ?? raw.NODE_ENV !== 'test',
      allowPrivate: raw.WEBHOOK_ALLOW_PRIVATE ?? !isProduction,
      requireHttps: isProduction,
      retryScheduleMs: parseDurationList(raw.WEBHOOK_RETRY_SCHEDULE),
      timeoutMs: raw.WEBHOOK_TIMEOUT_MS,
      concurrency: raw.WEBHOOK_CONCURRENCY,
      pollIntervalMs: raw.WEBHOOK_POLL_INTERVAL_MS,
    },
  });
}
