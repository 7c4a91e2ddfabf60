/**
 * The statements of a receipt export: its read-only snapshot, the XLSX size check, and the
 * cursor it streams, which selects the search's matches joined as every receipt view is
 * (RECEIPT_ROW_COLUMNS) plus the creation columns, in the search's order.
 */
import { escapeLiteral } from 'pg';
import { RECEIPT_ROW_COLUMNS, RECEIPT_ROW_JOINS, ReceiptRow } from '@/receipts/receipts.sql';
import { CompiledSearch } from '@/receipts/search/receipt-search.sql';

/** A ReceiptRow plus the creation columns and the booking's number the export adds. */
export type ExportRow = ReceiptRow & {
  created_at: Date;
  created_by: string;
  b_booking_number: string;
};

const EXPORT_ROW_EXTRA_COLUMNS = 'r.created_at, r.created_by, b.booking_number AS b_booking_number';

/** The receipt's booking `b`, after RECEIPT_ROW_JOINS (same tenant, as every join). */
const EXPORT_BOOKING_JOIN = `
    JOIN bookings b ON b.tenant_id = r.tenant_id AND b.id = r.booking_id`;

/** One snapshot for the whole file; the export never writes. */
export const BEGIN_EXPORT_SQL = 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY';
export const COMMIT_SQL = 'COMMIT';
export const ROLLBACK_SQL = 'ROLLBACK';

/**
 * How many rows `matchSql` (a compiled search's matches) finds, counting no further than `cap`:
 * `{ n }`. Binds the search's countParams.
 */
export const cappedCountSql = (matchSql: string, cap: number): string =>
  `SELECT count(*)::int AS n FROM (SELECT 1 FROM (${matchSql}) m LIMIT ${cap}) x`;

/** The `export` cursor over every match of `sql`, in its order. Binds `sql.countParams`. */
export const declareExportCursorSql = (sql: CompiledSearch): string =>
  `DECLARE export NO SCROLL CURSOR FOR
         SELECT ${RECEIPT_ROW_COLUMNS}, ${EXPORT_ROW_EXTRA_COLUMNS}
           FROM (${sql.matchSql('r.*')}) r ${RECEIPT_ROW_JOINS} ${EXPORT_BOOKING_JOIN}
          ORDER BY ${sql.orderBy}`;

/** The next `rows` ExportRows of the `export` cursor. */
export const fetchExportSql = (rows: number): string => `FETCH ${rows} FROM export`;

/** A cell as toExportRecord guards it (guardFormula): a leading = + - @ tab or CR gets a `'`. */
const guarded = (column: string): string =>
  `CASE WHEN left(${column}, 1) IN ('=', '+', '-', '@', chr(9), chr(13)) ` +
  `THEN '''' || ${column} ELSE ${column} END`;

/**
 * The cells of one CSV export row, in EXPORT_COLUMNS order, each text exactly as toExportRecord
 * makes it: guarded text, amounts and dates as the ReceiptRow's `::text`, `created` as
 * Date#toISOString (UTC, milliseconds truncated, as node-postgres parses a timestamptz).
 * `NULLIF(..., '')` because COPY writes an empty string as `""` and NULL as nothing, where the
 * CSV has always had nothing for both.
 */
const csvCells = (currency: string): string[] =>
  [
    guarded('r.receipt_number'),
    'r.received_date::text',
    'r.status::text',
    'r.amount::text',
    escapeLiteral(currency),
    'r.payment_mode::text',
    guarded('r.transaction_ref'),
    'r.payer_type::text',
    's.payer_id::text',
    guarded('s.demand_split_number'),
    guarded('d.demand_number'),
    'd.demand_type::text',
    'd.due_date::text',
    'd.unit_id::text',
    guarded('d.buyer_name'),
    'r.id::text',
    'r.demand_split_id::text',
    'r.demand_id::text',
    'r.booking_id::text',
    `to_char(r.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
    guarded('r.created_by'),
    guarded('r.status_reason'),
    'r.status_changed_on::text',
    guarded('r.status_changed_by'),
    'r.realised_on::text',
    guarded('b.booking_number'),
  ].map((cell) => `NULLIF(${cell}, '')`);

/** A bind value as a literal: COPY takes no parameters. Search values are text or text arrays. */
function literal(value: unknown): string {
  if (typeof value === 'string') return escapeLiteral(value);
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) {
    const items = value.map((v) => `"${v.replace(/[\\"]/g, '\\$&')}"`);
    return escapeLiteral(`{${items.join(',')}}`);
  }
  throw new Error(`an export cannot inline a ${typeof value} search value`);
}

/**
 * `sql` with each `$n` replaced by `params[n-1]` as a quoted literal, which PostgreSQL types from
 * its context as it types an untyped parameter (every search value is cast or compared).
 * Compiled searches carry no literals of their own, so every `$n` is a placeholder.
 */
export function inlineParams(sql: string, params: readonly unknown[]): string {
  return sql.replace(/\$(\d+)(?!\d)/g, (_, n: string) => {
    const index = Number(n) - 1;
    if (index >= params.length) throw new Error(`no value for $${n}`);
    return literal(params[index]);
  });
}

/**
 * The CSV export as one `COPY ... TO STDOUT`: the columns of the cursor, formatted in SQL (see
 * csvCells), the search's values inlined. PostgreSQL's CSV quoting is RFC 4180's (a cell with a
 * comma, quote, CR or LF is quoted, quotes doubled) as the CSV writer's was; its rows end in LF
 * (crlf-rows.ts makes that CRLF). No header: the service writes it with the byte order mark.
 */
export const copyExportCsvSql = (sql: CompiledSearch, currency: string): string =>
  `COPY (SELECT ${csvCells(currency).join(', ')}
           FROM (${inlineParams(sql.matchSql('r.*'), sql.countParams)}) r ${RECEIPT_ROW_JOINS} ${EXPORT_BOOKING_JOIN}
          ORDER BY ${sql.orderBy}) TO STDOUT (FORMAT csv)`;
