/**
 * The service for bench/floor.bench.ts, run as a CHILD process so its CPU time and peak RSS are
 * its own (read from /proc by the parent). Configured as bench-support configures the service,
 * plus LOG_LEVEL from the parent (request logs go to this process's stdout, /dev/null). One JSON
 * argument: { appUrl, port, secret, logLevel, poolSize? (DB_POOL_SIZE, default 40), readUrls?
 * (DATABASE_READ_URLS: streaming standbys that serve the reads), rateLimitStore?
 * (RATE_LIMIT_STORE, default as configured: postgres) }. Also the instances of
 * bench/scaling.bench.ts. Sends { ready: true } over IPC once listening; closes when the parent
 * disconnects.
 */
import { createApp } from '@/app.factory';
import { loadConfig } from '@/platform/config/app-config';
import { applyHeapGrowth } from '@/platform/lifecycle/heap-growth';

interface ServiceOptions {
  appUrl: string;
  port: number;
  secret: string;
  logLevel: string;
  poolSize?: number;
  readUrls?: string[];
  rateLimitStore?: string;
}

async function main(): Promise<void> {
  const o = JSON.parse(process.argv[2]) as ServiceOptions;
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: o.appUrl,
    JWT_SECRET: o.secret,
    LOG_LEVEL: o.logLevel,
    LOG_FORMAT: 'json',
    RATE_LIMIT_PER_MINUTE: '100000000',
    DB_POOL_SIZE: String(o.poolSize ?? 40),
    // As in production: the webhook dispatcher and workers run (the bench has no subscriptions).
    WEBHOOK_DELIVERY_ENABLED: 'true',
    ...(o.rateLimitStore ? { RATE_LIMIT_STORE: o.rateLimitStore } : {}),
    ...(o.readUrls?.length
      ? {
          DATABASE_READ_URLS: o.readUrls.join(','),
          // Generous: on a loaded 2-core machine a check can be late, and a replica skipped for
          // "lag" mid-run would send the reads back to the primary and blur the comparison.
          REPLICA_MAX_LAG_MS: '5000',
        }
      : {}),
  });
  applyHeapGrowth(config.heapGrowingPercent); // as main.ts does
  const app = await createApp(config, o.appUrl, { bufferLogs: false });
  await app.listen(o.port, '127.0.0.1');
  process.on('disconnect', () => {
    void app.close().finally(() => process.exit(0));
  });
  process.send?.({ ready: true });
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
