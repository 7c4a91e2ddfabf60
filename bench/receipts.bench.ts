/**
 * How many receipts per second one tenant can record, serially and with 32 concurrent clients,
 * through real HTTP on a durable (fsync on) PostgreSQL; then checks the numbers issued are
 * distinct and consecutive with no gap. Run: npm run bench:receipts [-- --duration 15]
 */
import autocannon from 'autocannon';
import { parseArgs } from 'node:util';
import { randomUUID } from 'node:crypto';
import { fmt, runAutocannon, runBench, startBenchEnvironment } from './bench-support';

const SPLITS_PER_DEMAND = 10;
const DEMANDS = 100;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string', default: '15' },
      connections: { type: 'string', default: '32' },
    },
  });
  const duration = Number(values.duration);
  const connections = Number(values.connections);
  const env = await startBenchEnvironment();
  try {
    const tenant = await env.createTenant('bench');
    const headers = env.headers(tenant.key);
    const post = async (path: string, body: unknown) => {
      const res = await fetch(env.baseUrl + path, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
      });
      if (res.status !== 201) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return (await res.json()) as { id: string; splits?: { id: string }[] };
    };
    const booking = await post('/bookings', {
      unit: randomUUID(),
      buyerName: 'Bench Buyer',
      bookingDate: '2026-11-01',
    });
    const splits: string[] = [];
    for (let d = 0; d < DEMANDS; d++) {
      const demand = await post('/demands', {
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
      });
      splits.push(...(demand.splits ?? []).map((s) => s.id));
    }

    let next = 0;
    const receiptRequest: autocannon.Request = {
      method: 'POST',
      path: '/receipts',
      headers,
      setupRequest: (req) => ({
        ...req,
        body: JSON.stringify({
          demandSplit: splits[next++ % splits.length],
          amount: 1250.5,
          paymentMode: 'UPI',
          transactionRef: `UPI${next}`,
          receivedDate: '2026-11-21',
        }),
      }),
    };
    const serial = await runAutocannon({
      url: env.baseUrl,
      connections: 1,
      duration: Math.max(5, duration / 3),
      requests: [receiptRequest],
    });
    const concurrent = await runAutocannon({
      url: env.baseUrl,
      connections,
      duration,
      requests: [receiptRequest],
    });

    const rows = (
      await env.owner.query(`SELECT receipt_number FROM receipts WHERE tenant_id = $1`, [tenant.id])
    ).rows as { receipt_number: string }[];
    const seqs = rows.map((r) => Number(r.receipt_number.split('/').pop())).sort((a, b) => a - b);
    const distinct = new Set(rows.map((r) => r.receipt_number)).size;
    const gapFree = seqs.every((s, i) => s === i + 1);
    const ok2xx = serial['2xx'] + concurrent['2xx'];
    const non2xx = serial.non2xx + concurrent.non2xx;

    const line = (name: string, r: typeof serial) =>
      `${name.padEnd(22)} ${fmt(r.requests.average)} req/s  p50 ${fmt(r.latency.p50)} ms  p99 ${fmt(r.latency.p99)} ms  ok ${r['2xx']}  errors ${r.non2xx + r.errors}`;
    process.stdout.write(
      [
        '',
        `POST /receipts, one tenant, ${splits.length} splits, durable PostgreSQL (fsync on), 2-core machine`,
        line('1 client (baseline)', serial),
        line(`${connections} clients`, concurrent),
        `ratio ${connections} clients / 1 client: ${(concurrent.requests.average / serial.requests.average).toFixed(2)}x`,
        `receipts stored: ${rows.length} (2xx answered: ${ok2xx}, non-2xx: ${non2xx}, committed while the run stopped: ${rows.length - ok2xx})`,
        `numbers distinct: ${distinct === rows.length ? 'yes' : 'NO'}; consecutive from 1 with no gap: ${gapFree ? 'yes' : 'NO'} (last ${seqs[seqs.length - 1]})`,
        '',
      ].join('\n'),
    );
    // autocannon stops with requests in flight: those commit but are not counted as answered.
    const inFlightAtStop = rows.length - ok2xx;
    if (
      distinct !== rows.length ||
      !gapFree ||
      inFlightAtStop < 0 ||
      inFlightAtStop > connections + 1
    ) {
      process.exitCode = 1;
    }
  } finally {
    await env.stop();
  }
}

runBench(main);
