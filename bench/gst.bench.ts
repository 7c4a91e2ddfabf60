/**
 * npm run bench:gst [-- --runs 300 --pdf-runs 60]
 *
 * What GST costs the hot paths (docs/gst.md): POST /demands on a tenant registered for GST (the
 * tax computed, an invoice numbered from its own series and frozen) against the same request on
 * an untaxed tenant, alternating one of each so both see the same machine; then the tax
 * invoice's PDF against its JSON (GET /demands/{id}/invoice). Prints p50 / p90 and the ratios
 * (targets: taxed / untaxed demand throughput >= 0.9x, invoice PDF p50 <= 4x its JSON p50).
 */
import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { runBench, startBenchEnvironment } from './bench-support';

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

function send(
  baseUrl: string,
  headers: Record<string, string>,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Buffer; ms: number }> {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const req = request(`${baseUrl}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks),
          ms: Number(process.hrtime.bigint() - started) / 1e6,
        }),
      );
    });
    req.on('error', reject);
    if (body !== undefined) req.write(JSON.stringify(body));
    req.end();
  });
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};

runBench(async () => {
  const runs = option('runs', 300);
  const pdfRuns = option('pdf-runs', 60);
  const env = await startBenchEnvironment();
  try {
    await env.createTenant('plain', 'Plain Realty');
    await env.createTenant('gst', 'Taxed Realty');
    const plain = env.headers('plain');
    const gst = env.headers('gst');
    const put = await send(env.baseUrl, gst, 'PUT', '/tenant/gst', {
      enabled: true,
      gstin: '27AAPFU0939F1ZV',
      legalName: 'Taxed Realty Private Limited',
      address: 'Powai, Mumbai 400076',
    });
    if (put.status !== 200)
      throw new Error(`PUT /tenant/gst: ${put.status} ${put.body.toString()}`);
    const booking = async (headers: Record<string, string>) => {
      const res = await send(env.baseUrl, headers, 'POST', '/bookings', {
        unit: randomUUID(),
        buyerName: 'Ananya Iyer',
        bookingDate: '2025-04-01',
        buyerAddress: 'Andheri East, Mumbai',
      });
      if (res.status !== 201) throw new Error(`POST /bookings: ${res.status}`);
      return (JSON.parse(res.body.toString()) as { id: string }).id;
    };
    const bookings = { plain: await booking(plain), gst: await booking(gst) };
    const demand = (headers: Record<string, string>, bookingId: string) =>
      send(env.baseUrl, headers, 'POST', '/demands', {
        booking: bookingId,
        milestone: null,
        demandType: 'MANUAL',
        totalAmount: 1000000,
        dueDate: '2026-12-15',
        demandDate: '2025-06-01',
        remarks: 'Slab',
        splits: [
          { payerType: 'BUYER', payerId: randomUUID(), amount: 600000 },
          { payerType: 'BANK', payerId: randomUUID(), amount: 400000 },
        ],
      });
    // Warm-up, then alternate: one untaxed, one taxed.
    for (let i = 0; i < 20; i++) {
      await demand(plain, bookings.plain);
      await demand(gst, bookings.gst);
    }
    const times = { plain: [] as number[], gst: [] as number[] };
    let taxedId = '';
    for (let i = 0; i < runs; i++) {
      const a = await demand(plain, bookings.plain);
      const b = await demand(gst, bookings.gst);
      if (a.status !== 201 || b.status !== 201)
        throw new Error(`POST /demands: ${a.status} ${b.status}`);
      times.plain.push(a.ms);
      times.gst.push(b.ms);
      taxedId = (JSON.parse(b.body.toString()) as { id: string }).id;
    }
    const p50 = { plain: quantile(times.plain, 0.5), gst: quantile(times.gst, 0.5) };
    process.stdout.write(
      [
        `POST /demands, ${runs} each, alternating (ms):`,
        `  untaxed p50 ${p50.plain.toFixed(2)}  p90 ${quantile(times.plain, 0.9).toFixed(2)}`,
        `  taxed   p50 ${p50.gst.toFixed(2)}  p90 ${quantile(times.gst, 0.9).toFixed(2)}`,
        `  taxed / untaxed throughput (p50 untaxed / p50 taxed): ${(p50.plain / p50.gst).toFixed(2)}x (target >= 0.9x)`,
        '',
      ].join('\n'),
    );

    const invoice = (format: string) =>
      send(env.baseUrl, gst, 'GET', `/demands/${taxedId}/invoice?format=${format}`);
    for (let i = 0; i < 5; i++) {
      await invoice('json');
      await invoice('pdf');
    }
    const json: number[] = [];
    const pdf: number[] = [];
    for (let i = 0; i < pdfRuns; i++) {
      json.push((await invoice('json')).ms);
      const res = await invoice('pdf');
      if (res.status !== 200) throw new Error(`invoice pdf: ${res.status}`);
      pdf.push(res.ms);
    }
    process.stdout.write(
      [
        `GET /demands/{id}/invoice, ${pdfRuns} each, alternating (ms):`,
        `  JSON p50 ${quantile(json, 0.5).toFixed(2)}   PDF p50 ${quantile(pdf, 0.5).toFixed(2)}`,
        `  PDF / JSON: ${(quantile(pdf, 0.5) / quantile(json, 0.5)).toFixed(2)}x (target <= 4x)`,
        '',
      ].join('\n'),
    );
  } finally {
    await env.stop();
  }
});
