/**
 * What a normal start writes to its logs: `node dist/src/main.js` with a fresh DATA_DIR (the
 * embedded PostgreSQL, migrations, the demo data), as a newcomer starts it. Neither the
 * service's log nor the database's (DATA_DIR/postgres.log) may report a permission the
 * application role lacks: the start must not attempt what that role may not do.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ensureBuilt,
  freePort,
  removeScratchDirs,
  scratchDir,
  send,
  ServiceProcess,
} from './support/service-process';

/** Lines at warn level or above: pino JSON (level >= 40) or PostgreSQL's WARNING/ERROR/FATAL. */
function warnings(log: string): string[] {
  return log.split('\n').filter((line) => {
    try {
      return (JSON.parse(line) as { level?: number }).level! >= 40;
    } catch {
      return /\b(WARNING|ERROR|FATAL|PANIC|warn|error):/i.test(line);
    }
  });
}

describe('service log of a normal start', () => {
  const dataDir = scratchDir('finance-service-log-');
  let service: ServiceProcess | undefined;

  beforeAll(async () => {
    ensureBuilt();
    // The embedded database: no DATABASE_URL from the suite's environment.
    const env: Record<string, string> = {
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      DATABASE_MIGRATION_URL: '',
      JWT_SECRET: '',
      NODE_ENV: 'development',
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
    };
    service = new ServiceProcess(await freePort(), env);
    await service.waitReady(180_000);
  }, 300_000);

  afterAll(async () => {
    if (service?.running) {
      service.kill('SIGINT');
      await service.exitWithin(30_000);
    }
    removeScratchDirs();
  }, 60_000);

  it('logs bodies refused before routing: 413 too large, 415 unsupported Content-Encoding', async () => {
    const port = service!.port;
    const tooLarge = await send(port, 'POST', '/bookings?m=413', {
      body: { buyerName: 'x'.repeat(2_000_000) },
    });
    expect(tooLarge.status).toBe(413);
    const encoded = await send(port, 'POST', '/bookings?m=415', {
      headers: { 'content-type': 'application/json', 'content-encoding': 'compress' },
      body: {},
    });
    expect(encoded.status).toBe(415);
    const logged = (status: number) =>
      service!.log.split('\n').some((line) => {
        try {
          const entry = JSON.parse(line) as {
            req?: { method?: string; url?: string };
            res?: { statusCode?: number };
          };
          return (
            entry.req?.method === 'POST' &&
            entry.req.url === `/bookings?m=${status}` &&
            entry.res?.statusCode === status
          );
        } catch {
          return false;
        }
      });
    await service!.until(
      'the request log lines',
      () => Promise.resolve(logged(413) && logged(415)),
      5_000,
    );
  });

  it('reports no permission denied, in its own log or the database log, up to a clean stop', async () => {
    service!.kill('SIGINT');
    expect((await service!.exitWithin(30_000)).code).toBe(0);
    const database = readFileSync(join(dataDir, 'postgres.log'), 'utf8');
    const denied = [...warnings(service!.log), ...warnings(database)].filter((line) =>
      /permission denied/i.test(line),
    );
    expect(denied).toEqual([]);
  });
});
