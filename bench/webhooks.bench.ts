/**
 * What the webhook outbox costs the write path. One tenant, POST /receipts from N concurrent
 * closed-loop clients (default 32) through real HTTP on a durable (fsync on) PostgreSQL, with
 * webhook delivery enabled, in alternating rounds within ONE run:
 *  - "none":  no webhook subscription;
 *  - "sub":   one subscription to every event (`*`) pointing at a local receiver (a bare
 *             node:http server answering 200 at once), created before and disabled after.
 * Prints receipts/s (2xx per second) of each round, the medians and the ratio sub/none; and
 * for the "sub" rounds the delivery lag (receiver arrival − the client's receipt of the 201, so
 * it slightly understates commit → receiver), p50/p99/max, and the backlog drain time (end of
 * the round → last delivery). Checks every receipt recorded in a "sub" round was delivered
 * exactly once (duplicates counted by the Webhook-Id header) and compares with the service's
 * own delivery log; exits non-zero if not.
 *
 *   npm run bench:webhooks -- --duration 10 --rounds 3
 *     [--connections 32] [--poll-ms 100] [--warmup 2] [--json figures.json]
 */
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { Client } from 'pg';
import { fmt, runBench, startBenchEnvironment } from './bench-support';

const SPLITS_PER_DEMAND = 10;
const DEMANDS = 100;
const DELIVERY_TIMEOUT_MS = 60_000;

/** Wall-clock milliseconds with sub-millisecond resolution (one clock for client and receiver). */
const now = (): number => performance.timeOrigin + performance.now();

// ---------------------------------------------------------------------------------------------
// Receiver

interface Delivery {
  webhookId: string;
  type: string;
  receiptId: string | null;
  arrivedAt: number;
}

interface Receiver {
  url: string;
  /** Every delivery in arrival order. */
  deliveries: Delivery[];
  /** First arrival time per receipt id (`data.id` of receipt.* events). */
  firstArrival: Map<string, number>;
  /** How many times each Webhook-Id arrived. */
  idCounts: Map<string, number>;
  close(): Promise<void>;
}

function parseDelivery(text: string): { type: string; receiptId: string | null } {
  const body = JSON.parse(text) as unknown;
  if (typeof body !== 'object' || body === null)
    return { type: '(not an object)', receiptId: null };
  const { type, data } = body as { type?: unknown; data?: unknown };
  const id = typeof data === 'object' && data !== null ? (data as { id?: unknown }).id : undefined;
  return {
    type: typeof type === 'string' ? type : '(no type)',
    receiptId: typeof id === 'string' ? id : null,
  };
}

async function startReceiver(): Promise<Receiver> {
  const deliveries: Delivery[] = [];
  const firstArrival = new Map<string, number>();
  const idCounts = new Map<string, number>();
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const arrivedAt = now();
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      res.writeHead(200, { 'content-length': '0' }).end();
      if (req.method !== 'POST') return;
      const header = req.headers['webhook-id'];
      const webhookId = typeof header === 'string' ? header : '(none)';
      let parsed: { type: string; receiptId: string | null };
      try {
        parsed = parseDelivery(Buffer.concat(chunks).toString('utf8'));
      } catch {
        parsed = { type: '(invalid JSON)', receiptId: null };
      }
      deliveries.push({ webhookId, arrivedAt, ...parsed });
      idCounts.set(webhookId, (idCounts.get(webhookId) ?? 0) + 1);
      if (parsed.receiptId !== null && !firstArrival.has(parsed.receiptId)) {
        firstArrival.set(parsed.receiptId, arrivedAt);
      }
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    deliveries,
    firstArrival,
    idCounts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// ---------------------------------------------------------------------------------------------
// Load

interface LoadResult {
  seconds: number;
  ok: number;
  non2xx: number;
  errors: number;
  /** Request latencies of the 2xx answers, ms. */
  latencies: number[];
  /** Receipt id → when its 201 arrived at the client. */
  answeredAt: Map<string, number>;
  endedAt: number;
}

/** `connections` closed loops of POST /receipts for `durationMs`; waits for the last answers. */
async function runLoad(
  baseUrl: string,
  headers: Record<string, string>,
  splits: string[],
  connections: number,
  durationMs: number,
  counter: { next: number },
): Promise<LoadResult> {
  const result: LoadResult = {
    seconds: 0,
    ok: 0,
    non2xx: 0,
    errors: 0,
    latencies: [],
    answeredAt: new Map(),
    endedAt: 0,
  };
  const started = now();
  const deadline = started + durationMs;
  const loop = async (): Promise<void> => {
    while (now() < deadline) {
      const n = counter.next++;
      const sent = now();
      try {
        const res = await fetch(`${baseUrl}/receipts`, {
          method: 'POST',
          headers,
          body: JSON.stringify({
            demandSplit: splits[n % splits.length],
            amount: 1250.5,
            paymentMode: 'UPI',
            transactionRef: `UPI${n}`,
            receivedDate: '2026-11-21',
          }),
        });
        const answered = now();
        const text = await res.text();
        if (res.status >= 200 && res.status < 300) {
          result.ok++;
          result.latencies.push(answered - sent);
          const { id } = JSON.parse(text) as { id?: unknown };
          if (typeof id === 'string') result.answeredAt.set(id, answered);
        } else {
          result.non2xx++;
        }
      } catch {
        result.errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: connections }, loop));
  result.endedAt = now();
  result.seconds = (result.endedAt - started) / 1000;
  return result;
}

// ---------------------------------------------------------------------------------------------
// Figures

/** Nearest-rank percentile of an ascending array; NaN when empty. */
function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

interface DeliveryFigures {
  subscriptionId: string;
  recorded: number;
  receivedDistinct: number;
  missing: number;
  duplicates: number;
  unexpected: number;
  serviceDelivered: number;
  serviceAttempts: number;
  lagP50Ms: number;
  lagP99Ms: number;
  lagMaxMs: number;
  drainMs: number;
}

interface RoundFigures {
  round: number;
  subscription: boolean;
  seconds: number;
  ok: number;
  non2xx: number;
  errors: number;
  receiptsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  storedInDatabase: number;
  /** Deliveries that arrived during a round without subscription (should be 0). */
  strayDeliveries: number;
  delivery: DeliveryFigures | null;
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string', default: '10' },
      rounds: { type: 'string', default: '3' },
      connections: { type: 'string', default: '32' },
      'poll-ms': { type: 'string', default: '100' },
      warmup: { type: 'string', default: '2' },
      json: { type: 'string' },
    },
  });
  const durationMs = Number(values.duration) * 1000;
  const rounds = Number(values.rounds);
  const connections = Number(values.connections);
  const pollMs = Number(values['poll-ms']);
  const warmupMs = Number(values.warmup) * 1000;
  const numeric = { duration: durationMs, rounds, connections, 'poll-ms': pollMs };
  for (const [name, value] of Object.entries(numeric)) {
    if (!Number.isFinite(value) || value <= 0) throw new Error(`invalid --${name}: ${value}`);
  }

  const receiver = await startReceiver();
  const env = await startBenchEnvironment({
    WEBHOOK_DELIVERY_ENABLED: 'true',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    WEBHOOK_POLL_INTERVAL_MS: String(pollMs),
  });
  let failed = false;
  try {
    const tenant = await env.createTenant('bench');
    const headers = env.headers(tenant.key);
    const call = async (method: string, path: string, body?: unknown): Promise<unknown> => {
      const res = await fetch(env.baseUrl + path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
      return text === '' ? null : (JSON.parse(text) as unknown);
    };
    const booking = (await call('POST', '/bookings', {
      unit: randomUUID(),
      buyerName: 'Bench Buyer',
      bookingDate: '2026-11-01',
    })) as { id: string };
    const splits: string[] = [];
    for (let d = 0; d < DEMANDS; d++) {
      const demand = (await call('POST', '/demands', {
        booking: booking.id,
        milestone: null,
        demandType: 'MANUAL',
        totalAmount: 10_000_000 * SPLITS_PER_DEMAND,
        dueDate: '2026-12-31',
        demandDate: '2026-11-01',
        remarks: 'bench',
        splits: Array.from({ length: SPLITS_PER_DEMAND }, () => ({
          payerType: 'BUYER',
          payerId: randomUUID(),
          amount: 10_000_000,
        })),
      })) as { splits?: { id: string }[] };
      splits.push(...(demand.splits ?? []).map((s) => s.id));
    }
    const countReceipts = async (owner: Client): Promise<number> =>
      (
        await owner.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM receipts WHERE tenant_id = $1',
          [tenant.id],
        )
      ).rows[0].n;

    const counter = { next: 0 };
    if (warmupMs > 0) {
      await runLoad(env.baseUrl, headers, splits, connections, warmupMs, counter);
    }

    const figures: RoundFigures[] = [];
    const allLags: number[] = [];
    for (let r = 1; r <= rounds; r++) {
      for (const subscription of [false, true]) {
        let subscriptionId: string | null = null;
        if (subscription) {
          const created = (await call('POST', '/webhooks', {
            url: receiver.url,
            events: ['*'],
            description: `bench round ${r}`,
          })) as { id: string };
          subscriptionId = created.id;
        }
        const deliveriesBefore = receiver.deliveries.length;
        const storedBefore = await countReceipts(env.owner);
        const load = await runLoad(env.baseUrl, headers, splits, connections, durationMs, counter);
        const storedInDatabase = (await countReceipts(env.owner)) - storedBefore;
        const sortedLatency = [...load.latencies].sort((a, b) => a - b);
        const round: RoundFigures = {
          round: r,
          subscription,
          seconds: load.seconds,
          ok: load.ok,
          non2xx: load.non2xx,
          errors: load.errors,
          receiptsPerSecond: load.ok / load.seconds,
          latencyP50Ms: percentile(sortedLatency, 50),
          latencyP99Ms: percentile(sortedLatency, 99),
          storedInDatabase,
          strayDeliveries: 0,
          delivery: null,
        };
        if (storedInDatabase !== load.ok) failed = true;

        if (subscriptionId === null) {
          round.strayDeliveries = receiver.deliveries.length - deliveriesBefore;
          if (round.strayDeliveries > 0) failed = true;
        } else {
          // Wait until every receipt answered in this round has reached the receiver.
          const ids = [...load.answeredAt.keys()];
          const waitUntil = now() + DELIVERY_TIMEOUT_MS;
          while (ids.some((id) => !receiver.firstArrival.has(id)) && now() < waitUntil) {
            await sleep(20);
          }
          await call('PATCH', `/webhooks/${subscriptionId}`, { enabled: false });
          const lags: number[] = [];
          let lastArrival = load.endedAt;
          let missing = 0;
          for (const [id, answeredAt] of load.answeredAt) {
            const arrivedAt = receiver.firstArrival.get(id);
            if (arrivedAt === undefined) {
              missing++;
              continue;
            }
            lags.push(arrivedAt - answeredAt);
            lastArrival = Math.max(lastArrival, arrivedAt);
          }
          lags.sort((a, b) => a - b);
          allLags.push(...lags);
          const roundDeliveries = receiver.deliveries.slice(deliveriesBefore);
          const answered = new Set(ids);
          const service = (
            await env.owner.query<{ delivered: number; attempts: number }>(
              `SELECT count(DISTINCT event_id) FILTER (WHERE outcome = 'SUCCEEDED')::int AS delivered,
                      count(*)::int AS attempts
                 FROM webhook_deliveries WHERE tenant_id = $1 AND subscription_id = $2`,
              [tenant.id, subscriptionId],
            )
          ).rows[0];
          round.delivery = {
            subscriptionId,
            recorded: ids.length,
            receivedDistinct: ids.length - missing,
            missing,
            duplicates: roundDeliveries.filter((d) => (receiver.idCounts.get(d.webhookId) ?? 0) > 1)
              .length,
            unexpected: roundDeliveries.filter(
              (d) => d.receiptId === null || !answered.has(d.receiptId),
            ).length,
            serviceDelivered: service.delivered,
            serviceAttempts: service.attempts,
            lagP50Ms: percentile(lags, 50),
            lagP99Ms: percentile(lags, 99),
            lagMaxMs: lags.length > 0 ? lags[lags.length - 1] : Number.NaN,
            drainMs: lastArrival - load.endedAt,
          };
          if (missing > 0 || round.delivery.duplicates > 0 || round.delivery.unexpected > 0) {
            failed = true;
          }
          if (service.delivered !== ids.length) failed = true;
        }
        figures.push(round);
      }
    }

    // Late duplicates (a redelivery after the round) would show up here.
    await sleep(Math.max(1000, 3 * pollMs));
    const duplicateIds = [...receiver.idCounts.values()].filter((n) => n > 1).length;
    if (duplicateIds > 0) failed = true;

    const none = figures.filter((f) => !f.subscription);
    const withSub = figures.filter((f) => f.subscription);
    const medianNone = median(none.map((f) => f.receiptsPerSecond));
    const medianSub = median(withSub.map((f) => f.receiptsPerSecond));
    allLags.sort((a, b) => a - b);
    const summary = {
      receiptsPerSecondWithout: medianNone,
      receiptsPerSecondWith: medianSub,
      ratioWithOverWithout: medianSub / medianNone,
      lagP50Ms: percentile(allLags, 50),
      lagP99Ms: percentile(allLags, 99),
      lagMaxMs: allLags.length > 0 ? allLags[allLags.length - 1] : Number.NaN,
      medianDrainMs: median(withSub.map((f) => f.delivery?.drainMs ?? Number.NaN)),
      duplicateWebhookIds: duplicateIds,
      ok: !failed,
    };

    const ms = (n: number) => (Number.isNaN(n) ? '        -' : fmt(n, 0));
    const rows = figures.map((f) => {
      const d = f.delivery;
      const head = `${String(f.round).padStart(5)}  ${(f.subscription ? 'sub' : 'none').padEnd(4)} ${fmt(f.receiptsPerSecond)} ${fmt(f.latencyP50Ms)} ${fmt(f.latencyP99Ms)} ${String(f.ok).padStart(7)} ${String(f.non2xx + f.errors).padStart(6)} ${String(f.storedInDatabase).padStart(7)}`;
      if (!d) return `${head}   (stray deliveries: ${f.strayDeliveries})`;
      const extra = d.unexpected > 0 ? `   (unexpected deliveries: ${d.unexpected})` : '';
      return `${head} ${String(d.serviceDelivered).padStart(9)} ${String(d.receivedDistinct).padStart(8)} ${String(d.missing).padStart(7)} ${String(d.duplicates).padStart(5)} ${ms(d.lagP50Ms)} ${ms(d.lagP99Ms)} ${ms(d.lagMaxMs)} ${ms(d.drainMs)}${extra}`;
    });
    process.stdout.write(
      [
        '',
        `POST /receipts, one tenant, ${splits.length} splits, ${connections} closed-loop clients, ${durationMs / 1000} s rounds, webhook poll ${pollMs} ms, durable PostgreSQL (fsync on)`,
        `"sub" = one subscription to "*" at a local receiver answering 200 at once; "none" = no subscription`,
        '',
        'round  subs  receipts/s    p50 ms    p99 ms      ok  errors  stored  delivered  received missing  dups  lag p50   lag p99   lag max  drain ms',
        ...rows,
        '',
        `receipts/s (median of ${rounds}): without ${fmt(medianNone)}   with ${fmt(medianSub)}   ratio with/without ${summary.ratioWithOverWithout.toFixed(3)}`,
        `delivery lag, all "sub" rounds (${allLags.length} receipts): p50 ${ms(summary.lagP50Ms)} ms  p99 ${ms(summary.lagP99Ms)} ms  max ${ms(summary.lagMaxMs)} ms; backlog drain (median) ${ms(summary.medianDrainMs)} ms`,
        '  lag = receiver arrival − arrival of the 201 at the client; the commit precedes the 201, so this slightly understates commit → receiver.',
        '  delivered = distinct events the service logged as SUCCEEDED; received = distinct receipts at the receiver; dups by Webhook-Id.',
        `Webhook-Ids delivered more than once (whole run, after a ${Math.max(1000, 3 * pollMs)} ms grace): ${duplicateIds}`,
        `check: ${failed ? 'FAILED (missing, duplicate, stray or unlogged deliveries, or stored ≠ answered)' : 'ok — every receipt of a "sub" round delivered exactly once'}`,
        '',
      ].join('\n'),
    );
    if (values.json) {
      writeFileSync(
        values.json,
        `${JSON.stringify(
          {
            config: { durationMs, rounds, connections, pollMs, splits: splits.length },
            rounds: figures,
            summary,
          },
          null,
          2,
        )}\n`,
      );
    }
    if (failed) process.exitCode = 1;
  } finally {
    await env.stop();
    await receiver.close();
  }
}

runBench(main);
