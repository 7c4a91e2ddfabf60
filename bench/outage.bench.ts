/**
 * Database outage benchmark: 4 clients record receipts against a service (its built dist/, so
 * the same script measures any checkout) on a pg_ctl cluster, through a 10 s outage (stop,
 * 10 s, start) and a fast restart. Prints responses by status and phase, whether every 503 had
 * Retry-After, the service's warn/error log lines, and whether every acknowledged receipt is
 * stored with no duplicate or gap in the numbers.
 *
 *   node dist/bench/outage.bench.js [serviceDir]   (default: this checkout)
 */
import { randomUUID } from 'node:crypto';
import { ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sign } from 'jsonwebtoken';
import { Client } from 'pg';
import { SCOPES } from '@/http/auth/auth.decorators';
import { freePort } from './bench-support';
import { PgCluster, prepareServiceOnCluster } from './pg-cluster';

const SECRET = 'bench-secret-that-is-long-enough-for-hs256-0123456789';
const CLIENTS = 4;
const OUTAGE_MS = 10_000;

async function main(): Promise<void> {
  const serviceDir = resolve(process.argv[2] ?? resolve(__dirname, '..', '..'));
  const cluster = await PgCluster.create(await freePort());
  let service: ChildProcess | undefined;
  try {
    const port = await freePort();
    const tenantKey = 'outage-bench';
    const env = await prepareServiceOnCluster(cluster, serviceDir, {
      port,
      secret: SECRET,
      tenantKey,
      logLevel: 'info',
    });
    service = spawn('node', [resolve(serviceDir, 'dist/src/main.js')], {
      env,
      cwd: serviceDir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const logLevels: Record<string, number> = {};
    let logBytes = 0;
    const errorSamples: string[] = [];
    let buffered = '';
    service.stdout!.on('data', (chunk: Buffer) => {
      logBytes += chunk.length;
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        const level = /"level":(\d+)/.exec(line)?.[1];
        const name = level === '50' || level === '60' ? 'error' : level === '40' ? 'warn' : 'other';
        logLevels[name] = (logLevels[name] ?? 0) + 1;
        if (name === 'error' && errorSamples.length < 3) errorSamples.push(line.slice(0, 600));
      }
    });
    service.stderr!.on('data', (chunk: Buffer) => (logBytes += chunk.length));
    const base = `http://127.0.0.1:${port}`;
    for (let i = 0; ; i++) {
      const ok = await fetch(`${base}/health/ready`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (i > 300) throw new Error('service did not become ready');
      await sleep(100);
    }
    const headers = {
      'content-type': 'application/json',
      'x-tenant-id': tenantKey,
      authorization: `Bearer ${sign({ sub: 'bench', tenant: tenantKey, scope: SCOPES.join(' ') }, SECRET, { expiresIn: '2h' })}`,
    };
    const postJson = async (path: string, body: unknown) => {
      const res = await fetch(base + path, { method: 'POST', headers, body: JSON.stringify(body) });
      return { res, body: (await res.json()) as Record<string, unknown> };
    };
    const booking = await postJson('/bookings', {
      unit: randomUUID(),
      buyerName: 'Bench',
      buyerId: randomUUID(),
      bookingDate: '2026-11-22',
    });
    const demand = await postJson('/demands', {
      booking: booking.body.id,
      milestone: null,
      demandType: 'MANUAL',
      totalAmount: 1_000_000_000,
      dueDate: '2026-12-01',
      remarks: 'bench',
      splits: [
        {
          payerType: 'BUYER',
          payerId: '00000000-0000-4000-8000-000000000001',
          amount: 1_000_000_000,
        },
      ],
    });
    if (demand.res.status !== 201)
      throw new Error(`demand: ${demand.res.status} ${JSON.stringify(demand.body)}`);
    const split = (demand.body.splits as { id: string }[])[0].id;

    let phase = 'warm-up';
    const counts: Record<string, Record<string, number>> = {};
    let unavailableWithoutRetryAfter = 0;
    const acknowledged = new Map<string, string>();
    let running = true;
    const client = async () => {
      while (running) {
        const current = phase;
        let status: string;
        try {
          const res = await fetch(`${base}/receipts`, {
            method: 'POST',
            headers,
            body: JSON.stringify({
              demandSplit: split,
              amount: 1,
              paymentMode: 'NEFT',
              transactionRef: 'UTR1',
              receivedDate: '2026-11-22',
            }),
          });
          status = String(res.status);
          const body = (await res.json()) as { id?: string; receiptNumber?: string };
          if (res.status === 201 && body.id) acknowledged.set(body.id, body.receiptNumber ?? '');
          if (res.status === 503 && !res.headers.get('retry-after')) unavailableWithoutRetryAfter++;
          if (res.status >= 500) await sleep(50); // a client backing off a little
        } catch {
          status = 'network error';
        }
        counts[current] ??= {};
        counts[current][status] = (counts[current][status] ?? 0) + 1;
      }
    };
    const clients = Array.from({ length: CLIENTS }, client);
    await sleep(2000);
    phase = 'outage 10 s';
    await cluster.stop();
    await sleep(OUTAGE_MS);
    await cluster.start();
    phase = 'after start';
    await sleep(3000);
    phase = 'fast restart';
    await cluster.restart();
    await sleep(3000);
    running = false;
    await Promise.all(clients);

    const owner = new Client({ connectionString: cluster.url('finance') });
    await owner.connect();
    const { rows } = await owner.query<{ id: string; receipt_number: string }>(
      'SELECT id, receipt_number FROM receipts WHERE demand_split_id = $1',
      [split],
    );
    await owner.end();
    const stored = new Map(rows.map((r) => [r.id, r.receipt_number]));
    const missing = [...acknowledged].filter(([id, n]) => stored.get(id) !== n).length;
    const sequence = rows
      .map((r) => Number(/(\d+)$/.exec(r.receipt_number)?.[1]))
      .sort((a, b) => a - b);
    const duplicates = sequence.length - new Set(sequence).size;
    const gaps = sequence.filter((n, i) => i > 0 && n - sequence[i - 1] > 1).length;

    console.log(`service: ${serviceDir}`);
    console.log('responses by phase and status:');
    for (const [name, byStatus] of Object.entries(counts))
      console.log(`  ${name.padEnd(14)} ${JSON.stringify(byStatus)}`);
    console.log(`503 without Retry-After: ${unavailableWithoutRetryAfter}`);
    console.log(
      `log lines: error ${logLevels.error ?? 0}, warn ${logLevels.warn ?? 0} (${(logBytes / 1e6).toFixed(1)} MB of log)`,
    );
    console.log(
      `acknowledged receipts: ${acknowledged.size}, stored: ${rows.length}, acknowledged but missing: ${missing}`,
    );
    for (const sample of errorSamples) console.log(`  error line: ${sample}`);
    console.log(`receipt numbers: duplicates ${duplicates}, gaps ${gaps}`);
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
