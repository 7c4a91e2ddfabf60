/**
 * The finance desk on the large tenant (issue 10): totals with and without groupBy against the
 * search page for the same filters (the baseline, same run), CSV and XLSX exports of every
 * receipt of the tenant (seconds, rows/s, time to first byte, peak RSS of this process, which
 * runs the service and discards the bytes), and the printed receipt (ms per PDF). The CSV export
 * is set against the same COPY read by pg-copy-streams into nothing (the floor, same run) and the
 * cursor + csv-stringify path it replaced (in this process, into nothing).
 * Run: npm run bench:finance [-- --help]
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { Client } from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { BEGIN_EXPORT_SQL, COMMIT_SQL, copyExportCsvSql } from '@/exports/receipt-export.sql';
import { MAX_XLSX_ROWS } from '@/exports/receipt-export.service';
import { TENANT_SETUP_SQL } from '@/http/tenancy/tenant-setup.sql';
import { pageStatement, SearchTable } from '@/search/search-page';
import { parseSearchRequest } from '@/search/search-request';
import { SearchCatalogue } from '@/search/search-catalogue';
import { BOOKING_SEARCH, BOOKING_TABLE } from '@/bookings/booking-search';
import { BOOKING_COLUMNS } from '@/bookings/bookings.sql';
import { DEMAND_SEARCH, DEMAND_TABLE } from '@/demands/demand-search';
import { DEMAND_COLUMNS } from '@/demands/demands.sql';
import { renderReceiptPdf } from '@/documents/receipt-pdf';
import { compileSearch } from '@/receipts/search/receipt-search.sql';
import { RECEIPT_SEARCH } from '@/receipts/search/search-fields';
import { summaryDeltaStatement, summaryDependencies } from '@/receipts/summary/receipt-summary.sql';
import { ReceiptView } from '@/receipts/dto/receipt.view';
import { runBench, startBenchEnvironment, savedDataSet } from './bench-support';
import { benchTenants, spreadReceipts } from './receipt-data';
import { writeCursorCsv } from '../test/support/cursor-csv-export';

const HELP = `npm run bench:finance [-- options]

  --receipts N     receipts in total                      (default 200000)
  --tenants T      tenants they are spread over           (default 10)
  --hot-share F    share of N on the first ("hot") tenant (default 0.4)
  --runs R         timed requests per summary variant     (default 7)
  --pdfs P         PDFs rendered                          (default 50)
  --only S         comma-separated sections of plans,totals,keyword,exports,pdf (default all)
  --export-runs E  rounds of the CSV export comparison    (default 3)
  --formats F      whole exports downloaded, of csv,xlsx  (default csv,xlsx; XLSX is skipped
                   past the service's MAX_XLSX_ROWS, which it refuses)
  --help           this text

CSV export, each round in this order: the export's COPY read by pg-copy-streams into nothing
(the floor), POST /receipts/export downloaded by another process, the cursor + csv-stringify
path the COPY replaced (in this process, into nothing). Medians, and the median of the rounds'
ratios export / COPY.

The issue's data set is --receipts 1000000 --tenants 50 --hot-share 0.4 (400,000 receipts on
the hot tenant, all of which are exported).
When bench:floor has saved a data set of the same options, the run starts from a copy of it
(seconds) instead of generating one (minutes); nothing is saved here.
`;

/** Keywords for demand and booking search: a surname of a tenth, numbers, nothing at all. */
const KEYWORDS = ['iyer', 'BKG/4321', 'BKG/43', 'zzzz'];

const GROUPS = [
  '',
  'paymentMode',
  'status',
  'payerType',
  'demandType',
  'receivedMonth',
  'receivedDate',
];

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** EXPLAIN (ANALYZE, BUFFERS) of one search page, as the application login with RLS on. */
async function explainPage(
  appUrl: string,
  tenantId: string,
  spec: SearchTable,
  catalogue: SearchCatalogue,
  columns: string,
  query: Record<string, string>,
  filters: unknown[],
): Promise<string> {
  const statement = pageStatement(
    spec,
    parseSearchRequest(catalogue, query, filters),
    tenantId,
    columns,
  );
  return explain(appUrl, tenantId, statement.text, statement.params);
}

/** EXPLAIN (ANALYZE, BUFFERS) as the application login, the tenant set for the transaction. */
async function explain(
  appUrl: string,
  tenantId: string,
  text: string,
  params: unknown[],
): Promise<string> {
  const app = new Client({ connectionString: appUrl });
  await app.connect();
  try {
    await app.query('BEGIN');
    await app.query(`SELECT set_config('app.tenant_id', $1, true)`, [tenantId]);
    const { rows } = await app.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN (ANALYZE, BUFFERS) ${text}`,
      params,
    );
    await app.query('ROLLBACK');
    return rows.map((r) => r['QUERY PLAN']).join('\n');
  } finally {
    await app.end();
  }
}

/** POSTs `[]` to `url` from a child Node process that reads and discards the response. */
function download(
  url: string,
  headers: Record<string, string>,
): Promise<{ bytes: number; firstByteMs: number; seconds: number }> {
  const script = `
const [url, headers] = JSON.parse(process.argv[1]);
const start = process.hrtime.bigint();
const ms = () => Number(process.hrtime.bigint() - start) / 1e6;
const req = require('node:http').request(url, { method: 'POST', headers }, (res) => {
  if (res.statusCode !== 200) { console.error('status ' + res.statusCode); process.exit(1); }
  let bytes = 0, first = 0;
  res.on('data', (c) => { if (bytes === 0) first = ms(); bytes += c.length; });
  res.on('end', () => process.stdout.write(JSON.stringify({ bytes, firstByteMs: first, seconds: ms() / 1000 })));
});
req.end('[]');`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', script, JSON.stringify([url, headers])], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(out) as { bytes: number; firstByteMs: number; seconds: number })
        : reject(new Error(`download exited ${code}`)),
    );
  });
}

/** A Writable that counts and drops what it is given. */
function nothing(): Writable & { bytes: number } {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      sink.bytes += chunk.length;
      callback();
    },
  }) as Writable & { bytes: number };
  sink.bytes = 0;
  return sink;
}

/**
 * `fn` on a connection as the application login in the tenant's read-only snapshot (as the
 * export runs): seconds.
 */
async function inSnapshot(
  appUrl: string,
  tenantId: string,
  fn: (client: Client) => Promise<unknown>,
): Promise<number> {
  const client = new Client({ connectionString: appUrl });
  await client.connect();
  try {
    const start = process.hrtime.bigint();
    await client.query(BEGIN_EXPORT_SQL);
    await client.query(TENANT_SETUP_SQL, [tenantId, '5000ms', '600000ms']);
    await fn(client);
    await client.query(COMMIT_SQL);
    return Number(process.hrtime.bigint() - start) / 1e9;
  } finally {
    await client.end();
  }
}

function median(values: number[]): number {
  return quantile(values, 0.5);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      receipts: { type: 'string', default: '200000' },
      tenants: { type: 'string', default: '10' },
      'hot-share': { type: 'string', default: '0.4' },
      runs: { type: 'string', default: '7' },
      pdfs: { type: 'string', default: '50' },
      only: { type: 'string', default: 'plans,totals,keyword,exports,pdf' },
      'export-runs': { type: 'string', default: '3' },
      formats: { type: 'string', default: 'csv,xlsx' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(HELP);
    return;
  }
  const receipts = Number(values.receipts);
  const tenants = Number(values.tenants);
  const runs = Number(values.runs);
  const pdfs = Number(values.pdfs);
  const sections = new Set(values.only.split(','));
  const exportRuns = Number(values['export-runs']);
  const formats = values.formats.split(',').filter((f) => f === 'csv' || f === 'xlsx');
  const hotShare = Number(values['hot-share']);
  const { hot, other } = spreadReceipts(receipts, tenants, hotShare);
  // bench:floor's saved cluster of the same data set, when there is one (seconds, not minutes).
  const env = await startBenchEnvironment({}, { saved: savedDataSet(receipts, tenants, hotShare) });
  try {
    const created = await benchTenants(env.owner, {
      restored: env.restored,
      tenants,
      spread: { hot, other },
      create: (key, name) => env.createTenant(key, name),
    });
    await env.owner.query('VACUUM ANALYZE');
    const tenant = created[0];
    const headers = env.headers(tenant.key);

    // Demand and booking search on the large tenant: the plans of the default pages, the overdue
    // query and a keyword.
    const today = new Date().toISOString().slice(0, 10);
    const plans: Array<
      [string, SearchTable, SearchCatalogue, string, Record<string, string>, unknown[]]
    > = [
      ['demands, default sort', DEMAND_TABLE, DEMAND_SEARCH, DEMAND_COLUMNS, {}, []],
      [
        'demands, overdue',
        DEMAND_TABLE,
        DEMAND_SEARCH,
        DEMAND_COLUMNS,
        {},
        [
          { field: 'dueDate', query: today, type: 'LT' },
          { field: 'status', query: 'PENDING,PARTIALLY_PAID', type: 'IN' },
        ],
      ],
      ['bookings, default sort', BOOKING_TABLE, BOOKING_SEARCH, BOOKING_COLUMNS, {}, []],
      ...['iyer', 'BKG/4321'].flatMap((k) =>
        (
          [
            ['demands', DEMAND_TABLE, DEMAND_SEARCH, DEMAND_COLUMNS],
            ['bookings', BOOKING_TABLE, BOOKING_SEARCH, BOOKING_COLUMNS],
          ] as const
        ).flatMap(
          ([resource, spec, catalogue, columns]): Array<
            [string, SearchTable, SearchCatalogue, string, Record<string, string>, unknown[]]
          > => {
            const filters = [{ field: 'keyword', query: k, type: 'CONTAINS' }];
            return [
              [
                `${resource}, keyword "${k}" (scan)`,
                { ...spec, keywordIds: undefined },
                catalogue,
                columns,
                {},
                filters,
              ],
              [
                `${resource}, keyword "${k}" (trigram lookup)`,
                spec,
                catalogue,
                columns,
                {},
                filters,
              ],
            ];
          },
        ),
      ),
    ];
    if (sections.has('plans')) {
      for (const [name, spec, catalogue, columns, query, filters] of plans) {
        process.stdout.write(
          `\n=== ${name}\n${await explainPage(env.appUrl, tenant.id, spec, catalogue, columns, query, filters)}\n`,
        );
      }
      // A warm summary: only the receipts inserted since the cached version (here: none, at
      // version 0), grouped; and the same at a stale version (the aggregate is not run).
      const parsed = parseSearchRequest(RECEIPT_SEARCH, {}, []);
      const compiled = compileSearch(parsed, tenant.id);
      const deps = summaryDependencies(parsed, 'paymentMode');
      for (const [name, version] of [
        ['summary by paymentMode, warm (delta since the cached version)', '0'],
        ['summary by paymentMode, stale cached version', '-1'],
      ]) {
        process.stdout.write(
          `\n=== ${name}\n${await explain(env.appUrl, tenant.id, summaryDeltaStatement(compiled, 'paymentMode', deps), [...compiled.countParams, version])}\n`,
        );
      }
    }
    const post = (path: string, body: unknown) =>
      fetch(`${env.baseUrl}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });

    // Totals against the search page of the same filters: the first request (cold: nothing
    // cached), the next ones (warm), and each after a write that inserted nothing the filter
    // matches (the tenant's write version bumped, as a receipt of another payer would).
    const filters: Record<string, unknown[]> = {
      everything: [],
      'ACTIVE, one year': [
        { field: 'status', query: 'ACTIVE', type: 'EQUALS' },
        { field: 'receivedDate', query: '2025-04-01,2026-03-31', type: 'BETWEEN' },
      ],
    };
    const bumpVersion = () =>
      env.owner.query(
        `UPDATE receipt_search_versions SET version = version + 1 WHERE tenant_id = $1`,
        [tenant.id],
      );
    const lines = [
      `| filter | request | matches | cold ms | warm p50 ms | warm p95 ms | after a write p50 ms | warm / search page p50 |`,
      '|---|---|---|---|---|---|---|---|',
    ];
    for (const [name, body] of sections.has('totals') ? Object.entries(filters) : []) {
      const page: number[] = [];
      let matches = 0;
      for (let i = 0; i < runs; i++) {
        page.push(
          await timed(async () => {
            const res = await post('/receipts/search?size=20', body);
            matches = ((await res.json()) as { totalElements: number }).totalElements;
          }),
        );
      }
      const base = quantile(page, 0.5);
      lines.push(
        `| ${name} | search page (size 20) | ${matches} | ${page[0].toFixed(1)} | ${base.toFixed(1)} | ${quantile(page, 0.95).toFixed(1)} | | 1.00 |`,
      );
      for (const group of GROUPS) {
        const path = group ? `/receipts/summary?groupBy=${group}` : '/receipts/summary';
        const request = async () => {
          const res = await post(path, body);
          const summary = (await res.json()) as { count: number };
          if (summary.count !== matches) throw new Error(`${path}: ${summary.count} != ${matches}`);
        };
        const cold = await timed(request);
        const warm: number[] = [];
        for (let i = 0; i < runs; i++) warm.push(await timed(request));
        const written: number[] = [];
        for (let i = 0; i < runs; i++) {
          await bumpVersion();
          written.push(await timed(request));
        }
        const p50 = quantile(warm, 0.5);
        lines.push(
          `| ${name} | summary${group ? ` by ${group}` : ''} | ${matches} | ${cold.toFixed(1)} | ${p50.toFixed(1)} | ${quantile(warm, 0.95).toFixed(1)} | ${quantile(written, 0.5).toFixed(1)} | ${(p50 / base).toFixed(2)} |`,
        );
      }
    }

    // Keyword search on demands and bookings. Over HTTP: the first page and its exact total, the
    // page's record numbers hashed (ids are random per run) to compare runs. In SQL, as the
    // application login in a tenant transaction, in the same run and alternating: the page
    // statement as it scans (no lookup function: the statement before issue 30.4) and as it
    // runs now (through the trigram lookup), with their rows compared.
    const keywordLines = [
      `| resource | keyword | totalElements | first page numbers (sha256, 12) | HTTP p50 ms | HTTP p95 ms | SQL scan p50 ms | SQL indexed p50 ms | same rows |`,
      '|---|---|---|---|---|---|---|---|---|',
    ];
    const searchTables: Record<string, [SearchTable, SearchCatalogue, string, string]> = {
      demands: [DEMAND_TABLE, DEMAND_SEARCH, DEMAND_COLUMNS, 'demandNumber'],
      bookings: [BOOKING_TABLE, BOOKING_SEARCH, BOOKING_COLUMNS, 'bookingNumber'],
    };
    const app = new Client({ connectionString: env.appUrl });
    await app.connect();
    const runAsApp = async (text: string, params: unknown[]) => {
      await app.query('BEGIN');
      await app.query(`SELECT set_config('app.tenant_id', $1, true)`, [tenant.id]);
      const start = process.hrtime.bigint();
      const { rows } = await app.query(text, params);
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      await app.query('COMMIT');
      return { ms, rows: JSON.stringify(rows) };
    };
    for (const resource of sections.has('keyword') ? ['demands', 'bookings'] : []) {
      const [table, catalogue, columns, numberField] = searchTables[resource];
      for (const k of KEYWORDS) {
        const body = [{ field: 'keyword', query: k, type: 'CONTAINS' }];
        let total = 0;
        let digest = '';
        const times: number[] = [];
        for (let i = 0; i < runs + 1; i++) {
          const ms = await timed(async () => {
            const res = await post(`/${resource}/search?size=20`, body);
            if (res.status !== 200) throw new Error(`${resource} search: ${res.status}`);
            const page = (await res.json()) as {
              totalElements: number;
              content: Record<string, string>[];
            };
            total = page.totalElements;
            digest = createHash('sha256')
              .update(page.content.map((c) => c[numberField]).join(','))
              .digest('hex')
              .slice(0, 12);
          });
          if (i > 0) times.push(ms);
        }
        const parsed = parseSearchRequest(catalogue, {}, body);
        const indexed = pageStatement(table, parsed, tenant.id, columns);
        const scan = pageStatement({ ...table, keywordIds: undefined }, parsed, tenant.id, columns);
        const scanTimes: number[] = [];
        const indexedTimes: number[] = [];
        let same = true;
        for (let i = 0; i < runs + 1; i++) {
          const before = await runAsApp(scan.text, scan.params);
          const after = await runAsApp(indexed.text, indexed.params);
          same &&= before.rows === after.rows;
          if (i > 0) {
            scanTimes.push(before.ms);
            indexedTimes.push(after.ms);
          }
        }
        keywordLines.push(
          `| ${resource} | ${k} | ${total} | ${digest} | ${quantile(times, 0.5).toFixed(1)} | ${quantile(times, 0.95).toFixed(1)} | ${quantile(scanTimes, 0.5).toFixed(1)} | ${quantile(indexedTimes, 0.5).toFixed(1)} | ${same ? 'yes' : 'NO'} |`,
        );
        if (!same)
          throw new Error(`${resource} keyword ${k}: the indexed rows differ from the scan's`);
      }
    }
    await app.end();

    // The CSV export against its floor, the same COPY read into nothing, and against the cursor
    // path it replaced; paired in each round so that the machine's load hits all three alike.
    const [{ currency }] = (
      await env.owner.query<{ currency: string }>('SELECT currency FROM tenants WHERE id = $1', [
        tenant.id,
      ])
    ).rows;
    const copySql = copyExportCsvSql(
      compileSearch(parseSearchRequest(RECEIPT_SEARCH, {}, []), tenant.id),
      currency,
    );
    const floor: number[] = [];
    const service: number[] = [];
    const cursor: number[] = [];
    const ratios: number[] = [];
    let csvBytes = 0;
    for (let round = 0; round < (sections.has('exports') ? exportRuns : 0); round++) {
      const copySeconds = await inSnapshot(env.appUrl, tenant.id, (client) =>
        pipeline(client.query(copyTo(copySql)), nothing()),
      );
      const result = await download(`${env.baseUrl}/receipts/export?format=csv`, headers);
      csvBytes = result.bytes;
      const cursorSeconds = await inSnapshot(env.appUrl, tenant.id, (client) =>
        writeCursorCsv(client, { tenantId: tenant.id, currency }, undefined, [], nothing()),
      );
      floor.push(hot / copySeconds);
      service.push(hot / result.seconds);
      cursor.push(hot / cursorSeconds);
      ratios.push(copySeconds / result.seconds);
    }
    const csvLines = [
      '| path | rows/s (median) | rounds | / COPY into nothing |',
      '|---|---|---|---|',
      `| COPY read by pg-copy-streams into nothing (floor) | ${median(floor).toFixed(0)} | ${floor.map((r) => r.toFixed(0)).join(', ')} | 1.00 |`,
      `| POST /receipts/export?format=csv (COPY, HTTP, another process reads) | ${median(service).toFixed(0)} | ${service.map((r) => r.toFixed(0)).join(', ')} | ${median(ratios).toFixed(2)} (rounds: ${ratios.map((r) => r.toFixed(2)).join(', ')}) |`,
      `| cursor + csv-stringify (the path before, in process, into nothing) | ${median(cursor).toFixed(0)} | ${cursor.map((r) => r.toFixed(0)).join(', ')} | ${(median(cursor) / median(floor)).toFixed(2)} |`,
    ];

    // Exports of every receipt of the hot tenant, downloaded by a client in another process (so
    // this process's RSS is the service's own) that discards the bytes.
    const exportLines = [
      '| format | rows | MB | first byte ms | seconds | rows/s | service RSS MB: before, peak | heap used MB: peak |',
      '|---|---|---|---|---|---|---|---|',
    ];
    for (const format of sections.has('exports') ? formats : []) {
      if (format === 'xlsx' && hot > MAX_XLSX_ROWS) {
        // The service answers 422 EXPORT_TOO_LARGE: a worksheet holds about a million rows.
        exportLines.push(
          `| xlsx | ${hot} | refused by design: over ${MAX_XLSX_ROWS} rows | | | | | |`,
        );
        continue;
      }
      global.gc?.();
      const before = process.memoryUsage().rss;
      let peak = before;
      let heapPeak = 0;
      const sampler = setInterval(() => {
        const m = process.memoryUsage();
        peak = Math.max(peak, m.rss);
        heapPeak = Math.max(heapPeak, m.heapUsed);
      }, 50);
      const result = await download(`${env.baseUrl}/receipts/export?format=${format}`, headers);
      clearInterval(sampler);
      exportLines.push(
        `| ${format} | ${hot} | ${(result.bytes / 1e6).toFixed(1)} | ${result.firstByteMs.toFixed(0)} | ${result.seconds.toFixed(1)} | ${(hot / result.seconds).toFixed(0)} | ${(before / 1e6).toFixed(0)}, ${(peak / 1e6).toFixed(0)} | ${(heapPeak / 1e6).toFixed(0)} |`,
      );
    }

    // The printed receipt: over HTTP (read, hash, render) and the render alone.
    const page = sections.has('pdf')
      ? ((await (await post(`/receipts/search?size=${Math.min(pdfs, 500)}`, [])).json()) as {
          content: ReceiptView[];
        })
      : { content: [] };
    const http: number[] = [];
    for (const r of page.content) {
      http.push(
        await timed(async () => {
          const res = await fetch(`${env.baseUrl}/receipts/${r.id}/document`, { headers });
          if (res.status !== 200) throw new Error(`document: ${res.status}`);
          await res.arrayBuffer();
        }),
      );
    }
    const render: number[] = [];
    for (const r of page.content) {
      render.push(
        await timed(() =>
          renderReceiptPdf({
            receipt: r,
            names: {
              bookingNumber: 'BKG/26-27/00001',
              unitName: null,
              buyerName: r.demandMeta.buyerName,
              payerName: null,
            },
            tenantName: 'Bench Realty 0',
            locale: 'en-IN',
            issuedAt: new Date(0),
          }),
        ),
      );
    }

    process.stdout.write(
      `\nFinance desk on the hot tenant (${hot} receipts; ${receipts} over ${tenants} tenants; node ${process.version})\n\n` +
        (sections.has('totals')
          ? `Totals (${runs} sequential requests each; the search page's count is cached after its first request)\n\n${lines.join('\n')}\n\n`
          : '') +
        (sections.has('keyword')
          ? `Keyword search, first page of 20 (${runs} requests after one warm-up)\n\n${keywordLines.join('\n')}\n\n`
          : '') +
        (sections.has('exports')
          ? `CSV export of every receipt of the tenant against the same COPY into nothing (${exportRuns} paired rounds, ${(csvBytes / 1e6).toFixed(1)} MB)\n\n${csvLines.join('\n')}\n\n`
          : '') +
        (sections.has('exports')
          ? `Exports of every receipt of the tenant (downloaded by another process; RSS and heap: the service's process)\n\n${exportLines.join('\n')}\n\n`
          : '') +
        (sections.has('pdf')
          ? `Printed receipt: GET /receipts/{id}/document p50 ${quantile(http, 0.5).toFixed(1)} ms, p95 ${quantile(http, 0.95).toFixed(1)} ms; ` +
            `render alone p50 ${quantile(render, 0.5).toFixed(1)} ms (${render.length} receipts)\n`
          : ''),
    );
  } finally {
    await env.stop();
  }
}

runBench(main);
