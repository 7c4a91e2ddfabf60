/**
 * Idempotency-key storage before and after a purge: records N receipts with an Idempotency-Key
 * each (real HTTP), prints rows and bytes of `idempotency_keys`, ages every key past
 * IDEMPOTENCY_TTL_HOURS (as the owner), runs the purge the scheduled job runs, then prints rows
 * and bytes again (after VACUUM, which autovacuum would do). Run:
 *   npm run build && node dist/bench/idempotency-storage.bench.js [--requests 5000]
 */
import { parseArgs } from 'node:util';
import { randomUUID } from 'node:crypto';
import { HousekeepingService } from '@/housekeeping/housekeeping.service';
import { runBench, startBenchEnvironment } from './bench-support';

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { requests: { type: 'string', default: '5000' } } });
  const requests = Number(values.requests);
  const env = await startBenchEnvironment();
  try {
    const tenant = await env.createTenant('bench');
    const headers = env.headers(tenant.key);
    const post = async (path: string, body: unknown, key?: string) => {
      const res = await fetch(env.baseUrl + path, {
        method: 'POST',
        headers: key ? { ...headers, 'idempotency-key': key } : headers,
        body: JSON.stringify(body),
      });
      if (res.status !== 201) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return (await res.json()) as { id: string; splits?: { id: string }[] };
    };
    const booking = await post('/bookings', {
      unit: randomUUID(),
      buyerName: 'Bench',
      buyerId: randomUUID(),
      bookingDate: '2026-11-22',
    });
    const demand = await post('/demands', {
      booking: booking.id,
      milestone: null,
      demandType: 'MANUAL',
      totalAmount: 1_000_000_000,
      dueDate: '2026-12-01',
      remarks: 'bench',
      splits: [{ payerType: 'BUYER', payerId: randomUUID(), amount: 1_000_000_000 }],
    });
    const split = demand.splits![0].id;
    let next = 0;
    const worker = async () => {
      while (next < requests) {
        next += 1;
        await post(
          '/receipts',
          {
            demandSplit: split,
            amount: 1,
            paymentMode: 'UPI',
            transactionRef: `UTR${next}`,
            receivedDate: '2026-11-22',
          },
          randomUUID(),
        );
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));

    const measure = async (label: string) => {
      await env.owner.query('VACUUM idempotency_keys');
      const { rows } = await env.owner.query<{ n: number; total: string; heap: string }>(
        `SELECT count(*)::int AS n, pg_total_relation_size('idempotency_keys') AS total,
                pg_relation_size('idempotency_keys') AS heap FROM idempotency_keys`,
      );
      const r = rows[0];
      const perRow = r.n > 0 ? ` (${(Number(r.total) / r.n).toFixed(0)} B/row incl. indexes)` : '';
      process.stdout.write(
        `${label.padEnd(34)} rows ${String(r.n).padStart(7)}  total ${(Number(r.total) / 1024).toFixed(0).padStart(6)} KiB  heap ${(Number(r.heap) / 1024).toFixed(0).padStart(6)} KiB${perRow}\n`,
      );
    };
    await measure(`after ${requests} keyed POSTs`);
    await env.owner.query(`UPDATE idempotency_keys SET created_at = now() - interval '25 hours'`);
    const started = process.hrtime.bigint();
    const result = await env.app.get(HousekeepingService).purgeExpiredIdempotencyKeys();
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    process.stdout.write(
      `purge: ${result.removed} keys in ${result.batches} batches of <= 1000, ${ms.toFixed(0)} ms\n`,
    );
    await measure('after purge + VACUUM');
  } finally {
    await env.stop();
  }
}

runBench(main);
