/**
 * The statements of a receipt export: its read-only snapshot, the XLSX size check, and the
 * cursor it streams, which selects the search's matches joined as every receipt view is
 * (RECEIPT_ROW_COLUMNS) plus the creation columns, in the search's order.
 */
import { RECEIPT_ROW_COLUMNS, RECEIPT_ROW_JOINS, ReceiptRow } from '@/receipts/receipts.sql';
import { CompiledSearch } from '@/receipts/search/receipt-search.sql';

/** A ReceiptRow plus the creation columns the export adds. */
export type ExportRow = ReceiptRow & { created_at: Date; created_by: string };

const EXPORT_ROW_EXTRA_COLUMNS = 'r.created_at, r.created_by';

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
           FROM (${sql.matchSql('r.*')}) r ${RECEIPT_ROW_JOINS}
          ORDER BY ${sql.orderBy}`;

/** The next `rows` ExportRows of the `export` cursor. */
export const fetchExportSql = (rows: number): string => `FETCH ${rows} FROM export`;
