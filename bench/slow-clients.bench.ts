/**
 * Slow clients and token time claims, against a service's built dist/ (so the same script
 * measures any checkout) on a throw-away pg_ctl cluster. Prints how long the server keeps
 *  - a slowloris connection (one header byte every 2 s),
 *  - a stalled body (1 byte every 5 s of a declared 1,000-byte JSON body),
 *  - an idle kept-alive connection after one answered request,
 * and the status of a token whose `iat` lies 300 s in the future. Connections still open after
 * the cap (default 120 s) are reported as "> cap".
 *
 *   node dist/bench/slow-clients.bench.js [serviceDir] [capSeconds]   (default: this checkout)
 */
import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { connect } from 'node:net';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sign } from 'jsonwebtoken';
import { SCOPES } from '@/http/auth/auth.decorators';
import { freePort } from './bench-support';
import { PgCluster, prepareServiceOnCluster } from './pg-cluster';

const SECRET = 'bench-secret-that-is-long-enough-for-hs256-0123456789';

interface Lifetime {
  seconds: number;
  closed: boolean;
  firstLine: string;
}

/** Opens a socket, writes `first`, then `next()` every `everyMs` until closed or capped. */
async function connectionLifetime(
  port: number,
  first: string,
  next: () => string,
  everyMs: number,
  capMs: number,
): Promise<Lifetime> {
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  const started = performance.now();
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  socket.write(first);
  const timer = setInterval(() => {
    if (socket.writable) socket.write(next());
  }, everyMs);
  const closed = await Promise.race([
    once(socket, 'close').then(() => true),
    sleep(capMs).then(() => false),
  ]);
  clearInterval(timer);
  socket.destroy();
  return {
    seconds: (performance.now() - started) / 1000,
    closed,
    firstLine: received.split('\r\n')[0] || '(nothing)',
  };
}

async function main(): Promise<void> {
  const serviceDir = resolve(process.argv[2] ?? resolve(__dirname, '..', '..'));
  const capMs = Number(process.argv[3] ?? 120) * 1000;
  const cluster = await PgCluster.create(await freePort());
  let service: ChildProcess | undefined;
  try {
    const port = await freePort();
    const tenantKey = 'slow-bench';
    const env = await prepareServiceOnCluster(cluster, serviceDir, {
      port,
      secret: SECRET,
      tenantKey,
      logLevel: 'warn',
    });
    service = spawn('node', [resolve(serviceDir, 'dist/src/main.js')], {
      env,
      cwd: serviceDir,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const base = `http://127.0.0.1:${port}`;
    for (let i = 0; ; i++) {
      const up = await fetch(`${base}/health/ready`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) break;
      if (i > 600) throw new Error('service did not become ready');
      await sleep(100);
    }
    const now = Math.floor(Date.now() / 1000);
    const bearer = (claims: Record<string, unknown>) =>
      sign({ sub: 'bench', tenant: tenantKey, scope: SCOPES.join(' '), ...claims }, SECRET, {
        expiresIn: '2h',
      });
    const auth = `Bearer ${bearer({})}`;

    const future = await fetch(`${base}/receipts/search`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${bearer({ iat: now + 300 })}`,
        'x-tenant-id': tenantKey,
        'content-type': 'application/json',
      },
      body: '[]',
    });
    console.log(`token with iat 300 s in the future: ${future.status}`);

    const header = 'X-Slow: ' + 'a'.repeat(10_000);
    let h = 0;
    const [slowloris, slowBody, keepAlive] = await Promise.all([
      connectionLifetime(
        port,
        'GET /health/live HTTP/1.1\r\nHost: localhost\r\n',
        () => header[h++] ?? 'a',
        2000,
        capMs,
      ),
      connectionLifetime(
        port,
        'POST /receipts/search HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
          `Authorization: ${auth}\r\nx-tenant-id: ${tenantKey}\r\nContent-Length: 1000\r\n\r\n[`,
        () => ' ',
        5000,
        capMs,
      ),
      connectionLifetime(
        port,
        'GET /health/live HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n',
        () => '',
        60_000,
        capMs,
      ),
    ]);
    const show = (name: string, l: Lifetime) =>
      console.log(
        `${name}: ${l.closed ? `closed after ${l.seconds.toFixed(1)} s` : `> ${(capMs / 1000).toFixed(0)} s (still open)`}; server sent: ${l.firstLine}`,
      );
    show('slowloris (1 header byte / 2 s)', slowloris);
    show('stalled body (1 byte / 5 s)', slowBody);
    show('idle kept-alive connection', keepAlive);
  } finally {
    service?.kill('SIGTERM');
    await sleep(500);
    await cluster.destroy();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
