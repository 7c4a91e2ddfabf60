import 'reflect-metadata';
import { createApp } from '@/app.factory';
import { ConfigError, loadConfig } from '@/platform/config/app-config';
import { GracefulShutdown } from '@/platform/lifecycle/graceful-shutdown';
import { applyHeapGrowth } from '@/platform/lifecycle/heap-growth';
import { lifecycleState } from '@/platform/lifecycle/lifecycle-state';
import { prepareDatabase } from '@/database/database-bootstrap';
import { describeEmbeddedLocation } from '@/database/state-location';
import { seedDemoData } from '@/seed/demo-seed';

let shutdown: GracefulShutdown | undefined;

async function main(): Promise<void> {
  const config = loadConfig();
  applyHeapGrowth(config.heapGrowingPercent);
  // Drain HTTP, close Nest (background work, pool), then the embedded server; docs/operations.md.
  shutdown = new GracefulShutdown({
    drainMs: config.shutdownDrainMs,
    timeoutMs: config.shutdownTimeoutMs,
    state: lifecycleState,
  }).installSignalHandlers();
  const db = await prepareDatabase(config);
  shutdown.setDatabase(() => db.stop());
  db.onUnrecoverable((reason) => void shutdown?.shutdown(reason, 1));
  const app = await createApp(config, db.appUrl);
  shutdown.setApplication(() => app.close());

  if (config.seedDemoData && !config.isProduction) {
    await seedDemoData(app, config);
  }
  await app.listen(config.port, config.host);
  shutdown.attachServer(app.getHttpServer());
  const base = `http://localhost:${config.port}`;
  const mode = db.embedded
    ? `embedded PostgreSQL, ${describeEmbeddedLocation(config.dataDir)}`
    : 'external PostgreSQL';
  process.stdout.write(
    [
      '',
      `Finance service listening on ${base} (${mode})`,
      `  Swagger UI:  ${base}/docs   (OpenAPI JSON: ${base}/docs-json)`,
      `  Health:      ${base}/health/ready`,
      config.jwt.jwksUri
        ? '  Tokens:      issued by your identity provider (JWKS mode)'
        : '  Get a token: npm run -s token -- --tenant demo   (then Authorize with it and x-tenant-id: demo)',
      '',
    ].join('\n'),
  );
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(
      // Never "undefined": some libraries reject without a reason.
      `Failed to start: ${error instanceof Error ? (error.stack ?? error.message) : error === undefined ? 'no reason given (a promise was rejected with nothing)' : JSON.stringify(error)}\n`,
    );
  }
  // A failure after the embedded database started must not leave it running.
  if (shutdown) void shutdown.shutdown('start failed', 1);
  else process.exit(1);
});
