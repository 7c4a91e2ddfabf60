/**
 * npm run bench:books [-- --receipts 1000000 --runs 7 --rounds 5]
 *
 * The returns and the books on the issue's data set (issue 41; 1M receipts over 50 tenants, 400k
 * on the hot one; docs/returns-and-books.md):
 *
 * - GSTR-1 of a month for the hot tenant (GET /gst/gstr1?period=YYYY-MM, JSON and XLSX). The
 *   loaded data is untaxed, so the hot tenant is first registered for GST (PUT /tenant/gst) and
 *   given a month of taxed documents through the API: bookings (one in ten with a buyer GSTIN),
 *   demands dated over the current month (each taxed and invoiced by the service), and a share
 *   of them cancelled (POST /demands/{id}/cancel: a credit note each). p50 of `--runs` requests
 *   per format, alternating. Target: <= 2 s.
 * - A year's vouchers of the hot tenant (GET /books/vouchers?from=&to=&format=csv|tally),
 *   downloaded by a client in another process that discards the bytes, against a bare
 *   `COPY (SELECT ...) TO STDOUT` of the same ledger lines read by pg-copy-streams into nothing,
 *   in the same read-only snapshot as the application login (row-level security on), alternating
 *   which goes first. Rows are ledger lines (one CSV row each; the Tally file holds the same
 *   vouchers). Target: service rows/s >= 0.5x the COPY's.
 * - The service's memory during each export. The service runs in a process of its own
 *   (floor-service.js, as bench:floor runs it, with `npm start`'s --max-old-space-size=256 and
 *   main.ts's heap growth), so its RSS is read from /proc/<pid>/status: idle is VmRSS after a
 *   second with nothing to do just before the request; peak is VmHWM, reset to the current RSS
 *   (/proc/<pid>/clear_refs 5) just before the request, beside VmRSS sampled every 20 ms.
 *   Target: peak within 50 MB of idle.
 *
 * A new data set is saved under bench:floor's name (savedDataSet) right after it is loaded,
 * before anything here changes it, so later runs and the other benches restore it.
 */
import { ChildProcess, fork, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { Client } from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { TenantContext } from '@/common/tenant-context';
import { TENANT_SETUP_SQL } from '@/http/tenancy/tenant-setup.sql';
import { Tenant } from '@/http/tenancy/tenant.entity';
import { formatLocalDate, localDateInZone } from '@/common/dates/local-date';
import { loadConfig } from '@/platform/config/app-config';
import { TenantProvisioningService } from '@/tenants/tenant-provisioning.service';
import { createApp } from '@/app.factory';
import { ClsService } from 'nestjs-cls';
import { BEGIN_BOOKS_SQL, COMMIT_SQL } from '@/books/books.sql';
import { DEFAULT_LEDGERS } from '@/books/vouchers';
import {
  BENCH_JWT_SECRET,
  benchHeaders,
  freePort,
  runBench,
  savedDataSet,
  startBenchDatabase,
} from './bench-support';
import { contextOf, p50 } from './owes.bench';
import { memoryMb, stopChild } from './processes';
import { benchTenants, spreadReceipts } from './receipt-data';

const HELP = `npm run bench:books [-- options]

  --receipts N     receipts in total                       (default 1000000)
  --tenants T      tenants they are spread over            (default 50)
  --hot-share F    share of N on the first ("hot") tenant  (default 0.4)
  --invoices I     taxed demands made for the GSTR-1 month (default 3000)
  --cancels C      of them cancelled (credit notes)        (default 300)
  --runs R         GSTR-1 requests per format              (default 7)
  --rounds K       voucher rounds, COPY + service a format (default 5)
  --from, --to     the vouchers' year                      (default 2025-04-01 .. 2026-03-31,
                   the financial year the loaded receipts fill)
  --cpu-prof DIR   the service's CPU profile (node --cpu-prof) written into DIR at the end
  --help           this text

The issue's data set is the default (400,000 receipts on the hot tenant). The loaded cluster is
bench:floor's saved one (BENCH_SAVED_DIR) when it exists, and is saved under that
name (before the GST documents are made) when it was generated here.
`;

const GSTIN = '27AAPFU0939F1ZV';
const BUYER_GSTIN = '29AAGCB7383J1Z4';
const DEMANDS_PER_BOOKING = 10;

/** GET `path`: status, body, milliseconds. */
function get(
  agent: Agent,
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: Buffer; ms: number }> {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'GET', headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks),
          ms: Number(process.hrtime.bigint() - started) / 1e6,
        }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

interface Download {
  bytes: number;
  newlines: number;
  firstByteMs: number;
  seconds: number;
}

/** GETs `url` from a child Node process that counts and discards the bytes. */
function download(url: string, headers: Record<string, string>): Promise<Download> {
  const script = `
const [url, headers] = JSON.parse(process.argv[1]);
const start = process.hrtime.bigint();
const ms = () => Number(process.hrtime.bigint() - start) / 1e6;
require('node:http').get(url, { headers }, (res) => {
  if (res.statusCode !== 200) { console.error('status ' + res.statusCode); process.exit(1); }
  let bytes = 0, newlines = 0, first = 0;
  res.on('data', (c) => {
    if (bytes === 0) first = ms();
    bytes += c.length;
    for (let i = c.indexOf(10); i !== -1; i = c.indexOf(10, i + 1)) newlines++;
  });
  res.on('end', () => process.stdout.write(JSON.stringify({ bytes, newlines, firstByteMs: first, seconds: ms() / 1000 })));
});`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', script, JSON.stringify([url, headers])], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(out) as Download)
        : reject(new Error(`download exited ${code}`)),
    );
  });
}

/** A Writable that counts and drops what it is given. */
function nothing(): Writable {
  return new Writable({
    write(_chunk: Buffer, _encoding, callback) {
      callback();
    },
  });
}

/**
 * The floor: one row per ledger line of the year's Sales (demands), Receipts and Journals
 * (reversed receipts), as the CSV lays them out (date, type, number, documentId, ledger, debit,
 * credit, narration, booking), from the same tables in the same order, with the default ledger
 * names. Only the event kinds the loaded year holds; the bench checks the row count against the
 * service's CSV.
 */
function copyLedgerLinesSql(
  lit: (value: string) => string,
  p: { tenantId: string; from: string; to: string },
): string {
  const [t, from, to] = [lit(p.tenantId), lit(p.from), lit(p.to)];
  const L = DEFAULT_LEDGERS;
  return `COPY (
WITH events AS (
  SELECT 'Sales'::text AS type, 'SALE'::text AS suffix, d.id, d.demand_date AS date, 0 AS rank,
         coalesce(d.invoice_number, d.demand_number) AS number, d.booking_id, d.charge_type,
         d.total_amount AS amount, (d.tax ->> 'cgst')::numeric AS cgst,
         (d.tax ->> 'sgst')::numeric AS sgst, NULL::text AS mode,
         'Demand ' || coalesce(d.invoice_number, d.demand_number)
           || coalesce(': ' || nullif(d.remarks, ''), '') AS narration
    FROM demands d
   WHERE d.tenant_id = ${t} AND d.demand_date BETWEEN ${from}::date AND ${to}::date
  UNION ALL
  SELECT 'Receipt', 'RECEIPT', r.id, r.received_date, 1, r.receipt_number, r.booking_id, NULL,
         r.amount, NULL, NULL, r.payment_mode,
         'Receipt ' || r.receipt_number || ', ' || r.payment_mode
           || coalesce(': ' || nullif(r.transaction_ref, ''), '')
    FROM receipts r
   WHERE r.tenant_id = ${t} AND r.received_date BETWEEN ${from}::date AND ${to}::date
  UNION ALL
  SELECT 'Journal', 'REVERSAL', r.id, greatest(r.status_changed_on, r.received_date), 2,
         r.receipt_number, r.booking_id, NULL, r.amount, NULL, NULL, r.payment_mode,
         'Receipt ' || r.receipt_number
           || CASE WHEN r.status = 'BOUNCED' THEN ' bounced' ELSE ' cancelled' END
           || coalesce(': ' || nullif(r.status_reason, ''), '')
    FROM receipts r
   WHERE r.tenant_id = ${t} AND r.status <> 'ACTIVE' AND r.status_changed_on IS NOT NULL
     AND greatest(r.status_changed_on, r.received_date) BETWEEN ${from}::date AND ${to}::date)
SELECT e.date, e.type, e.number, e.id || ':' || e.suffix AS document_id, l.ledger,
       CASE WHEN l.amount > 0 THEN l.amount END AS debit,
       CASE WHEN l.amount < 0 THEN -l.amount END AS credit, e.narration, e.booking_id
  FROM events e
  JOIN bookings b ON b.tenant_id = ${t} AND b.id = e.booking_id
 CROSS JOIN LATERAL (VALUES
   (0, b.buyer_name || ' (' || b.booking_number || ')',
    CASE e.suffix WHEN 'SALE' THEN e.amount + coalesce(e.cgst, 0) + coalesce(e.sgst, 0)
                  WHEN 'RECEIPT' THEN -e.amount ELSE e.amount END),
   (1, CASE WHEN e.suffix = 'SALE' THEN
              CASE e.charge_type WHEN 'OTHER_CHARGES' THEN ${lit(L.otherCharges)}
                                 WHEN 'INTEREST' THEN ${lit(L.interest)}
                                 ELSE ${lit(L.construction)} END
            WHEN e.mode = 'CASH' THEN ${lit(L.cash)} WHEN e.mode = 'TDS' THEN ${lit(L.tds)}
            ELSE ${lit(L.bank)} END,
    CASE e.suffix WHEN 'RECEIPT' THEN e.amount ELSE -e.amount END),
   (2, ${lit(L.cgst)}, -e.cgst),
   (3, ${lit(L.sgst)}, -e.sgst)) AS l(ord, ledger, amount)
 WHERE l.amount <> 0
 ORDER BY e.date, e.rank, length(e.number), e.number, e.id, l.ord
) TO STDOUT WITH (FORMAT csv)`;
}

/** `fn` on a connection as the application login in the export's snapshot: seconds. */
async function inSnapshot(
  appUrl: string,
  tenantId: string,
  fn: (client: Client) => Promise<unknown>,
): Promise<number> {
  const client = new Client({ connectionString: appUrl });
  await client.connect();
  try {
    const start = process.hrtime.bigint();
    await client.query(BEGIN_BOOKS_SQL);
    await client.query(TENANT_SETUP_SQL, [tenantId, '5000ms', '600000ms']);
    await fn(client);
    await client.query(COMMIT_SQL);
    return Number(process.hrtime.bigint() - start) / 1e9;
  } finally {
    await client.end();
  }
}

/**
 * The service as bench:floor runs it (floor-service.js), with \`npm start\`'s heap limit; resolves
 * once it listens.
 */
function startService(options: object, cpuProfDir?: string): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = fork(join(__dirname, 'floor-service.js'), [JSON.stringify(options)], {
      execArgv: [
        '--max-old-space-size=256',
        ...(cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfDir}`] : []),
      ],
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    child.once('message', () => resolve(child));
    child.once('exit', (code) =>
      reject(new Error(`the service exited ${code} before it listened`)),
    );
  });
}

/** Resets a process's VmHWM to its current RSS (Linux 4.0+); false where it cannot. */
function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      receipts: { type: 'string', default: '1000000' },
      tenants: { type: 'string', default: '50' },
      'hot-share': { type: 'string', default: '0.4' },
      invoices: { type: 'string', default: '3000' },
      cancels: { type: 'string', default: '300' },
      runs: { type: 'string', default: '7' },
      rounds: { type: 'string', default: '5' },
      from: { type: 'string', default: '2025-04-01' },
      to: { type: 'string', default: '2026-03-31' },
      'cpu-prof': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(HELP);
    return;
  }
  const receipts = Number(values.receipts);
  const tenants = Number(values.tenants);
  const hotShare = Number(values['hot-share']);
  const invoices = Number(values.invoices);
  const cancels = Number(values.cancels);
  const runs = Number(values.runs);
  const rounds = Number(values.rounds);
  const { from, to } = values as { from: string; to: string };
  if (!/^\d{4}-\d{2}-\d{2}$/.test(from) || !/^\d{4}-\d{2}-\d{2}$/.test(to)) {
    throw new Error('--from and --to are dates YYYY-MM-DD');
  }

  const db = await startBenchDatabase({
    // The data set is bench:floor's: generated once, then restored.
    saved: savedDataSet(receipts, tenants, hotShare),
  });
  let owner = new Client({ connectionString: db.ownerUrl });
  await owner.connect();
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  let serviceProcess: ChildProcess | undefined;
  try {
    // Tenants as the tenant CLI makes them, through an in-process app that is closed again.
    const setup = await createApp(
      loadConfig({
        NODE_ENV: 'test',
        DATABASE_URL: db.appUrl,
        JWT_SECRET: BENCH_JWT_SECRET,
        LOG_LEVEL: 'silent',
        HOUSEKEEPING_ENABLED: 'false',
      }),
      db.appUrl,
      { bufferLogs: false },
    );
    const created = await benchTenants(owner, {
      restored: db.restored,
      tenants,
      spread: spreadReceipts(receipts, tenants, hotShare),
      create: (key, name) =>
        setup.get(ClsService).run(() => setup.get(TenantProvisioningService).create({ key, name })),
    });
    await setup.close();
    if (!db.restored) {
      await owner.end();
      await db.save();
      owner = new Client({ connectionString: db.ownerUrl });
      await owner.connect();
    }
    // The service in a process of its own, started as \`npm start\` starts it (256 MB old space,
    // main.ts's heap growth): its RSS is read from /proc.
    const port = await freePort();
    serviceProcess = await startService(
      { appUrl: db.appUrl, port, secret: BENCH_JWT_SECRET, logLevel: 'info' },
      values['cpu-prof'],
    );
    const pid = serviceProcess.pid!;
    const baseUrl = `http://127.0.0.1:${port}`;
    const { rows } = await owner.query<Tenant>(
      `SELECT id, key, currency, locale, timezone, fy_start_month AS "fyStartMonth"
         FROM tenants WHERE id = $1`,
      [created[0].id],
    );
    const tenant: TenantContext = contextOf(rows[0]);
    const headers = benchHeaders(tenant.tenantKey);
    const { rows: count } = await owner.query<{ n: string }>(
      'SELECT count(*) AS n FROM receipts WHERE tenant_id = $1',
      [tenant.tenantId],
    );
    process.stdout.write(`Hot tenant: ${count[0].n} receipts\n`);

    const call = async <T>(method: string, path: string, body: unknown, expected: number) => {
      const payload = JSON.stringify(body);
      return new Promise<T>((resolve, reject) => {
        const req = request(baseUrl + path, { method, headers, agent }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', reject);
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            if (res.statusCode !== expected) {
              reject(new Error(`${method} ${path}: ${res.statusCode} ${text}`));
            } else resolve(JSON.parse(text) as T);
          });
        });
        req.on('error', reject);
        req.end(payload);
      });
    };

    // --- GSTR-1: a month of taxed documents through the API, then the return.
    await call(
      'PUT',
      '/tenant/gst',
      {
        enabled: true,
        gstin: GSTIN,
        legalName: 'Bench Realty 0 Private Limited',
        address: 'Plot 7, Andheri East, Mumbai 400069',
      },
      200,
    );
    const today = formatLocalDate(localDateInZone(new Date(), tenant.timezone));
    const period = today.slice(0, 7);
    const days = Number(today.slice(8, 10));
    const made = Date.now();
    const demandIds: string[] = [];
    const bookings = Math.ceil(invoices / DEMANDS_PER_BOOKING);
    for (let b = 0; b < bookings; b++) {
      const booking = await call<{ id: string }>(
        'POST',
        '/bookings',
        {
          unit: randomUUID(),
          unitName: `Tower ${String.fromCharCode(65 + (b % 6))} - ${1000 + b}`,
          buyerName: `Bench Buyer ${b}`,
          bookingDate: '2025-04-01',
          buyerAddress: '12 Marine Drive, Mumbai',
          ...(b % 10 === 0 ? { buyerGstin: BUYER_GSTIN } : {}),
        },
        201,
      );
      for (let k = 0; k < DEMANDS_PER_BOOKING && demandIds.length < invoices; k++) {
        const i = demandIds.length;
        const amount = 200000 + (i % 97) * 1000;
        const demandDate = `${period}-${String(1 + (i % days)).padStart(2, '0')}`;
        const demand = await call<{ id: string }>(
          'POST',
          '/demands',
          {
            booking: booking.id,
            milestone: null,
            demandType: 'MANUAL',
            totalAmount: amount,
            demandDate,
            dueDate: demandDate,
            remarks: `Slab ${k + 1}`,
            splits: [
              { payerType: 'BUYER', payerId: randomUUID(), amount: (amount / 10) * 6 },
              { payerType: 'BANK', payerId: randomUUID(), amount: (amount / 10) * 4 },
            ],
          },
          201,
        );
        demandIds.push(demand.id);
      }
    }
    // Every tenth demand cancelled (credit notes dated today), up to --cancels.
    const step = Math.max(1, Math.floor(demandIds.length / Math.max(1, cancels)));
    let cancelled = 0;
    for (let i = 0; i < demandIds.length && cancelled < cancels; i += step, cancelled++) {
      await call('POST', `/demands/${demandIds[i]}/cancel`, { reason: 'Raised twice' }, 200);
    }
    const { rows: docs } = await owner.query<{ invoices: number; notes: number }>(
      `SELECT (SELECT count(*)::int FROM tax_invoices
                WHERE tenant_id = $1 AND to_char(invoice_date, 'YYYY-MM') = $2) AS invoices,
              (SELECT count(*)::int FROM credit_notes
                WHERE tenant_id = $1 AND to_char(note_date, 'YYYY-MM') = $2) AS notes`,
      [tenant.tenantId, period],
    );
    process.stdout.write(
      `Made ${bookings} bookings, ${demandIds.length} taxed demands dated ${period}-01..${today} and ${cancelled} cancels through the API in ${((Date.now() - made) / 1000).toFixed(0)} s: ${docs[0].invoices} tax invoices, ${docs[0].notes} credit notes in ${period}\n`,
    );
    await owner.query('ANALYZE tax_invoices, credit_notes, demands, bookings');

    const gstr1Url = (format: string) => `${baseUrl}/gst/gstr1?period=${period}&format=${format}`;
    const gstr1 = async (format: string) => {
      const res = await get(agent, gstr1Url(format), headers);
      if (res.status !== 200) {
        throw new Error(`GSTR-1 ${format}: ${res.status} ${res.body.toString().slice(0, 500)}`);
      }
      return res;
    };
    const first = JSON.parse((await gstr1('json')).body.toString()) as {
      doc_issue?: { doc_det: { docs: { totnum: number }[] }[] };
      b2b?: { inv: unknown[] }[];
    };
    const issued = (first.doc_issue?.doc_det ?? [])
      .flatMap((d) => d.docs)
      .reduce((sum, d) => sum + d.totnum, 0);
    await gstr1('xlsx');
    const gstr1Ms: { json: number[]; xlsx: number[] } = { json: [], xlsx: [] };
    let xlsxBytes = 0;
    let jsonBytes = 0;
    for (let i = 0; i < runs; i++) {
      const order = i % 2 === 0 ? (['json', 'xlsx'] as const) : (['xlsx', 'json'] as const);
      for (const format of order) {
        const res = await gstr1(format);
        gstr1Ms[format].push(res.ms);
        if (format === 'xlsx') xlsxBytes = res.body.length;
        else jsonBytes = res.body.length;
      }
    }

    // --- The year's vouchers against a COPY of the same ledger lines.
    const lit = (value: string) => owner.escapeLiteral(value);
    const copySql = copyLedgerLinesSql(lit, { tenantId: tenant.tenantId, from, to });
    const vouchersUrl = (format: string) =>
      `${baseUrl}/books/vouchers?from=${from}&to=${to}&format=${format}`;
    let copyRows = 0;
    const copy = () =>
      inSnapshot(db.appUrl, tenant.tenantId, async (client) => {
        const stream = client.query(copyTo(copySql));
        await pipeline(stream, nothing());
        copyRows = stream.rowCount;
      });
    interface Side {
      copyRowsPerS: number[];
      serviceRowsPerS: number[];
      ratios: number[];
      idleMb: number[];
      peakMb: number[];
      sampledMb: number[];
      firstByteMs: number[];
      bytes: number;
      newlines: number;
    }
    const side = (): Side => ({
      copyRowsPerS: [],
      serviceRowsPerS: [],
      ratios: [],
      idleMb: [],
      peakMb: [],
      sampledMb: [],
      firstByteMs: [],
      bytes: 0,
      newlines: 0,
    });
    const sides = { csv: side(), tally: side() };
    let hwmReset = true;
    const service = async (format: 'csv' | 'tally', s: Side) => {
      // Idle: the service's RSS after a second with nothing to do.
      await sleep(1000);
      const idle = memoryMb(pid, 'VmRSS');
      hwmReset = resetPeak(pid) && hwmReset;
      let sampled = idle;
      const sampler = setInterval(() => (sampled = Math.max(sampled, memoryMb(pid, 'VmRSS'))), 20);
      try {
        const result = await download(vouchersUrl(format), headers);
        s.idleMb.push(idle);
        s.peakMb.push(memoryMb(pid, 'VmHWM'));
        s.sampledMb.push(sampled);
        s.firstByteMs.push(result.firstByteMs);
        s.bytes = result.bytes;
        s.newlines = result.newlines;
        return result.seconds;
      } finally {
        clearInterval(sampler);
      }
    };
    // Warm-up: one of each, and the ledger-line counts checked against each other.
    await copy();
    await service('csv', side());
    await service('tally', side());
    for (let round = 0; round < rounds; round++) {
      for (const format of ['csv', 'tally'] as const) {
        const s = sides[format];
        let copySeconds = 0;
        let serviceSeconds = 0;
        if (round % 2 === 0) {
          copySeconds = await copy();
          serviceSeconds = await service(format, s);
        } else {
          serviceSeconds = await service(format, s);
          copySeconds = await copy();
        }
        s.copyRowsPerS.push(copyRows / copySeconds);
        s.serviceRowsPerS.push(copyRows / serviceSeconds);
        s.ratios.push(copySeconds / serviceSeconds);
      }
    }
    // The CSV: a header row, then one row per ledger line (CRLF each); the Tally file: two head
    // lines, one line per voucher, the tail.
    const csvLines = sides.csv.newlines - 1;
    const tallyVouchers = sides.tally.newlines - 3;
    if (csvLines !== copyRows) {
      throw new Error(`the service's CSV has ${csvLines} ledger lines, the COPY ${copyRows}`);
    }

    const mb = (n: number) => n.toFixed(0);
    const fmtRate = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(', ');
    const lines = [
      '',
      `Returns and books on the hot tenant (${count[0].n} receipts; ${receipts} over ${tenants} tenants; node ${process.version}; ${new Date().toISOString().slice(0, 10)})`,
      '',
      `GSTR-1 ${period}: ${docs[0].invoices} tax invoices + ${docs[0].notes} credit notes = ${docs[0].invoices + docs[0].notes} documents (doc_issue totnum ${issued}; b2b ctins ${first.b2b?.length ?? 0}); ${runs} requests per format, alternating`,
      '',
      '| format | p50 ms | min ms | max ms | bytes | target |',
      '|---|---|---|---|---|---|',
      ...(['json', 'xlsx'] as const).map((f) => {
        const xs = gstr1Ms[f];
        const mid = p50(xs);
        return `| ${f} | ${mid.toFixed(0)} | ${Math.min(...xs).toFixed(0)} | ${Math.max(...xs).toFixed(0)} | ${f === 'json' ? jsonBytes : xlsxBytes} | <= 2000 ms ${mid <= 2000 ? 'met' : 'MISSED'} |`;
      }),
      '',
      `Vouchers ${from}..${to}: ${copyRows} ledger lines (${tallyVouchers} vouchers); ${rounds} rounds per format, COPY and service alternating which goes first`,
      '',
      '| format | MB | COPY rows/s (rounds) | service rows/s (rounds) | service / COPY (median of rounds) | first byte ms | service RSS MB: idle, peak (VmHWM), sampled max | peak - idle | targets |',
      '|---|---|---|---|---|---|---|---|---|',
      ...(['csv', 'tally'] as const).map((f) => {
        const s = sides[f];
        const ratio = p50(s.ratios);
        const idle = Math.min(...s.idleMb);
        const growth = Math.max(...s.peakMb.map((p, i) => p - s.idleMb[i]));
        return `| ${f} | ${(s.bytes / 1e6).toFixed(1)} | ${p50(s.copyRowsPerS).toFixed(0)} (${fmtRate(s.copyRowsPerS)}) | ${p50(s.serviceRowsPerS).toFixed(0)} (${fmtRate(s.serviceRowsPerS)}) | ${ratio.toFixed(2)} (${s.ratios.map((r) => r.toFixed(2)).join(', ')}) | ${p50(s.firstByteMs).toFixed(0)} | ${mb(idle)}, ${mb(Math.max(...s.peakMb))}, ${mb(Math.max(...s.sampledMb))} | ${mb(growth)} | ratio >= 0.5 ${ratio >= 0.5 ? 'met' : 'MISSED'}; growth <= 50 MB ${growth <= 50 ? 'met' : 'MISSED'} |`;
      }),
      '',
      hwmReset
        ? 'Peak: VmHWM reset before each export (/proc/<pid>/clear_refs); growth: the largest peak - idle of the rounds.'
        : 'Peak: VmHWM could not be reset (/proc/<pid>/clear_refs): the peaks are of the whole run; use the sampled maxima.',
      '',
    ];
    process.stdout.write(lines.join('\n'));
  } finally {
    agent.destroy();
    if (serviceProcess) await stopChild(serviceProcess);
    await owner.end();
    await db.stop();
  }
}

runBench(main);
