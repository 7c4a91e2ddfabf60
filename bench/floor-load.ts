/**
 * Load generator for bench/floor.bench.ts, run as a CHILD process so its CPU is not counted as
 * the server's. Options: one IPC message (too large for argv with many tenants' splits).
 * - `cold: false`: autocannon (POST `body` to `url`) for `duration` s with `connections`;
 * - `cold: 'write' | 'recount'`: `connections` loops that each bump the tenant's receipt write
 *   version first (BUMP_SQL) and then POST, timing the POST only;
 * - `writes`: autocannon POSTing a new receipt per request (`url` is the base URL) with a fresh
 *   Idempotency-Key, round-robin over the tenants given, each to a random split of its tenant.
 * Prints one JSON line: { rps, p50, p99, requests, non2xx } (rps counts 2xx responses only).
 */
import autocannon from 'autocannon';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';

export interface WriteTarget {
  headers: Record<string, string>;
  splits: string[];
}

/** One POST /receipts body: small enough that a split never runs out of pending amount. */
export function receiptBody(split: string, n: number): string {
  return JSON.stringify({
    demandSplit: split,
    amount: 100,
    paymentMode: 'NEFT',
    transactionRef: `BENCH${n}`,
    receivedDate: '2025-11-20',
  });
}

interface LoadOptions {
  url: string;
  headers: Record<string, string>;
  body: string;
  connections: number;
  duration: number;
  cold: false | 'write' | 'recount';
  ownerUrl: string;
  tenantId: string;
  writes?: WriteTarget[];
}

/** What one load run reports (one JSON line on stdout). */
export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
}

function cached(o: LoadOptions): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: o.url,
        method: 'POST',
        headers: o.headers,
        body: o.body,
        connections: o.connections,
        duration: o.duration,
        ...(o.writes ? { requests: [writeRequest(o.writes)] } : {}),
      },
      (error: Error | null, r) =>
        error
          ? reject(error)
          : resolve({
              rps: (o.writes ? r['2xx'] : r.requests.total) / o.duration,
              p50: r.latency.p50,
              p99: r.latency.p99,
              requests: r.requests.total,
              non2xx: r.non2xx,
            }),
    );
  });
}

function writeRequest(targets: WriteTarget[]): autocannon.Request {
  let n = 0;
  return {
    method: 'POST',
    path: '/receipts',
    setupRequest: (req) => {
      const t = targets[n % targets.length];
      n++;
      return {
        ...req,
        headers: { ...t.headers, 'idempotency-key': randomUUID() },
        body: receiptBody(t.splits[Math.floor(Math.random() * t.splits.length)], n),
      };
    },
  };
}

/**
 * `write`: what any receipt write does to the tenant's search version (a cached count is brought
 * up to date with the receipts inserted since); `recount`: also moves reset_version, so the next
 * count starts from scratch (a filter never counted before).
 */
export const BUMP_SQL = {
  write: `INSERT INTO receipt_search_versions AS v (tenant_id, version) VALUES ($1, 1)
          ON CONFLICT (tenant_id) DO UPDATE SET version = v.version + 1`,
  recount: `INSERT INTO receipt_search_versions AS v (tenant_id, version, reset_version) VALUES ($1, 1, 1)
            ON CONFLICT (tenant_id) DO UPDATE SET version = v.version + 1, reset_version = v.version + 1`,
} as const;

async function cold(o: LoadOptions): Promise<LoadResult> {
  const times: number[] = [];
  let non2xx = 0;
  const end = Date.now() + o.duration * 1000;
  const worker = async () => {
    const owner = new Client({ connectionString: o.ownerUrl });
    await owner.connect();
    try {
      while (Date.now() < end) {
        await owner.query(BUMP_SQL[o.cold === 'recount' ? 'recount' : 'write'], [o.tenantId]);
        const start = performance.now();
        const res = await fetch(o.url, { method: 'POST', headers: o.headers, body: o.body });
        await res.arrayBuffer();
        times.push(performance.now() - start);
        if (res.status < 200 || res.status > 299) non2xx++;
      }
    } finally {
      await owner.end();
    }
  };
  await Promise.all(Array.from({ length: o.connections }, worker));
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0;
  return {
    rps: times.length / o.duration,
    p50: at(0.5),
    p99: at(0.99),
    requests: times.length,
    non2xx,
  };
}

async function run(o: LoadOptions): Promise<void> {
  const result = await (o.cold === false ? cached(o) : cold(o));
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.disconnect?.();
}

if (require.main === module) {
  process.once('message', (o: LoadOptions) => {
    run(o).catch((error: unknown) => {
      process.stderr.write(
        `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
      process.exit(1);
    });
  });
}
