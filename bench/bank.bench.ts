/**
 * Bank statement import (issue 27) on the hot tenant of the receipt data set: a 10,000-line HDFC
 * CSV, the same file again, an overlapping file (5,000 old + 5,000 new lines) and a 100,000-line
 * file, each uploaded by a client in another process (so this process's RSS is the service's),
 * next to the same rows loaded by COPY through pg alone in the same run (the ratio is the figure
 * to improve). Where the time goes: the parse alone (decode, CSV, keys, UTR reading) in this
 * process, without a database.
 *
 * Matching (issue 28): a statement of the hot tenant's own receipts (70 % with the receipt's
 * reference, 20 % amount and date only, 10 % unknown) imported and matched, beside the matching
 * SQL's own time (the same statements replayed through pg alone on the same lines); and
 * recording a receipt with the bank check (the tenant's unmatched lines of its amount) against
 * without it, paired, in pg alone (the service's other costs could only dilute the check's).
 * Run: npm run bench:bank [-- --help]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client, Pool } from 'pg';
import {
  LOCK_OPEN_LINES_OF_AMOUNTS_SQL,
  matchLockSql,
  matchParams,
  matchSql,
  openLinesOfAmountsParams,
} from '@/bank/bank-matching.sql';
import {
  INSERT_LINES_SQL,
  insertLinesParams,
  INSERT_STATEMENT_SQL,
  insertStatementParams,
} from '@/bank/bank.sql';
import { append, emptyColumns, LINES_PER_CHUNK } from '@/bank/statement-import.service';
import { parseCsvStatement } from '@/bank/statements/csv-statement';
import { HdfcTransaction, writeHdfcStatement } from '@/bank/statements/hdfc-csv-writer';
import { LineKeys } from '@/bank/statements/line-key';
import { extractReferences } from '@/bank/statements/references';
import { decodeStatement } from '@/bank/statements/text-decoding';
import { TENANT_SETUP_SQL } from '@/http/tenancy/tenant-setup.sql';
import { matchEventsSql } from '@/bank/match-events.sql';
import { moneyFormat } from '@/common/money/money-json.sql';
import { APPEND_EVENTS_SQL, appendMadeEventsSql } from '@/platform/outbox/outbox.sql';
import { runBench, startBenchEnvironment, savedDataSet } from './bench-support';
import { poolDb, recordReceipt } from './floor-server';
import { median } from './processes';
import { benchTenants, spreadReceipts } from './receipt-data';

const HELP = `npm run bench:bank [-- options]

  --receipts N     receipts in total                      (default 1000000)
  --tenants T      tenants they are spread over           (default 50)
  --hot-share F    share of N on the first ("hot") tenant (default 0.4)
  --lines L        lines of the first statement           (default 10000)
  --big B          lines of the large statement           (default 100000)
  --match M        lines of the statement to match        (default 10000)
  --explain        print the matching statements' plans (EXPLAIN ANALYZE)
  --contiguous     match receipts as they lie in the table, page after page (recorded together,
                   realised together), instead of one month's (one or two to a page)
  --no-ablation    skip the matching SQL replayed without some of the receipts' indexes
  --help           this text

The issue's data set is the default (400,000 receipts on the hot tenant). When bench:floor has
saved a data set of the same options (its tenants are made the same way), the run starts from a
copy of it instead of generating one; nothing is saved here. The service runs with
STATEMENT_MAX_BYTES=67108864 so the large file fits.
`;

const ACCOUNT = '50200012345678';
const BIG_ACCOUNT = '50200087654321';
const MATCH_ACCOUNT = '50200011112222';
/**
 * Receipts recorded with and without the bank check, each (issue 28). A receipt's commit waits
 * for its WAL flush, which varies by milliseconds here: 300 pairs gave ratios from 0.84 to 0.94
 * for the same code. The check's own time is printed beside it.
 */
const RECORD_PAIRS = 1000;

/** Line `n` of a collections account's history: UPI, NEFT, RTGS, IMPS credits and cheques. */
function transaction(n: number): HdfcTransaction {
  const date = new Date(Date.UTC(2025, 0, 1) + Math.floor(n / 400) * 86_400_000)
    .toISOString()
    .slice(0, 10);
  const rrn = String(500000000000 + n);
  const amount = `${10_000 + ((n * 7919) % 2_000_000)}.${String(n % 100).padStart(2, '0')}`;
  switch (n % 5) {
    case 0:
      return {
        date,
        narration: `UPI-BUYER ${n} SHARMA-buyer${n}@okhdfcbank-HDFC0000123-${rrn}-BOOKING A-${n % 997}`,
        reference: rrn.padStart(16, '0'),
        credit: amount,
      };
    case 1: {
      const utr = `SBINN5${String(n).padStart(10, '0')}`;
      return {
        date,
        narration: `NEFT CR-SBIN0001234-BUYER ${n} NAIR-${utr}`,
        reference: utr,
        credit: amount,
      };
    }
    case 2: {
      const utr = `ICICR5${String(n).padStart(16, '0')}`;
      return {
        date,
        narration: `RTGS CR-ICIC0000104-BUYER ${n} MEHTA-${utr}`,
        reference: utr,
        credit: amount,
      };
    }
    case 3:
      return {
        date,
        narration: `IMPS-${rrn}-BUYER ${n} DESAI-KKBK-XXXXXXXX1234-FLAT B-${n % 997}`,
        reference: rrn.padStart(16, '0'),
        credit: amount,
      };
    default: {
      const cheque = String(n % 1_000_000).padStart(6, '0');
      return n % 10 === 4
        ? {
            date,
            narration: `CHQ DEP - MICR CTS - MUMBAI CLEARING - ${cheque}`,
            reference: cheque.padStart(16, '0'),
            credit: amount,
          }
        : {
            date,
            narration: `CHQ PAID-MICR INWARD CLEARING-${cheque}-VENDOR ${n}`,
            reference: cheque.padStart(16, '0'),
            debit: '1000.00',
          };
    }
  }
}

/** Lines `first` to `first + count - 1` of the history, as one HDFC statement. */
function statement(account: string, first: number, count: number): string {
  let opening = 10_000_000_00n; // paise
  const cents = (a: string) => BigInt(a.replace('.', ''));
  for (let n = 0; n < first; n++) {
    const t = transaction(n);
    opening += t.credit ? cents(t.credit) : -cents(t.debit ?? '0.00');
  }
  const transactions = Array.from({ length: count }, (_, i) => transaction(first + i));
  return writeHdfcStatement({
    accountNumber: account,
    holder: 'BENCH REALTY 0',
    ifsc: 'HDFC0001234',
    from: transactions[0].date,
    to: transactions[transactions.length - 1].date,
    openingBalance: `${opening / 100n}.${String(opening % 100n).padStart(2, '0')}`,
    transactions,
  });
}

interface Upload {
  status: number;
  ms: number;
  body: { imported: number; duplicates: number; lines: number; balanceCheck: string };
}

/** POSTs the file from a child Node process (so the bytes never sit in this process). */
function upload(url: string, headers: Record<string, string>, file: string): Promise<Upload> {
  const script = `
const [url, headers, file] = JSON.parse(process.argv[1]);
const body = require('node:fs').readFileSync(file);
const start = process.hrtime.bigint();
fetch(url, { method: 'POST', headers, body }).then(async (res) => {
  const text = await res.text();
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  process.stdout.write(JSON.stringify({ status: res.status, ms, body: JSON.parse(text) }));
}).catch((e) => { console.error(e); process.exit(1); });`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', script, JSON.stringify([url, headers, file])], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out) as Upload) : reject(new Error(`upload exited ${code}`)),
    );
  });
}

/** This process's RSS and heap while `fn` runs (sampled every 20 ms). */
async function sampled<T>(fn: () => Promise<T>) {
  global.gc?.();
  const before = process.memoryUsage();
  let rss = before.rss;
  let heap = before.heapUsed;
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    rss = Math.max(rss, m.rss);
    heap = Math.max(heap, m.heapUsed);
  }, 20);
  try {
    const result = await fn();
    return {
      result,
      rssBefore: before.rss,
      rssPeak: rss,
      heapBefore: before.heapUsed,
      heapPeak: heap,
    };
  } finally {
    clearInterval(sampler);
  }
}

/** COPY text format: backslash, tab and line ends escaped; null as \N. */
const copyText = (value: unknown): string => {
  if (value === null || value === undefined) return '\\N';
  const text =
    value instanceof Date
      ? value.toISOString()
      : typeof value === 'string'
        ? value
        : JSON.stringify(value);
  return text
    .replace(/\\/g, '\\\\')
    .replace(/\t/g, '\\t')
    .replace(/\n/g, '\\n')
    .replace(/\r/g, '\\r');
};

/** COPY ... FROM STDIN with pg alone: a Submittable speaking the copy-in sub-protocol. */
function copyIn(client: Client, text: string, data: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const submittable = {
      submit: (connection: { query(text: string): void }) => connection.query(text),
      handleCopyInResponse: (connection: {
        sendCopyFromChunk(chunk: Buffer): void;
        endCopyFrom(): void;
      }) => {
        for (let i = 0; i < data.length; i += 64 * 1024) {
          connection.sendCopyFromChunk(data.subarray(i, i + 64 * 1024));
        }
        connection.endCopyFrom();
      },
      handleCommandComplete: () => undefined,
      handleReadyForQuery: () => resolve(),
      handleError: (error: Error) => reject(error),
      handleRowDescription: () => undefined,
      handleDataRow: () => undefined,
      handleEmptyQuery: () => undefined,
    };
    void (client as unknown as { query(s: unknown): unknown }).query(submittable);
  });
}

const LINE_COLUMNS = [
  'tenant_id',
  'bank_account_id',
  'statement_id',
  'sequence',
  'line_key',
  'format',
  'file_line',
  'value_date',
  'booking_date',
  'direction',
  'amount',
  'narration',
  'reference',
  'reference_key',
  'utr',
  'cheque_number',
  'balance',
  'reversal',
  'possible_duplicate',
  'raw',
];

/**
 * The baseline: the rows an import wrote (read back), loaded again by COPY into a fresh account of
 * the same tenant, in one transaction, through pg alone; milliseconds.
 */
async function copyBaseline(
  owner: Client,
  tenantId: string,
  statementId: string,
  label: string,
): Promise<{ ms: number; rows: number }> {
  const [{ id: accountId }] = (
    await owner.query<{ id: string }>(
      `INSERT INTO bank_accounts (tenant_id, name, account_number, currency, created_by)
       VALUES ($1, $2, upper(substr(md5(random()::text), 1, 14)), 'INR', 'bench') RETURNING id`,
      [tenantId, `baseline ${label}`],
    )
  ).rows;
  const [{ id: baselineStatement }] = (
    await owner.query<{ id: string }>(
      `INSERT INTO bank_statements (tenant_id, bank_account_id, file_sha256, file_bytes, format, encoding, imported_by)
       VALUES ($1, $2, sha256(random()::text::bytea), 0, 'csv', 'UTF-8', 'bench') RETURNING id`,
      [tenantId, accountId],
    )
  ).rows;
  const { rows } = await owner.query<Record<string, unknown>>(
    `SELECT ${LINE_COLUMNS.map((c) => (c === 'line_key' ? `'\\x' || encode(line_key, 'hex') AS line_key` : c)).join(', ')}
       FROM bank_lines WHERE statement_id = $1 ORDER BY sequence`,
    [statementId],
  );
  const data = Buffer.from(
    rows
      .map((r) =>
        LINE_COLUMNS.map((c) =>
          copyText(
            c === 'bank_account_id' ? accountId : c === 'statement_id' ? baselineStatement : r[c],
          ),
        ).join('\t'),
      )
      .join('\n') + '\n',
  );
  const start = process.hrtime.bigint();
  await owner.query('BEGIN');
  await copyIn(owner, `COPY bank_lines (${LINE_COLUMNS.join(', ')}) FROM STDIN`, data);
  await owner.query('COMMIT');
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, rows: rows.length };
}

/**
 * The import's INSERTs alone: the file parsed into the same chunks first (not timed), then
 * INSERT_LINES_SQL chunk after chunk as the application role under RLS, into a fresh account of
 * the tenant, in one transaction; ms of the statements and the commit.
 */
async function insertsOnly(
  appUrl: string,
  owner: Client,
  tenantId: string,
  text: string,
  label: string,
  accountNumber: string,
): Promise<number> {
  const [{ id: accountId }] = (
    await owner.query<{ id: string }>(
      `INSERT INTO bank_accounts (tenant_id, name, account_number, currency, created_by)
       VALUES ($1, $2, upper(substr(md5(random()::text), 1, 14)), 'INR', 'bench') RETURNING id`,
      [tenantId, `inserts ${label}`],
    )
  ).rows;
  const parser = parseCsvStatement(
    decodeStatement(Buffer.from(text)).text,
    {},
    { accountNumber, currency: 'INR' },
  );
  const keys = new LineKeys();
  const chunks = [emptyColumns()];
  for (let next = await parser.next(); !next.done; next = await parser.next()) {
    if (chunks[chunks.length - 1].lineKey.length >= LINES_PER_CHUNK) chunks.push(emptyColumns());
    append(chunks[chunks.length - 1], next.value, keys.next(next.value));
  }
  const app = new Client({ connectionString: appUrl });
  await app.connect();
  try {
    await app.query('BEGIN');
    await app.query(`SELECT set_config('app.tenant_id', $1, true)`, [tenantId]);
    const { rows } = await app.query<{ id: string }>(
      INSERT_STATEMENT_SQL,
      insertStatementParams({
        tenantId,
        accountId,
        sha256: Buffer.alloc(32, label.length),
        bytes: text.length,
        format: 'csv',
        encoding: 'UTF-8',
        actor: 'bench',
      }),
    );
    const start = process.hrtime.bigint();
    let base = 0;
    for (const lines of chunks) {
      await app.query(
        INSERT_LINES_SQL,
        insertLinesParams({
          tenantId,
          accountId,
          statementId: rows[0].id,
          format: 'csv',
          base: String(base),
          lines,
        }),
      );
      base += lines.lineKey.length;
    }
    await app.query('COMMIT');
    return Number(process.hrtime.bigint() - start) / 1e6;
  } finally {
    await app.end();
  }
}

/** The parse alone, as the import does it, without a database: ms. */
async function parseOnly(text: string, accountNumber: string): Promise<number> {
  const start = process.hrtime.bigint();
  const decoded = decodeStatement(Buffer.from(text)).text;
  const parser = parseCsvStatement(decoded, {}, { accountNumber, currency: 'INR' });
  const keys = new LineKeys();
  for (let next = await parser.next(); !next.done; next = await parser.next()) {
    keys.next(next.value);
    extractReferences(next.value.reference, next.value.narration);
  }
  return Number(process.hrtime.bigint() - start) / 1e6;
}

interface MatchReceiptRow {
  /** The receipt's reference as the bank writes it (bank_reference_key: no `UTR` label). */
  bank_ref: string;
  amount: string;
  received: string;
  next_day: string;
}

/**
 * A statement of `count` credits from the tenant's receipts: the first 70 % carry the receipt's
 * reference (rule REFERENCE), the next 20 % only its amount, the day after (AMOUNT_DATE), the
 * last 10 % are for amounts no receipt has (the bench data's receipts are under 51,000).
 */
function matchingStatement(receipts: MatchReceiptRow[], count: number): string {
  const exact = Math.round(count * 0.7);
  const byAmount = Math.round(count * 0.9);
  const transactions: HdfcTransaction[] = [];
  for (let i = 0; i < count; i++) {
    const r = receipts[i % receipts.length];
    if (i < exact) {
      transactions.push({
        date: r.received,
        narration: `NEFT CR-SBIN0001234-BUYER ${i} NAIR-BENCH REALTY-${r.bank_ref}`,
        reference: r.bank_ref.padStart(16, '0'),
        credit: r.amount,
      });
    } else if (i < byAmount) {
      transactions.push({
        date: r.received,
        valueDate: r.next_day,
        narration: `UPI-BUYER ${i} SHARMA-buyer${i}@okhdfcbank-HDFC0000123-PAYMENT`,
        reference: '0'.repeat(16),
        credit: r.amount,
      });
    } else {
      transactions.push({
        date: r.received,
        narration: `NEFT CR-ICIC0000104-UNKNOWN PAYER ${i}-BENCH REALTY`,
        reference: '0'.repeat(16),
        credit: `${60_000 + i}.37`,
      });
    }
  }
  transactions.sort((a, b) => a.date.localeCompare(b.date));
  return writeHdfcStatement({
    accountNumber: MATCH_ACCOUNT,
    holder: 'BENCH REALTY 0',
    ifsc: 'HDFC0001234',
    from: transactions[0].date,
    to: transactions[transactions.length - 1].date,
    openingBalance: '1000000.00',
    transactions,
  });
}

/**
 * The matching statement without its UPDATE of receipts: realisation kept off the receipts row
 * (bank_line_matches holds it already), the write side of that design at its cheapest.
 */
function withoutRealising(sql: string): string {
  const cte = /realised AS \(\s*UPDATE receipts[\s\S]*?RETURNING r\.id\s*\), /;
  const read = `(SELECT coalesce(array_agg(id), '{}') FROM realised)`;
  if (!cte.test(sql) || !sql.includes(read)) throw new Error('matchSql: no realised CTE');
  return sql.replace(cte, '').replace(read, `'{}'::uuid[]`);
}

/**
 * The import's matching statements alone, on the same lines: what the import's matching did is
 * undone (as the owner), then, as the application role under RLS, the lock and the matching
 * statement run as StatementImportService runs them; rolled back. ms of the two statements.
 */
async function replayMatching(
  owner: Client,
  tenantId: string,
  statementId: string,
  explain: boolean,
  dropIndexes: readonly string[] = [],
  offTheRow = false,
) {
  const lines = `SELECT id FROM bank_lines WHERE tenant_id = $1 AND statement_id = $2`;
  await owner.query('BEGIN');
  try {
    await owner.query(
      `UPDATE receipts SET bank_line_id = NULL, realised_on = NULL
        WHERE tenant_id = $1 AND bank_line_id IN (${lines})`,
      [tenantId, statementId],
    );
    for (const table of ['bank_line_matches', 'bank_line_history']) {
      await owner.query(
        `DELETE FROM ${table} WHERE tenant_id = $1 AND bank_line_id IN (${lines})`,
        [tenantId, statementId],
      );
    }
    await owner.query(
      `UPDATE bank_lines SET status = 'UNMATCHED', match_rule = NULL, suggestions = '[]'
        WHERE tenant_id = $1 AND statement_id = $2`,
      [tenantId, statementId],
    );
    // What realising costs in index upkeep: the same run without some of the receipts' indexes
    // (dropped in this transaction, rolled back with it).
    for (const index of dropIndexes) await owner.query(`DROP INDEX ${index}`);
    await owner.query('SET LOCAL ROLE finance_app');
    await owner.query(`SELECT set_config('app.tenant_id', $1, true)`, [tenantId]);
    const params = matchParams({
      tenantId,
      currency: 'INR',
      scopeValue: statementId,
      statuses: ['UNMATCHED'],
      receipts: null,
      amountDate: true,
      actor: 'bench',
    });
    if (explain) {
      for (const [sql, values] of [
        [matchLockSql('statement'), params.slice(0, 5)],
        [matchSql('statement'), params],
      ] as const) {
        const { rows } = await owner.query<{ 'QUERY PLAN': string }>(
          `EXPLAIN (ANALYZE, BUFFERS, WAL) ${sql}`,
          [...values],
        );
        process.stdout.write(`\n${rows.map((row) => row['QUERY PLAN']).join('\n')}\n`);
      }
      return null;
    }
    const start = process.hrtime.bigint();
    await owner.query(matchLockSql('statement'), params.slice(0, 5));
    const { rows } = await owner.query<{ auto: number; suggested: number; unmatched: number }>(
      offTheRow ? withoutRealising(matchSql('statement')) : matchSql('statement'),
      params,
    );
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    return { ms, counts: rows[0] };
  } finally {
    await owner.query('ROLLBACK');
  }
}

/** The receipts table's update counters and the WAL position (pg_stat_user_tables, pg_current_wal_lsn). */
interface WriteMark {
  upd: number;
  hot: number;
  lsn: string;
}

async function writeMark(owner: Client): Promise<WriteMark> {
  await owner.query('SELECT pg_stat_clear_snapshot()');
  const { rows } = await owner.query<WriteMark>(
    `SELECT n_tup_upd::float8 AS upd, n_tup_hot_upd::float8 AS hot, pg_current_wal_lsn()::text AS lsn
       FROM pg_stat_user_tables WHERE relid = 'receipts'::regclass`,
  );
  return rows[0];
}

/**
 * What a write between two marks did to `receipts`: its updates and the HOT share of them
 * (another backend's counters reach pg_stat_user_tables within about a second of its commit:
 * polled until they move), the WAL it wrote in all, and (pg_walinspect) the WAL records and bytes
 * that touched `receipts` or one of its indexes.
 */
async function receiptWrites(owner: Client, before: WriteMark, expectUpdates: boolean) {
  let after = await writeMark(owner);
  for (let i = 0; i < 100 && expectUpdates && after.upd === before.upd; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    after = await writeMark(owner);
  }
  await new Promise((resolve) => setTimeout(resolve, 1200));
  const settled = await writeMark(owner);
  await owner.query('CREATE EXTENSION IF NOT EXISTS pg_walinspect');
  const { rows } = await owner.query<{ records: number; bytes: number; total: number }>(
    `WITH rels AS (
       SELECT pg_relation_filenode(c.oid) AS filenode FROM pg_class c
        WHERE c.oid = 'receipts'::regclass
           OR c.oid IN (SELECT indexrelid FROM pg_index WHERE indrelid = 'receipts'::regclass)
     ), records AS (
       SELECT DISTINCT b.start_lsn, b.record_length
         FROM pg_get_wal_block_info($1::pg_lsn, $2::pg_lsn) b
        WHERE b.relfilenode IN (SELECT filenode FROM rels)
     )
     SELECT count(*)::float8 AS records, coalesce(sum(record_length), 0)::float8 AS bytes,
            ($2::pg_lsn - $1::pg_lsn)::float8 AS total
       FROM records`,
    [before.lsn, settled.lsn],
  );
  const updates = settled.upd - before.upd;
  const hot = settled.hot - before.hot;
  return {
    updates,
    hot,
    hotShare: updates === 0 ? 0 : hot / updates,
    walRecords: rows[0].records,
    walBytes: rows[0].bytes,
    walTotal: rows[0].total,
  };
}

/**
 * Receipts recorded one after another in pg alone (ReceiptWritesService's statements, the
 * tenant transaction's set-up and the outbox's event), alternately with and without the bank
 * check the service runs after them (LOCK_OPEN_LINES_OF_AMOUNTS_SQL over the tenant's unmatched
 * credit lines); receipts/s of each, and the check's own time.
 */
async function recordWithAndWithoutCheck(
  appUrl: string,
  owner: Client,
  tenantId: string,
  explain: boolean,
) {
  const { rows: splits } = await owner.query<{ id: string }>(
    `SELECT id FROM demand_splits
      WHERE tenant_id = $1 AND status <> 'CANCELLED' AND amount - paid_amount > 100000
      ORDER BY id LIMIT $2`,
    [tenantId, 2 * RECORD_PAIRS],
  );
  if (splits.length < 2 * RECORD_PAIRS) throw new Error('record: not enough open splits');
  const { rows: openLines } = await owner.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM bank_lines
      WHERE tenant_id = $1 AND status = 'UNMATCHED' AND direction = 'CREDIT'`,
    [tenantId],
  );
  const tenant = {
    tenantId,
    tenantKey: 't0',
    currency: 'INR',
    locale: 'en-IN',
    timezone: 'Asia/Kolkata',
    fyStartMonth: 4,
    actor: 'bench',
  };
  const pool = new Pool({ connectionString: appUrl, max: 1 });
  const db = poolDb(pool);
  const today = new Date().toISOString().slice(0, 10);
  let next = 0;
  let checkMs = 0;
  let checksWithLines = 0;
  const record = async (check: boolean) => {
    const n = next++;
    const start = process.hrtime.bigint();
    await db.transaction(async (q) => {
      await q(TENANT_SETUP_SQL, [tenantId, '2000ms', '30000ms']);
      const view = await recordReceipt(q, tenant, {
        demandSplit: splits[n].id,
        amount: 1234 + n / 100,
        paymentMode: 'NEFT',
        transactionRef: `SBINN${String(n).padStart(17, '0')}`,
        receivedDate: today,
      });
      await q(APPEND_EVENTS_SQL, [tenantId, 'bench', ['receipt.recorded'], [JSON.stringify(view)]]);
      if (check) {
        const checkStart = process.hrtime.bigint();
        const lines = await q(
          LOCK_OPEN_LINES_OF_AMOUNTS_SQL,
          openLinesOfAmountsParams({
            tenantId,
            amounts: [view.amount.amount.toFixed(2)],
            currency: 'INR',
          }),
        );
        checkMs += Number(process.hrtime.bigint() - checkStart) / 1e6;
        if (lines.length > 0) checksWithLines++;
      }
    }, true);
    return Number(process.hrtime.bigint() - start) / 1e6;
  };
  try {
    if (explain) {
      await db.transaction(async (q) => {
        await q(TENANT_SETUP_SQL, [tenantId, '2000ms', '30000ms']);
        const plan = await q<{ 'QUERY PLAN': string }>(
          `EXPLAIN (ANALYZE, BUFFERS) ${LOCK_OPEN_LINES_OF_AMOUNTS_SQL}`,
          openLinesOfAmountsParams({ tenantId, amounts: ['1234.00'], currency: 'INR' }),
        );
        process.stdout.write(`\n${plan.map((row) => row['QUERY PLAN']).join('\n')}\n`);
      }, false);
    }
    for (let i = 0; i < 20; i++) await record(i % 2 === 0); // warm-up
    next = 0;
    checkMs = 0;
    checksWithLines = 0;
    const withMs: number[] = [];
    const withoutMs: number[] = [];
    for (let i = 0; i < RECORD_PAIRS; i++) {
      // Alternate which goes first, so drift favours neither.
      if (i % 2 === 0) {
        withMs.push(await record(true));
        withoutMs.push(await record(false));
      } else {
        withoutMs.push(await record(false));
        withMs.push(await record(true));
      }
    }
    const perSecond = (ms: number[]) => (1000 * ms.length) / ms.reduce((a, b) => a + b, 0);
    return {
      with: perSecond(withMs),
      without: perSecond(withoutMs),
      medianWith: median(withMs),
      medianWithout: median(withoutMs),
      checkMs: checkMs / RECORD_PAIRS,
      checksWithLines,
      openLines: openLines[0].n,
    };
  } finally {
    await pool.end();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      receipts: { type: 'string', default: '1000000' },
      tenants: { type: 'string', default: '50' },
      'hot-share': { type: 'string', default: '0.4' },
      lines: { type: 'string', default: '10000' },
      big: { type: 'string', default: '100000' },
      match: { type: 'string', default: '10000' },
      explain: { type: 'boolean', default: false },
      contiguous: { type: 'boolean', default: false },
      'no-ablation': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(HELP);
    return;
  }
  const receipts = Number(values.receipts);
  const tenants = Number(values.tenants);
  const lines = Number(values.lines);
  const big = Number(values.big);
  const matchLines = Number(values.match);
  const { hot, other } = spreadReceipts(receipts, tenants, Number(values['hot-share']));
  const dir = mkdtempSync(join(tmpdir(), 'finance-bank-bench-'));
  const env = await startBenchEnvironment(
    { STATEMENT_MAX_BYTES: '67108864' },
    { saved: savedDataSet(receipts, tenants, Number(values['hot-share'])) },
  );
  try {
    const created = await benchTenants(env.owner, {
      restored: env.restored,
      tenants,
      spread: { hot, other },
      create: (key, name) => env.createTenant(key, name),
    });
    const tenant = created[0];
    const headers = env.headers(tenant.key);
    const account = async (accountNumber: string) => {
      const res = await fetch(`${env.baseUrl}/bank-accounts`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ name: 'HDFC collections', accountNumber, currency: 'INR' }),
      });
      if (res.status !== 201) throw new Error(`account: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { id: string }).id;
    };
    const first = await account(ACCOUNT);
    const second = await account(BIG_ACCOUNT);

    const files = {
      first: statement(ACCOUNT, 0, lines),
      overlap: statement(ACCOUNT, lines / 2, lines),
      big: statement(BIG_ACCOUNT, 0, big),
    };
    const paths = Object.fromEntries(
      Object.entries(files).map(([name, text]) => {
        const path = join(dir, `${name}.csv`);
        writeFileSync(path, text);
        return [name, path];
      }),
    ) as Record<keyof typeof files, string>;
    const parseMs = {
      first: await parseOnly(files.first, ACCOUNT),
      overlap: await parseOnly(files.overlap, ACCOUNT),
      big: await parseOnly(files.big, BIG_ACCOUNT),
    };
    const sizes = Object.fromEntries(
      Object.entries(files).map(([name, text]) => [name, Buffer.byteLength(text)]),
    ) as Record<keyof typeof files, number>;

    const uploadTo = (accountId: string, path: string) => () =>
      upload(`${env.baseUrl}/bank-accounts/${accountId}/statements`, headers, path);
    const latestStatement = async (accountId: string) =>
      (
        await env.owner.query<{ id: string }>(
          'SELECT id FROM bank_statements WHERE bank_account_id = $1 ORDER BY imported_at DESC LIMIT 1',
          [accountId],
        )
      ).rows[0].id;

    const runs: {
      name: string;
      target: number;
      bytes: number;
      upload: Upload;
      parse: number | null;
      statement: string | null;
      copy: { ms: number; rows: number } | null;
      inserts: number | null;
      text: string | null;
      account: string;
      rss: [number, number];
      heap: number;
    }[] = [];
    const measure = async (
      name: string,
      target: number,
      bytes: number,
      fn: () => Promise<Upload>,
      parse: number | null,
      baselineOf: string | null,
      expectStatus: number,
      text: string | null,
      accountNumber = ACCOUNT,
    ) => {
      const m = await sampled(fn);
      if (m.result.status !== expectStatus) {
        throw new Error(`${name}: ${m.result.status} ${JSON.stringify(m.result.body)}`);
      }
      runs.push({
        name,
        target,
        bytes,
        upload: m.result,
        parse,
        statement: baselineOf ? await latestStatement(baselineOf) : null,
        copy: null,
        inserts: null,
        text,
        account: accountNumber,
        rss: [m.rssBefore, m.rssPeak],
        heap: m.heapPeak,
      });
    };
    await env.owner.query('VACUUM ANALYZE');
    await measure(
      `${lines} lines`,
      3000,
      sizes.first,
      uploadTo(first, paths.first),
      parseMs.first,
      first,
      201,
      files.first,
    );
    await measure(
      'the same file again',
      500,
      sizes.first,
      uploadTo(first, paths.first),
      null,
      null,
      200,
      null,
    );
    await measure(
      `${lines / 2} old + ${lines / 2} new`,
      2000,
      sizes.overlap,
      uploadTo(first, paths.overlap),
      parseMs.overlap,
      first,
      201,
      null,
    );
    await measure(
      `${big} lines`,
      30000,
      sizes.big,
      uploadTo(second, paths.big),
      parseMs.big,
      second,
      201,
      files.big,
      BIG_ACCOUNT,
    );
    // The baselines, once every import is measured (their rows, in accounts of their own, would
    // otherwise be candidates of the later imports' look-alike probes).
    for (const r of runs) {
      if (r.statement) r.copy = await copyBaseline(env.owner, tenant.id, r.statement, r.name);
      if (r.text) {
        r.inserts = await insertsOnly(env.appUrl, env.owner, tenant.id, r.text, r.name, r.account);
      }
    }

    // Matching: the hot tenant's own receipts of one month, as the bank credited them.
    const matchAccount = await account(MATCH_ACCOUNT);
    const { rows: monthReceipts } = await env.owner.query<MatchReceiptRow>(
      `SELECT bank_reference_key(transaction_ref) AS bank_ref, amount::text AS amount,
              to_char(received_date, 'YYYY-MM-DD') AS received,
              to_char(received_date + 1, 'YYYY-MM-DD') AS next_day
         FROM receipts
        WHERE tenant_id = $1 AND status = 'ACTIVE' AND payment_mode NOT IN ('CASH', 'TDS')
          AND bank_line_id IS NULL AND received_date >= date '2026-01-01'
        ORDER BY ${values.contiguous ? 'ctid' : 'received_date, id'} LIMIT $2`,
      [tenant.id, Math.round(matchLines * 0.9)],
    );
    const matchPath = join(dir, 'match.csv');
    const matchText = matchingStatement(monthReceipts, matchLines);
    writeFileSync(matchPath, matchText);
    await env.owner.query('ANALYZE bank_lines');
    const mark = await writeMark(env.owner);
    const matched = await sampled(uploadTo(matchAccount, matchPath));
    if (matched.result.status !== 201) {
      throw new Error(`match: ${matched.result.status} ${JSON.stringify(matched.result.body)}`);
    }
    const matchStatement = await latestStatement(matchAccount);
    const { rows: realisedRows } = await env.owner.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM bank_line_matches m
         JOIN bank_lines l ON l.tenant_id = m.tenant_id AND l.id = m.bank_line_id
        WHERE l.statement_id = $1 AND m.kind = 'CREDIT'`,
      [matchStatement],
    );
    const realisedCount = realisedRows[0].n;
    const writes = await receiptWrites(env.owner, mark, realisedCount > 0);
    if (values.explain) await replayMatching(env.owner, tenant.id, matchStatement, true);
    const replay = await replayMatching(env.owner, tenant.id, matchStatement, false);
    if (!replay) throw new Error('replay: no figures');
    const { rows: receiptIndexes } = await env.owner.query<{ indexname: string }>(
      `SELECT c.relname AS indexname
         FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
        WHERE i.indrelid = 'receipts'::regclass
          AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)
          AND c.relname NOT IN ('receipts_bank_ref_idx', 'receipts_active_amount_idx')`,
    );
    // The events of that import made in SQL again (the SELECT alone, as the owner): what the
    // flush's INSERT ... SELECT spends building them.
    const format = moneyFormat('INR', 'en-IN');
    let eventsMs: number | null = null;
    if (format) {
      const { rows: ids } = await env.owner.query<{ lines: string[]; receipts: string[] }>(
        `SELECT array_agg(DISTINCT l.id) AS lines, array_agg(m.receipt_id) AS receipts
           FROM bank_lines l JOIN bank_line_matches m
             ON m.tenant_id = l.tenant_id AND m.bank_line_id = l.id AND m.kind = 'CREDIT'
          WHERE l.statement_id = $1`,
        [matchStatement],
      );
      // As the service writes them: the application role under RLS, the outbox's statement
      // (rolled back).
      await env.owner.query('BEGIN');
      try {
        await env.owner.query('SET LOCAL ROLE finance_app');
        await env.owner.query(`SELECT set_config('app.tenant_id', $1, true)`, [tenant.id]);
        const start = process.hrtime.bigint();
        await env.owner.query(appendMadeEventsSql(matchEventsSql(format)), [
          tenant.id,
          'bench',
          ids[0].lines,
          ids[0].receipts,
        ]);
        eventsMs = Number(process.hrtime.bigint() - start) / 1e6;
      } finally {
        await env.owner.query('ROLLBACK');
      }
    }
    const offTheRow = await replayMatching(env.owner, tenant.id, matchStatement, false, [], true);
    const ablation = !values['no-ablation'];
    const withoutTrigram = ablation
      ? await replayMatching(env.owner, tenant.id, matchStatement, false, [
          'receipts_text_trgm_idx',
        ])
      : null;
    const withoutIndexes = ablation
      ? await replayMatching(
          env.owner,
          tenant.id,
          matchStatement,
          false,
          receiptIndexes.map((i) => i.indexname),
        )
      : null;
    const recording = await recordWithAndWithoutCheck(
      env.appUrl,
      env.owner,
      tenant.id,
      values.explain,
    );

    const mb = (bytes: number) => (bytes / 1e6).toFixed(1);
    const table = [
      '| import | MB | lines / imported | import ms | target ms | parse alone ms | its INSERTs alone ms | COPY of the rows written ms | import / COPY | service RSS MB: before → peak (growth) | heap peak MB |',
      '|---|---|---|---|---|---|---|---|---|---|---|',
      ...runs.map((r) => {
        const ratio = r.copy && r.copy.ms > 0 ? (r.upload.ms / r.copy.ms).toFixed(1) : '—';
        return `| ${r.name} | ${mb(r.bytes)} | ${r.upload.body.lines} / ${r.upload.body.imported} | ${r.upload.ms.toFixed(0)} ${r.upload.ms <= r.target ? '✓' : '✗'} | ${r.target} | ${r.parse?.toFixed(0) ?? '—'} | ${r.inserts?.toFixed(0) ?? '—'} | ${r.copy ? `${r.copy.ms.toFixed(0)} (${r.copy.rows} rows)` : '—'} | ${ratio} | ${mb(r.rss[0])} → ${mb(r.rss[1])} (+${mb(r.rss[1] - r.rss[0])}) | ${mb(r.heap)} |`;
      }),
    ];
    process.stdout.write(
      `\nBank statement import on the hot tenant (${hot} receipts; ${receipts} over ${tenants} tenants; node ${process.version})\n\n` +
        `Each file uploaded by a client in another process (import ms: the request, as the client saw it); ` +
        `COPY: the rows that import wrote, loaded again through pg alone in one transaction; ` +
        `parse alone: decode, CSV, line keys and UTR reading in this process, no database; ` +
        `its INSERTs alone: the import's chunked INSERT statements replayed through pg as the application role (RLS on), the parse not timed.\n\n${table.join('\n')}\n`,
    );
    const m = (matched.result.body as unknown as { matched: Record<string, number> }).matched;
    const r = replay.counts;
    process.stdout.write(
      `\nMatching on import: ${matchLines} credits of the hot tenant's receipts (70 % by reference, 20 % amount and date, 10 % unknown)\n\n` +
        '| import + match ms (target 3000) | matching SQL alone ms | import / matching SQL | auto / suggested / unmatched | the same replayed | MB | service RSS MB: before → peak |\n' +
        '|---|---|---|---|---|---|---|\n' +
        `| ${matched.result.ms.toFixed(0)} ${matched.result.ms <= 3000 ? '✓' : '✗'} | ${replay.ms.toFixed(0)} | ${(matched.result.ms / replay.ms).toFixed(1)} | ${m.auto} / ${m.suggested} / ${m.unmatched} | ${r.auto} / ${r.suggested} / ${r.unmatched} | ${mb(Buffer.byteLength(matchText))} | ${mb(matched.rssBefore)} → ${mb(matched.rssPeak)} |\n` +
        `\nIts ${realisedCount} receipt.realised and matched lines' bank-line.matched events written again by the outbox's INSERT ... SELECT as the application role (rolled back): ${eventsMs?.toFixed(0) ?? '—'} ms\n` +
        `\nThe matching SQL alone without its UPDATE of receipts (realisation kept off the receipts row): ${offTheRow?.ms.toFixed(0)} ms, against ${replay.ms.toFixed(0)} ms with it\n` +
        `\nRealising the ${realisedCount} receipts in that import: ${writes.updates} updates of receipts, ${writes.hot} of them HOT (HOT share ${(100 * writes.hotShare).toFixed(1)} %); ` +
        `WAL touching receipts or its indexes ${(writes.walRecords / Math.max(realisedCount, 1)).toFixed(1)} records and ${(writes.walBytes / Math.max(realisedCount, 1)).toFixed(0)} bytes per realised receipt ` +
        `(${writes.walRecords} records, ${mb(writes.walBytes)} MB); the whole import wrote ${mb(writes.walTotal)} MB of WAL (${(writes.walTotal / Math.max(realisedCount, 1)).toFixed(0)} bytes per realised receipt)\n` +
        (ablation
          ? `\nThe matching SQL alone again: without the receipts' trigram index ${withoutTrigram?.ms.toFixed(0)} ms; ` +
            `without the ${receiptIndexes.length} of their indexes that are neither constraints nor matching's own two ${withoutIndexes?.ms.toFixed(0)} ms ` +
            `(realising a receipt rewrites its row, and every index gains an entry)\n`
          : '') +
        `\nRecording a receipt, pg alone, ${RECORD_PAIRS} pairs alternated, one client; the tenant has ${recording.openLines} unmatched credit lines, ${recording.checksWithLines} of the checks found one of the receipt's amount\n\n` +
        '| with the bank check receipts/s | without receipts/s | with / without (target ≥ 0.9) | median ms with / without | the check alone ms |\n|---|---|---|---|---|\n' +
        `| ${recording.with.toFixed(0)} | ${recording.without.toFixed(0)} | ${(recording.with / recording.without).toFixed(2)} ${recording.with / recording.without >= 0.9 ? '✓' : '✗'} | ` +
        `${recording.medianWith.toFixed(2)} / ${recording.medianWithout.toFixed(2)} | ${recording.checkMs.toFixed(3)} |\n`,
    );
  } finally {
    await env.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

runBench(main);
