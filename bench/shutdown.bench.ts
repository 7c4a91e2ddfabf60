/**
 * Shutdown benchmark: SIGTERM to a service (its built dist/, so the same script measures any
 * checkout) under light keep-alive load: 4 clients, each on a keep-alive agent, reading a
 * booking in a loop, plus a readiness probe on a fresh connection every 10 ms. Prints refused
 * connections, resets, server errors, the times from the signal to readiness 503, to the
 * listener closing and to the process exit, and the exit code. Clients keep going (reconnecting
 * after a refusal, as load from elsewhere would) until the process exits or 20 s after the signal.
 *
 *   node dist/bench/shutdown.bench.js [serviceDir] [--embedded]   (default: this checkout)
 *
 * The database is a pg_ctl cluster (bench/pg-cluster.ts), or with --embedded the service's own
 * embedded PostgreSQL in a scratch DATA_DIR. Service settings are its defaults (NODE_ENV
 * production with the cluster, development with --embedded).
 */
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sign } from 'jsonwebtoken';
import { SCOPES } from '@/http/auth/auth.decorators';
import { freePort } from './bench-support';
import { BENCH_SECRETS_KEY, PgCluster } from './pg-cluster';

const SECRET = 'bench-secret-that-is-long-enough-for-hs256-0123456789';
const CLIENTS = 4;
const AFTER_SIGNAL_CAP_MS = 20_000;

interface Answer {
  status: number;
  body: string;
}

function send(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
  agent?: Agent,
): Promise<Answer> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((done, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent: agent ?? false,
        headers: { ...(payload ? { 'content-type': 'application/json' } : {}), ...headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('error', reject);
        res.on('end', () =>
          res.complete
            ? done({ status: res.statusCode ?? 0, body: text })
            : reject(Object.assign(new Error('incomplete'), { code: 'INCOMPLETE' })),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

function outcomeOf(error: unknown): string {
  const code = (error as { code?: string }).code;
  if (code === 'ECONNREFUSED') return 'refused';
  if (code === 'ECONNRESET' || (error as Error).message === 'socket hang up') return 'reset';
  return code ?? (error as Error).message;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const embedded = args.includes('--embedded');
  const serviceDir = resolve(
    args.find((a) => !a.startsWith('--')) ?? resolve(__dirname, '..', '..'),
  );
  const scratch = mkdtempSync('/tmp/finance-shutdown-bench-');
  chmodSync(scratch, 0o755);
  const cluster = embedded ? undefined : await PgCluster.create(await freePort());
  let service: ChildProcess | undefined;
  try {
    const port = await freePort();
    const env: Record<string, string | undefined> = {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      JWT_SECRET: SECRET,
      SECRETS_KEY: BENCH_SECRETS_KEY,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '10000000',
      SEED_DEMO_DATA: 'false',
      DATA_DIR: join(scratch, 'data'),
      NODE_ENV: embedded ? 'development' : 'production',
    };
    if (cluster) {
      await cluster.createDatabase('finance');
      await cluster.sql('postgres', `CREATE ROLE finance_app NOLOGIN`);
      await cluster.sql(
        'postgres',
        `CREATE ROLE bench_app LOGIN PASSWORD 'bench_app' IN ROLE finance_app`,
      );
      env.DATABASE_URL = cluster.url('finance', 'bench_app', 'bench_app');
      env.DATABASE_MIGRATION_URL = cluster.url('finance');
    }
    const tenant = 'shutdown-bench';
    execFileSync(
      'node',
      [resolve(serviceDir, 'dist/src/cli/tenant-create.js'), '--key', tenant, '--name', 'Bench'],
      { env, cwd: serviceDir, stdio: 'ignore' },
    );
    service = spawn('node', [resolve(serviceDir, 'dist/src/main.js')], {
      env,
      cwd: serviceDir,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    service.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<{ code: number | null; signal: string | null; at: number }>((done) =>
      service!.once('exit', (code, signal) => done({ code, signal, at: Date.now() })),
    );
    for (let i = 0; ; i++) {
      const ok = await send(port, 'GET', '/health/ready', {}).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) break;
      if (i > 600) throw new Error(`service did not become ready:\n${stderr}`);
      await sleep(100);
    }
    const headers = {
      'x-tenant-id': tenant,
      authorization: `Bearer ${sign({ sub: 'bench', tenant, scope: SCOPES.join(' ') }, SECRET, { expiresIn: '2h' })}`,
    };
    const booking = await send(port, 'POST', '/bookings', headers, {
      unit: '6f1c2f44-0c4e-4b5e-9d7e-2d9f3b1a0c11',
      buyerName: 'Bench',
      buyerId: '6f1c2f44-0c4e-4b5e-9d7e-2d9f3b1a0c12',
      bookingDate: '2026-11-22',
    });
    if (booking.status !== 201) throw new Error(`booking: ${booking.status} ${booking.body}`);
    const path = `/bookings/${(JSON.parse(booking.body) as { id: string }).id}`;

    let signalAt = 0;
    let running = true;
    let listenerClosedAt = 0;
    const after: Record<string, number> = {};
    let refusedFirstSecond = 0;
    let servedAfterClose = 0;
    let before = 0;
    const client = async () => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      while (running) {
        let outcome: string;
        try {
          const answer = await send(port, 'GET', path, headers, undefined, agent);
          JSON.parse(answer.body);
          outcome = String(answer.status);
          if (listenerClosedAt && signalAt) servedAfterClose++;
        } catch (error) {
          outcome = outcomeOf(error);
        }
        if (!signalAt) {
          before++;
          continue;
        }
        after[outcome] = (after[outcome] ?? 0) + 1;
        if (outcome === 'refused') {
          listenerClosedAt ||= Date.now();
          if (Date.now() - signalAt < 1000) refusedFirstSecond++;
          await sleep(10);
        }
      }
      agent.destroy();
    };
    const clients = Array.from({ length: CLIENTS }, client);
    await sleep(2000);

    let ready503At = 0;
    const probe = (async () => {
      while (running) {
        try {
          const answer = await send(port, 'GET', '/health/ready', {});
          if (answer.status === 503 && signalAt) ready503At ||= Date.now();
        } catch (error) {
          if (outcomeOf(error) === 'refused' && signalAt) listenerClosedAt ||= Date.now();
        }
        await sleep(10);
      }
    })();
    signalAt = Date.now();
    service.kill('SIGTERM');
    const exit = await Promise.race([exited, sleep(AFTER_SIGNAL_CAP_MS).then(() => undefined)]);
    running = false;
    await Promise.all([...clients, probe]);
    const finalExit =
      exit ??
      (await Promise.race([
        exited,
        sleep(15_000).then(() => ({ code: null, signal: 'none: still running', at: 0 })),
      ]));
    const ms = (at: number) => (at ? `${at - signalAt} ms` : 'never');

    console.log(`service: ${serviceDir} (${embedded ? 'embedded PostgreSQL' : 'pg_ctl cluster'})`);
    console.log(`requests before the signal: ${before} (${CLIENTS} keep-alive clients)`);
    console.log(`after the signal, by outcome: ${JSON.stringify(after)}`);
    console.log(
      `refused connections: ${after.refused ?? 0} (${refusedFirstSecond} in the first second)`,
    );
    console.log(`resets: ${after.reset ?? 0}; incomplete answers: ${after.INCOMPLETE ?? 0}`);
    console.log(
      `server errors (5xx): ${Object.entries(after)
        .filter(([k]) => /^5\d\d$/.test(k))
        .reduce((n, [, v]) => n + v, 0)}`,
    );
    console.log(`signal -> readiness 503: ${ms(ready503At)}`);
    console.log(`signal -> listener closed (first refusal): ${ms(listenerClosedAt)}`);
    console.log(`answers on kept-alive connections after the listener closed: ${servedAfterClose}`);
    console.log(
      exit
        ? `signal -> exit: ${exit.at - signalAt} ms`
        : `not exited ${AFTER_SIGNAL_CAP_MS} ms after the signal` +
            (finalExit.at
              ? `; exited ${finalExit.at - signalAt} ms after it, once the clients stopped`
              : ''),
    );
    console.log(`exit code: ${finalExit.code ?? `signal ${finalExit.signal}`}`);
  } finally {
    if (service && service.exitCode === null && service.signalCode === null)
      service.kill('SIGKILL');
    await cluster?.destroy();
    rmSync(scratch, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
