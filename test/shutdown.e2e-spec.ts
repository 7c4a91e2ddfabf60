/**
 * Graceful shutdown of the real service process (`node dist/src/main.js`) against the suite's
 * PostgreSQL: under light keep-alive load, SIGTERM turns readiness 503 before the listener
 * closes, every request that got an answer got a complete one, and the process exits 0. A
 * second signal exits at once with a non-zero code. Orders of events are checked, never times.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Agent } from 'node:http';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { TEST_JWT_SECRET } from './support/test-app';
import { bookingBody } from './support/factories';
import { as } from './support/tokens';
import {
  ensureBuilt,
  freePort,
  ROOT,
  removeScratchDirs,
  scratchDir,
  send,
  ServiceProcess,
} from './support/service-process';

function serviceEnv(extra: Record<string, string>): Record<string, string> {
  const ownerUrl = process.env.TEST_DATABASE_URL;
  const appUrl = process.env.TEST_DATABASE_APP_URL;
  if (!ownerUrl || !appUrl) throw new Error('TEST_DATABASE_URL / TEST_DATABASE_APP_URL not set');
  return {
    NODE_ENV: 'test',
    DATABASE_URL: appUrl,
    DATABASE_MIGRATION_URL: ownerUrl,
    JWT_SECRET: TEST_JWT_SECRET,
    LOG_LEVEL: 'info',
    SEED_DEMO_DATA: 'false',
    RATE_LIMIT_PER_MINUTE: '1000000',
    DATA_DIR: scratchDir('finance-shutdown-'),
    ...extra,
  };
}

describe('graceful shutdown (service process)', () => {
  beforeAll(() => ensureBuilt(), 300_000);
  afterAll(() => removeScratchDirs());

  it('SIGTERM: readiness 503 first, in-flight answers complete, listener closed, exit 0', async () => {
    const env = serviceEnv({ SHUTDOWN_DRAIN_MS: '500', SHUTDOWN_TIMEOUT_MS: '10000' });
    const tenant = `sd-${randomBytes(4).toString('hex')}`;
    execFileSync(
      'node',
      [join(ROOT, 'dist/src/cli/tenant-create.js'), '--key', tenant, '--name', 'Shutdown'],
      { cwd: ROOT, env: { ...process.env, ...env }, stdio: 'ignore' },
    );
    const service = new ServiceProcess(await freePort(), env);
    try {
      await service.waitReady();
      const headers = as(tenant);
      const booking = await send(service.port, 'POST', '/bookings', {
        headers,
        body: bookingBody(),
      });
      expect(booking.status).toBe(201);
      const bookingId = (JSON.parse(booking.body) as { id: string }).id;

      // Light load: 4 keep-alive connections reading and searching in a loop.
      const agent = new Agent({ keepAlive: true, maxSockets: 4 });
      const outcomes: { status?: number; complete?: boolean; error?: string }[] = [];
      let loading = true;
      const worker = async (i: number) => {
        while (loading) {
          const [method, path, body] =
            i % 2 === 0
              ? (['GET', `/bookings/${bookingId}`, undefined] as const)
              : (['POST', '/receipts/search', {}] as const);
          try {
            const answer = await send(service.port, method, path, { headers, body, agent });
            JSON.parse(answer.body); // complete: a whole JSON document
            outcomes.push({ status: answer.status, complete: true });
          } catch (error) {
            const code = (error as { code?: string }).code ?? (error as Error).message;
            outcomes.push({ error: code });
            if (code === 'ECONNREFUSED') return; // listener closed: this client is done
            await sleep(20);
          }
        }
      };
      const workers = [0, 1, 2, 3].map(worker);
      await sleep(500);
      const beforeSignal = outcomes.length;

      // Fresh connections (no keep-alive) probing readiness: the order of what they see matters.
      const probes: string[] = [];
      service.kill('SIGTERM');
      for (;;) {
        try {
          probes.push(String(await service.status('/health/ready')));
        } catch (error) {
          const code = (error as { code?: string }).code ?? 'error';
          // A connection caught in the kernel's accept queue as the listener closes is reset
          // rather than refused: either way the listener is closed.
          const closed = code === 'ECONNREFUSED' || code === 'ECONNRESET';
          probes.push(closed ? 'closed' : code);
          if (closed) break;
        }
        await sleep(10);
      }
      const exit = await service.exitWithin(60_000);
      loading = false;
      await Promise.all(workers);
      agent.destroy();

      expect(beforeSignal).toBeGreaterThan(0);
      // A probe sent before the signal was handled may still see 200; then only 503 until the
      // listener refuses connections.
      const afterSignal = probes.slice(probes.findIndex((p) => p !== '200'));
      expect(afterSignal[0]).toBe('503');
      expect(afterSignal.slice(0, -1).every((p) => p === '503')).toBe(true);
      expect(afterSignal.at(-1)).toBe('closed');
      // Every request that got an answer got a complete one, and none was a server error.
      const answered = outcomes.filter((o) => o.status !== undefined);
      expect(answered.length).toBeGreaterThan(0);
      expect(answered.every((o) => o.complete && o.status! < 500)).toBe(true);
      expect(outcomes.filter((o) => o.error === 'INCOMPLETE')).toEqual([]);
      expect(exit).toEqual({ code: 0, signal: null });
      expect(service.log).toMatch(/SIGTERM received: readiness answers 503/);
    } finally {
      if (service.running) service.kill('SIGKILL');
    }
  }, 180_000);

  it('a second signal exits at once with a non-zero code', async () => {
    // A drain far longer than the test: only the second signal can end the process early.
    const service = new ServiceProcess(
      await freePort(),
      serviceEnv({ SHUTDOWN_DRAIN_MS: '600000' }),
    );
    try {
      await service.waitReady();
      service.kill('SIGTERM');
      await service.until(
        'readiness 503',
        async () => (await service.status('/health/ready')) === 503,
      );
      service.kill('SIGINT');
      const exit = await service.exitWithin(60_000);
      expect(exit).toEqual({ code: 130, signal: null });
      expect(service.log).toMatch(/SIGINT received again: exiting at once/);
    } finally {
      if (service.running) service.kill('SIGKILL');
    }
  }, 180_000);
});
