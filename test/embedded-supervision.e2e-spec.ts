/**
 * The embedded PostgreSQL as a supervised child of the real service process, on a data
 * directory of its own (not the suite's database): a service killed with SIGKILL leaves its
 * postmaster behind, and the next start stops that one and starts fresh with the data intact; a
 * postmaster killed under a running service is restarted; one that cannot be restarted makes
 * liveness fail and the process exit non-zero. Processes are checked through /proc.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { isProcessAlive } from '@/database/embedded-supervisor';
import { bookingBody } from './support/factories';
import { TEST_JWT_SECRET } from './support/test-app';
import { as } from './support/tokens';
import {
  ensureBuilt,
  freePort,
  postmastersOn,
  ROOT,
  removeScratchDirs,
  scratchDir,
  send,
  ServiceProcess,
} from './support/service-process';

const TENANT = 'embedded-supervision';
const DEADLINE = 120_000;

describe('embedded PostgreSQL supervision (service process)', () => {
  const dataDir = join(scratchDir('finance-embedded-'), 'data');
  const pgDir = join(dataDir, 'pg');
  const env = {
    NODE_ENV: 'development',
    DATA_DIR: dataDir,
    JWT_SECRET: TEST_JWT_SECRET,
    LOG_LEVEL: 'info',
    SEED_DEMO_DATA: 'false',
    RATE_LIMIT_PER_MINUTE: '1000000',
    SHUTDOWN_DRAIN_MS: '200',
  };
  const record = () =>
    JSON.parse(readFileSync(join(dataDir, 'pg.json'), 'utf8')) as {
      port: number;
      pid: number;
      postmasterPid: number;
    };
  const started: ServiceProcess[] = [];
  const start = async (extra: Record<string, string> = {}) => {
    const service = new ServiceProcess(await freePort(), { ...env, ...extra });
    started.push(service);
    await service.waitReady(DEADLINE);
    return service;
  };
  let bookingId = '';

  beforeAll(() => ensureBuilt(), 300_000);

  afterAll(async () => {
    for (const service of started) if (service.running) service.kill('SIGKILL');
    for (const pid of postmastersOn(pgDir)) process.kill(pid, 'SIGQUIT');
    await sleep(500);
    removeScratchDirs();
  });

  it('kill -9 of the service: the next start stops the orphaned postmaster, data intact', async () => {
    const first = await start();
    // The CLI reuses the server the running service owns and leaves it alone.
    execFileSync(
      'node',
      [join(ROOT, 'dist/src/cli/tenant-create.js'), '--key', TENANT, '--name', 'Supervision'],
      { cwd: ROOT, env: { ...process.env, ...env, LOG_LEVEL: 'silent' }, stdio: 'ignore' },
    );
    expect(postmastersOn(pgDir)).toEqual([record().postmasterPid]);
    expect(await first.status('/health/ready')).toBe(200);
    const created = await send(first.port, 'POST', '/bookings', {
      headers: as(TENANT),
      body: bookingBody(),
    });
    expect(created.status).toBe(201);
    bookingId = (JSON.parse(created.body) as { id: string }).id;

    const orphan = record().postmasterPid;
    first.kill('SIGKILL');
    await first.exited;
    expect(isProcessAlive(orphan)).toBe(true); // nothing can stop it: a SIGKILL runs no code

    const second = await start();
    expect(second.log).toMatch(
      new RegExp(`found a PostgreSQL \\(pid ${orphan}.*which is gone \\(crashed or killed\\)`),
    );
    expect(second.log).toMatch(/stopped the leftover PostgreSQL .* with pg_ctl -m fast/);
    expect(isProcessAlive(orphan)).toBe(false);
    expect(postmastersOn(pgDir)).toEqual([record().postmasterPid]);
    expect(record().pid).toBe(second.pid);
    const read = await send(second.port, 'GET', `/bookings/${bookingId}`, { headers: as(TENANT) });
    expect(read.status).toBe(200);

    second.kill('SIGTERM');
    expect(await second.exited).toEqual({ code: 0, signal: null });
    expect(postmastersOn(pgDir)).toEqual([]);
    expect(existsSync(join(dataDir, 'pg.json'))).toBe(false);
    expect(existsSync(join(pgDir, 'postmaster.pid'))).toBe(false);
  }, 300_000);

  it('kill -9 of the postmaster: the service restarts it and serves again', async () => {
    const service = await start();
    const killed = record().postmasterPid;
    process.kill(killed, 'SIGKILL');
    await service.until(
      'a new postmaster',
      async () =>
        record().postmasterPid !== killed && (await service.status('/health/ready')) === 200,
      DEADLINE,
    );
    expect(service.log).toMatch(/was killed by SIGKILL; restarting it \(attempt 1 of 3\)/);
    expect(postmastersOn(pgDir)).toEqual([record().postmasterPid]);
    // The pool reconnects on its own: a request succeeds again (503s meanwhile are allowed).
    await service.until(
      'the booking readable again',
      async () =>
        (await send(service.port, 'GET', `/bookings/${bookingId}`, { headers: as(TENANT) }))
          .status === 200,
      DEADLINE,
    );
    expect(await service.status('/health/live')).toBe(200);

    service.kill('SIGTERM');
    expect(await service.exited).toEqual({ code: 0, signal: null });
    expect(postmastersOn(pgDir)).toEqual([]);
  }, 300_000);

  it('a postmaster that cannot be restarted: liveness fails and the process exits non-zero', async () => {
    // A drain window long enough for the probes below to see liveness fail before the exit.
    const service = await start({ SHUTDOWN_DRAIN_MS: '3000' });
    const killed = record().postmasterPid;
    // Without PG_VERSION postgres refuses the data directory: every restart attempt fails.
    renameSync(join(pgDir, 'PG_VERSION'), join(dataDir, 'PG_VERSION.aside'));
    try {
      process.kill(killed, 'SIGKILL');
      const live: number[] = [];
      while (service.running) {
        live.push(await service.status('/health/live').catch(() => 0));
        await sleep(50);
      }
      expect(live).toContain(503);
      expect(await service.exited).toEqual({ code: 1, signal: null });
      expect(service.log).toMatch(/could not be restarted after 3 attempts/);
      expect(postmastersOn(pgDir)).toEqual([]);
    } finally {
      renameSync(join(dataDir, 'PG_VERSION.aside'), join(pgDir, 'PG_VERSION'));
    }
  }, 300_000);
});
