import 'reflect-metadata';
import { createApp } from '@/app.factory';
import { ConfigError, loadConfig } from '@/common/config/app-config';
import { prepareDatabase } from '@/database/database-bootstrap';
import { describeEmbeddedLocation } from '@/database/state-location';
import { seedDemoData } from '@/seed/demo-seed';

async function main(): Promise<void> {
  const config = loadConfig();
  const db = await prepareDatabase(config);
  const app = await createApp(config, db.appUrl);
  // Close Nest (and its pool) first, then the embedded server, then exit.
  const shutdown = (signal: NodeJS.Signals) => {
    process.stdout.write(`${signal} received, shutting down\n`);
    void app
      .close()
      .then(() => db.stop())
      .finally(() => process.exit(0));
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);

  if (config.seedDemoData && !config.isProduction) {
    await seedDemoData(app, config);
  }
  await app.listen(config.port, config.host);
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
      `Failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
  }
  process.exit(1);
});
