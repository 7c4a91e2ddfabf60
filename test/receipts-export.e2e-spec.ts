import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import request from 'supertest';
import { Tenant } from '@/http/tenancy/tenant.entity';
import { EXPORT_COLUMNS } from '@/exports/receipt-export-rows';
import {
  createDemand,
  recordReceipt,
  ReceiptView,
  searchReceipts,
  split,
} from './support/factories';
import { binaryBody } from './support/binary-body';
import { ReceiptExportService } from '@/exports/receipt-export.service';
import { seedDemoTenants } from '@/seed/demo-seed';
import { cursorCsv } from './support/cursor-csv-export';
import { createTestApp, TestApp } from './support/test-app';
import { as } from './support/tokens';

type Filter = { field: string; query?: string; type: string };

/** The most one loopback TCP connection holds in flight: tcp_wmem's maximum plus tcp_rmem's. */
function tcpHopBytes(): number {
  const max = (name: string) =>
    Number(readFileSync(`/proc/sys/net/ipv4/${name}`, 'utf8').trim().split(/\s+/)[2]);
  try {
    return max('tcp_wmem') + max('tcp_rmem');
  } catch {
    return 8 * 2 ** 20;
  }
}

/**
 * POST /receipts/export (docs/api.md): files equal to search, CSV streamed from a COPY with the
 * bytes of the cursor path it replaced, XLSX from a cursor.
 */
describe('POST /receipts/export', () => {
  let t: TestApp;
  let owner: Client;
  let tenant: Tenant;
  let other: Tenant;
  let big: Tenant;
  const BIG_ROWS = 30_000;
  /**
   * The big tenant's transaction_ref length. The stall tests see PostgreSQL wait on a client that
   * does not read only if the export is larger than what the connections between them can hold:
   * each loopback TCP hop (PostgreSQL to the app, and through PgBouncer one more) holds up to the
   * kernel's send buffer plus its receive buffer, both autotuned (32 MB + 4 MB on the CI machine).
   * A 17 MB export once fitted through PgBouncer, and its COPY ended instead of stalling.
   */
  const BIG_REF_LENGTH = Math.max(
    200,
    Math.ceil((1.25 * (process.env.TEST_PGBOUNCER === '1' ? 2 : 1) * tcpHopBytes()) / BIG_ROWS),
  );
  /** The demo seed's history (src/seed), with awkward text written into some of it. */
  const demoKey = `demo-${process.pid}-${Date.now().toString(36)}`;
  let demo: { id: string; currency: string };
  const DEMO_RECEIPTS = 3000;

  const exportOf = (key: string, path: string, filters: Filter[] = []) =>
    request(t.server).post(path).set(as(key)).send(filters).buffer(true).parse(binaryBody);

  /**
   * The same application behind a Unix socket, for the tests that stop reading. Loopback TCP
   * buffers autotune (tcp_rmem up to 32 MB on the CI machine), so a paused client could absorb
   * the whole export and it would finish instead of stalling; a Unix socket buffers ~200 KB.
   */
  let stallServer: http.Server;
  const stallSocket = join(tmpdir(), `export-e2e-${process.pid}.sock`);

  /** A raw request whose response the test reads (or stops reading) itself. */
  const openExport = (key: string, path = '/receipts/export'): Promise<http.IncomingMessage> => {
    return new Promise((resolve, reject) => {
      const req = http.request(
        {
          socketPath: stallSocket,
          path,
          method: 'POST',
          headers: { ...as(key), 'content-type': 'application/json' },
        },
        resolve,
      );
      req.on('error', reject);
      req.end('[]');
    });
  };
  /**
   * openExport once the export place is free: after an export its client broke off, the server
   * frees the place only once it has seen the client go (up to 10 s here).
   */
  const openFreeExport = async (key: string): Promise<http.IncomingMessage> => {
    for (let i = 0; ; i++) {
      const res = await openExport(key);
      if (res.statusCode !== 503 || i >= 100) return res;
      res.resume();
      await new Promise((resolve) => res.on('end', resolve));
      await sleep(100);
    }
  };
  /** pg-pool's own list of clients, each with its backend pid. */
  type ExportPoolInternals = {
    pools: Map<string, { _clients: { processID: number | null }[] }>;
  };
  /**
   * This application's export sessions: other suites may run exports on the same server at the
   * same time (Jest workers), so the sessions are picked by the backend pids of this app's export
   * pool. Through PgBouncer (npm run test:pgbouncer) those pids are the pooler's, not the
   * server's: there the sessions are the export's that are in a transaction (idle server
   * connections keep the last application name they carried), and that run is in band.
   */
  const exportSessions = async () => {
    const { pools } = t.app.get<ReceiptExportService, ExportPoolInternals>(ReceiptExportService);
    const pids = pools
      .get('export')!
      ._clients.map((c) => c.processID)
      .filter((p) => p !== null);
    return (
      await owner.query<{
        pid: number;
        state: string;
        query: string;
        waitEvent: string | null;
        idleMs: number;
      }>(
        `SELECT pid, state, query, wait_event AS "waitEvent",
                (extract(epoch FROM clock_timestamp() - state_change) * 1000)::int AS "idleMs"
           FROM pg_stat_activity
          WHERE application_name = 'finance-service-export'
            -- A parallel plan's workers carry the session's name and query: not sessions.
            AND backend_type = 'client backend'
            AND (pid = ANY($1::int[]) OR ($2 AND state <> 'idle'))`,
        [pids, process.env.TEST_PGBOUNCER === '1'],
      )
    ).rows;
  };

  /** The export's COPY, stalled: blocked writing to a client that does not read. */
  const copyStalled = (s: { state: string; query: string; waitEvent: string | null }) =>
    s.state === 'active' && s.query.startsWith('COPY (') && s.waitEvent === 'ClientWrite';

  beforeAll(async () => {
    t = await createTestApp({ EXPORT_POOL_SIZE: '1' });
    await new Promise<void>((resolve) => t.server.listen(0, '127.0.0.1', resolve));
    stallServer = http.createServer(t.server.listeners('request')[0] as http.RequestListener);
    await new Promise<void>((resolve) => stallServer.listen(stallSocket, resolve));
    owner = new Client({ connectionString: t.ownerUrl });
    await owner.connect();
    tenant = await t.createTenant();
    other = await t.createTenant();
    big = await t.createTenant();
    const d = await createDemand(t, tenant.key, { splits: [split(900000), split(100000, 'BANK')] });
    const rows: Array<[number, string, string, string]> = [
      [1500, 'NEFT', 'UTR, with comma', '2026-11-01'],
      [2500.5, 'CHEQUE', 'CHQ "00451"', '2026-11-02'],
      [99.99, 'UPI', 'line one\nline two', '2026-11-03'],
      [10, 'CASH', '=HYPERLINK("http://x")', '2026-11-04'],
      [20, 'CASH', '+91 98450', '2026-10-04'],
      [30, 'CASH', '-5', '2026-10-05'],
      [40, 'CASH', '@SUM(A1)', '2026-10-06'],
      [50, 'CASH', '\tTAB', '2026-10-07'],
    ];
    for (const [amount, paymentMode, transactionRef, receivedDate] of rows) {
      await recordReceipt(t, tenant.key, {
        demandSplit: d.splits[0].id,
        amount,
        paymentMode,
        transactionRef,
        receivedDate,
      });
    }
    await recordReceipt(t, tenant.key, { demandSplit: d.splits[1].id, amount: 12345.67 });
    await recordReceipt(t, other.key, { amount: 777 });
    // A large tenant, written directly: one demand split paid by many small receipts.
    const bd = await createDemand(t, big.key, { splits: [split(9_000_000)] });
    await owner.query(
      `INSERT INTO receipts (tenant_id, demand_split_id, demand_id, booking_id, payer_type,
                             receipt_number, amount, payment_mode, transaction_ref, received_date,
                             status, created_by, inserted_version)
       SELECT $1, $2, $3, $4, 'BUYER', 'BULK/' || lpad(g::text, 6, '0'), 1, 'UPI',
              repeat('x', ${BIG_REF_LENGTH}), date '2026-04-01' + (g % 200), 'ACTIVE', 'loader', 0
         FROM generate_series(1, ${BIG_ROWS}) g`,
      [big.id, bd.splits[0].id, bd.id, bd.booking],
    );
    await seedDemoTenants(
      t.app,
      [{ key: demoKey, name: 'Skyline Developers', seed: 42 }],
      DEMO_RECEIPTS,
    );
    [demo] = (
      await owner.query<{ id: string; currency: string }>(
        'SELECT id, currency FROM tenants WHERE key = $1',
        [demoKey],
      )
    ).rows;
    // Text a CSV writer can get wrong, in every text column the export writes: quotes, commas,
    // line breaks (LF, CRLF, a lone CR), formula-looking starts, empty text, unicode, a lone `\.`.
    const awkward = [
      'say "hi", then\nleave',
      '=HYPERLINK("http://x","y")',
      '+91 98450 12345',
      '-5',
      '@SUM(A1)',
      '\tTAB',
      '\rCR first',
      'CR\r\nLF inside',
      'ends with a break\n',
      '"',
      '',
      '\\.',
      ' leading space',
      'Ananya Iyer ₹ 😀 Ünïcødé',
      "it's; a \\ backslash",
    ];
    await owner.query(
      `WITH pick AS (SELECT id, row_number() OVER (ORDER BY id) AS n FROM receipts
                      WHERE tenant_id = $1 ORDER BY id LIMIT $2::int)
       UPDATE receipts r SET transaction_ref = ($3::text[])[pick.n],
                             created_by = ($3::text[])[(pick.n % $2::int) + 1]
         FROM pick WHERE r.id = pick.id`,
      [demo.id, awkward.length, awkward],
    );
    await owner.query(
      `WITH pick AS (SELECT id, row_number() OVER (ORDER BY id DESC) AS n FROM receipts
                      WHERE tenant_id = $1 ORDER BY id DESC LIMIT $2::int)
       UPDATE receipts r SET status = 'CANCELLED', status_reason = ($3::text[])[pick.n],
                             status_changed_on = r.received_date + 1,
                             status_changed_by = ($3::text[])[$2::int + 1 - pick.n]
         FROM pick WHERE r.id = pick.id`,
      [demo.id, awkward.length, awkward],
    );
    await owner.query(
      `WITH pick AS (SELECT id, row_number() OVER (ORDER BY id) AS n FROM demands
                      WHERE tenant_id = $1 ORDER BY id LIMIT $2::int)
       UPDATE demands d SET buyer_name = ($3::text[])[pick.n],
                            demand_number = ($3::text[])[$2::int + 1 - pick.n]
         FROM pick WHERE d.id = pick.id`,
      [demo.id, awkward.length, awkward],
    );
  }, 180_000);
  afterAll(async () => {
    stallServer?.closeAllConnections();
    stallServer?.close();
    await owner?.end();
    await t?.close();
  });

  it('CSV equals search, in order, with the exact header, BOM, CRLF and quoting', async () => {
    for (const [filters, sort] of [
      [[], ''],
      [[{ field: 'paymentMode', query: 'CASH,NEFT', type: 'IN' }], '&sort=amount,asc'],
      [
        [{ field: 'receivedDate', query: '2026-11-01,2026-11-30', type: 'BETWEEN' }],
        '&sort=receiptNumber,asc',
      ],
    ] as Array<[Filter[], string]>) {
      const res = await exportOf(tenant.key, `/receipts/export?format=csv${sort}`, filters);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toMatch(
        new RegExp(`^attachment; filename="receipts-${tenant.key}-\\d{8}\\.csv"$`),
      );
      const text = (res.body as Buffer).toString('utf8');
      expect(text.startsWith('\uFEFF')).toBe(true);
      expect(text.slice(1).split('\r\n')[0]).toBe(EXPORT_COLUMNS.join(','));
      expect(text.endsWith('\r\n')).toBe(true);
      const records = parse<Record<string, string>>(text, { bom: true, columns: true });
      const searched = await request(t.server)
        .post(`/receipts/search?size=500${sort}`)
        .set(as(tenant.key))
        .send(filters);
      const content = searched.body.content as ReceiptView[];
      expect(records.map((r) => r.id)).toEqual(content.map((r) => r.id));
      expect(records.map((r) => r.amount)).toEqual(content.map((r) => r.amount.amount.toFixed(2)));
    }
  });

  it('CSV from COPY has exactly the bytes of the cursor path, on the demo data', async () => {
    const app = new Client({ connectionString: t.appUrl });
    await app.connect();
    try {
      const cases: Array<[string | undefined, Filter[]]> = [
        [undefined, []],
        ['receivedDate,asc', []],
        ['amount,desc', [{ field: 'paymentMode', query: 'CHEQUE,NEFT,UPI', type: 'IN' }]],
        ['receiptNumber,asc', [{ field: 'status', query: 'CANCELLED', type: 'EQUALS' }]],
        [undefined, [{ field: 'keyword', query: 'iyer', type: 'CONTAINS' }]],
        [undefined, [{ field: 'transactionRef', query: '"', type: 'CONTAINS' }]],
        [
          'receivedDate,desc',
          [
            { field: 'receivedDate', query: '2000-01-01,2100-12-31', type: 'BETWEEN' },
            { field: 'amount', query: '1000', type: 'GT' },
          ],
        ],
      ];
      const tenantOf = { tenantId: demo.id, currency: demo.currency };
      let awkwardSeen = false;
      for (const [sort, filters] of cases) {
        const path = `/receipts/export${sort ? `?sort=${sort}` : ''}`;
        const res = await exportOf(demoKey, path, filters);
        expect(res.status).toBe(200);
        const expected = await cursorCsv(app, tenantOf, sort, filters);
        const got = res.body as Buffer;
        if (!got.equals(expected)) {
          // Name the first differing row rather than print two files.
          const [a, b] = [got, expected].map((x) => x.toString('utf8').split('\r\n'));
          const i = a.findIndex((line, n) => line !== b[n]);
          expect({ path, filters, row: i, line: a[i] }).toEqual({
            path,
            filters,
            row: i,
            line: b[i],
          });
        }
        expect(got.equals(expected)).toBe(true);
        awkwardSeen ||= got.includes('"say ""hi"", then\nleave"') && got.includes("'\rCR first");
      }
      // The awkward text was exported (the comparison covered it), and the files are not tiny.
      expect(awkwardSeen).toBe(true);
      const all = await exportOf(demoKey, '/receipts/export');
      expect(parse(all.body as Buffer, { bom: true, columns: true })).toHaveLength(DEMO_RECEIPTS);
    } finally {
      await app.end();
    }
  });

  it('ten sequential exports from one client all run: each frees its place before its end', async () => {
    // This suite's pool has one place: an export that freed it only after its last byte would
    // meet its predecessor now and then (503 EXPORT_BUSY).
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) {
      const format = i % 2 === 0 ? 'csv' : 'xlsx';
      // The demo tenant's few thousand rows: the big tenant's export is sized for the stall tests.
      const res = await exportOf(demoKey, `/receipts/export?format=${format}`);
      statuses.push(res.status);
    }
    expect(statuses).toEqual(Array(10).fill(200));
  });

  it('guards formulas and keeps commas, quotes and line breaks inside one cell', async () => {
    const res = await exportOf(tenant.key, '/receipts/export?sort=receivedDate,asc');
    const text = (res.body as Buffer).toString('utf8');
    expect(text).toContain('"UTR, with comma"');
    expect(text).toContain('"CHQ ""00451"""');
    expect(text).toContain('"line one\nline two"');
    const refs = parse<Record<string, string>>(text, { bom: true, columns: true }).map(
      (r) => r.transactionRef,
    );
    expect(refs).toEqual(
      expect.arrayContaining([
        `'=HYPERLINK("http://x")`,
        `'+91 98450`,
        `'-5`,
        `'@SUM(A1)`,
        `'\tTAB`,
        'UTR, with comma',
        'line one\nline two',
      ]),
    );
    const first = parse<Record<string, string>>(text, { bom: true, columns: true })[0];
    expect(first).toMatchObject({
      currency: 'INR',
      status: 'ACTIVE',
      statusReason: '',
      amount: '20.00',
    });
  });

  it('XLSX has the same rows with numeric amounts and date cells', async () => {
    const res = await exportOf(tenant.key, '/receipts/export?format=xlsx&sort=amount,desc');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(res.headers['content-disposition']).toMatch(/\.xlsx"$/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(new Uint8Array(res.body as Buffer).buffer);
    const sheet = workbook.worksheets[0];
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header).toEqual([...EXPORT_COLUMNS]);
    const col = (name: string) =>
      EXPORT_COLUMNS.indexOf(name as (typeof EXPORT_COLUMNS)[number]) + 1;
    const searched = await searchReceipts(t, tenant.key, []);
    const byAmount = [...searched].sort((a, b) => b.amount.amount - a.amount.amount);
    expect(sheet.rowCount).toBe(searched.length + 1);
    for (let i = 0; i < byAmount.length; i++) {
      const row = sheet.getRow(i + 2);
      expect(row.getCell(col('id')).value).toBe(byAmount[i].id);
      expect(row.getCell(col('amount')).value).toBe(byAmount[i].amount.amount);
      expect(row.getCell(col('amount')).numFmt).toBe('0.00');
      const received = row.getCell(col('receivedDate')).value;
      expect(received).toBeInstanceOf(Date);
      expect((received as Date).toISOString().slice(0, 10)).toBe(byAmount[i].receivedDate);
    }
  });

  it('Accept chooses CSV or XLSX where format= is not given; format= wins over it', async () => {
    const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
    const withAccept = (accept: string, query = '') =>
      request(t.server)
        .post(`/receipts/export${query}`)
        .set(as(other.key))
        .set('Accept', accept)
        .send([])
        .buffer(true)
        .parse(binaryBody);
    const xlsx = await withAccept(XLSX_TYPE);
    expect(xlsx.status).toBe(200);
    expect(xlsx.headers['content-type']).toBe(XLSX_TYPE);
    expect(xlsx.headers['content-disposition']).toMatch(/\.xlsx"$/);
    expect(xlsx.headers.vary).toMatch(/Accept/i);
    expect((await withAccept('text/csv')).headers['content-type']).toBe('text/csv; charset=utf-8');
    expect((await withAccept('*/*')).headers['content-type']).toBe('text/csv; charset=utf-8');
    expect((await withAccept(XLSX_TYPE, '?format=csv')).headers['content-type']).toBe(
      'text/csv; charset=utf-8',
    );
    expect((await withAccept('text/csv', '?format=xlsx')).headers['content-type']).toBe(XLSX_TYPE);
    expect((await withAccept(XLSX_TYPE, '?format=pdf')).status).toBe(400);
  });

  it('ends each row with its booking number, after realisedOn, in CSV and XLSX', async () => {
    const csv = await exportOf(tenant.key, '/receipts/export?format=csv');
    expect(csv.status).toBe(200);
    const text = (csv.body as Buffer).toString('utf8');
    const header = text.slice(1).split('\r\n')[0].split(',');
    expect(header.slice(-3)).toEqual(['statusChangedBy', 'realisedOn', 'bookingNumber']);
    const records = parse<Record<string, string>>(text, { bom: true, columns: true });
    expect(records.length).toBeGreaterThan(0);
    const numbers = new Map<string, string>();
    for (const booking of new Set(records.map((r) => r.booking))) {
      const res = await request(t.server).get(`/bookings/${booking}`).set(as(tenant.key));
      expect(res.status).toBe(200);
      numbers.set(booking, res.body.bookingNumber as string);
    }
    for (const r of records) {
      expect(r.bookingNumber).toBe(numbers.get(r.booking));
      expect(r.bookingNumber).not.toBe('');
    }

    const xlsx = await exportOf(tenant.key, '/receipts/export?format=xlsx');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(new Uint8Array(xlsx.body as Buffer).buffer);
    const sheet = workbook.worksheets[0];
    const xlsxHeader = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(xlsxHeader.slice(-2)).toEqual(['realisedOn', 'bookingNumber']);
    const col = (name: string) => xlsxHeader.indexOf(name) + 1;
    for (let i = 2; i <= sheet.rowCount; i++) {
      const row = sheet.getRow(i);
      const booking = row.getCell(col('booking')).value as string;
      expect(row.getCell(col('bookingNumber')).value).toBe(numbers.get(booking));
    }
  });

  it("exports one tenant's receipts only", async () => {
    const mine = await exportOf(other.key, '/receipts/export');
    const records = parse((mine.body as Buffer).toString('utf8'), { bom: true, columns: true });
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ amount: '777.00' });
    const searchedIds = (await searchReceipts(t, tenant.key, [])).map((r) => r.id);
    const byId = await exportOf(other.key, '/receipts/export', [
      { field: 'id', query: searchedIds[0], type: 'EQUALS' },
    ]);
    expect(parse((byId.body as Buffer).toString('utf8'), { bom: true, columns: true })).toEqual([]);
  });

  it('streams from a COPY while the client reads, and one more export is 503 EXPORT_BUSY', async () => {
    const res = await openFreeExport(big.key);
    try {
      expect(res.statusCode).toBe(200);
      res.pause();
      // Once the sockets' buffers are full the export stops reading its COPY, and PostgreSQL
      // waits to write the next rows (wait event ClientWrite). Wait for that, up to 20 s. The
      // sample that saw it is the evidence: through PgBouncer the wait can lift for a moment as
      // the pooler drains a little, so a second sample may catch it between two writes.
      let stalled = false;
      let seen: Awaited<ReturnType<typeof exportSessions>> = [];
      for (let i = 0; i < 200 && !stalled; i++) {
        await sleep(100);
        seen = await exportSessions();
        stalled = seen.length === 1 && copyStalled(seen[0]);
      }
      expect(res.complete).toBe(false);
      // On failure, the last sample says why (the COPY ended, or another session was there).
      expect({ stalled, seen: seen.map(({ state, waitEvent }) => ({ state, waitEvent })) }).toEqual(
        expect.objectContaining({ stalled: true }),
      );
      expect(await exportSessions()).toHaveLength(1);
      const busy = await request(t.server).post('/receipts/export').set(as(tenant.key)).send([]);
      expect(busy.status).toBe(503);
      expect(busy.body.code).toBe('EXPORT_BUSY');
      expect(Number(busy.headers['retry-after'])).toBeGreaterThan(0);

      let bytes = 0;
      res.on('data', (c: Buffer) => (bytes += c.length));
      res.resume();
      await new Promise((resolve) => res.on('end', resolve));
      expect(bytes).toBeGreaterThan(BIG_ROWS * BIG_REF_LENGTH);
    } finally {
      // A failed expectation must not leave the export holding its connection for later tests.
      if (!res.complete) res.destroy();
    }
  });

  it('a client that goes away stops the export and frees its connection', async () => {
    const res = await openFreeExport(big.key);
    expect(res.statusCode).toBe(200);
    res.pause();
    await sleep(200);
    res.destroy();
    for (let i = 0; i < 100; i++) {
      const sessions = await exportSessions();
      if (sessions.every((s) => s.state === 'idle')) break;
      await sleep(100);
    }
    expect((await exportSessions()).filter((s) => s.state !== 'idle')).toEqual([]);
    const again = await exportOf(tenant.key, '/receipts/export');
    expect(again.status).toBe(200);
  });

  it('survives its database connection breaking while the client is not reading', async () => {
    const res = await openFreeExport(big.key);
    try {
      expect(res.statusCode).toBe(200);
      res.pause();
      let sessions: Awaited<ReturnType<typeof exportSessions>> = [];
      for (let i = 0; i < 200 && !(sessions[0] && copyStalled(sessions[0])); i++) {
        await sleep(50);
        sessions = await exportSessions();
      }
      expect(sessions.map(copyStalled)).toEqual([true]);
      // The held connection breaks mid-COPY (a restart, a failover, an administrator).
      await owner.query('SELECT pg_terminate_backend($1)', [sessions[0].pid]);
      await sleep(200);
    } finally {
      res.destroy();
    }
    // Still serving (an unhandled 'error' on the connection would have ended this process),
    // and the export pool reconnects. Until the server has seen the client go, the broken
    // export still holds the one export place (503 EXPORT_BUSY): wait for that, up to 10 s.
    let again = await exportOf(tenant.key, '/receipts/export');
    for (let i = 0; i < 100 && again.status === 503; i++) {
      await sleep(100);
      again = await exportOf(tenant.key, '/receipts/export');
    }
    expect(again.status).toBe(200);
    expect(
      parse((again.body as Buffer).toString('utf8'), { bom: true, columns: true }),
    ).toHaveLength((await searchReceipts(t, tenant.key, [])).length);
  });

  it('refuses a bad format, sort, filter or paging parameter, naming it', async () => {
    for (const [path, body, named] of [
      ['/receipts/export?format=pdf', [], 'format'],
      ['/receipts/export?sort=nope,asc', [], 'sort'],
      ['/receipts/export', [{ field: 'amount', query: 'x', type: 'GT' }], 'amount'],
      ['/receipts/export?page=1', [], 'page'],
    ] as Array<[string, Filter[], string]>) {
      const res = await request(t.server).post(path).set(as(tenant.key)).send(body);
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(JSON.stringify(res.body)).toContain(named);
    }
    expect((await request(t.server).post('/receipts/export').send([])).status).toBe(401);
    const writer = await request(t.server)
      .post('/receipts/export')
      .set(as(tenant.key, { scope: 'receipts:write' }))
      .send([]);
    expect(writer.status).toBe(403);
  });
});
