/**
 * The XLSX writer of every file this service makes (the receipt export, the statement of
 * account): one worksheet through exceljs's streaming writer, money as numeric cells with two
 * decimals, dates as date cells, text guarded against formula injection.
 */
import type ExcelJSModule from 'exceljs';
import { once } from 'node:events';
import { PassThrough, Writable } from 'node:stream';
import { guardFormula } from './receipt-export-rows';

/**
 * `text` (guarded: guardFormula), `money` (numeric text such as `150000.00`, written as a number
 * with the format 0.00), `number` (numeric text such as `7.5` or `12`, a number in the General
 * format), `date` (`YYYY-MM-DD`, a date cell), `datetime` (an ISO 8601 instant).
 */
export type XlsxCellType = 'text' | 'money' | 'number' | 'date' | 'datetime';

export interface XlsxColumn {
  key: string;
  /** The heading; defaults to the key. */
  header?: string;
  width: number;
  type: XlsxCellType;
}

export interface XlsxSheet {
  name: string;
  columns: readonly XlsxColumn[];
  /**
   * Label and value rows above the table (what the file is of), then an empty row, then the
   * headings. None: the headings are the first row.
   */
  preamble?: readonly (readonly [label: string, value: string])[];
}

/** A row: each column's key to its text (null: an empty cell). */
export type XlsxRecord = Readonly<Record<string, string | null>>;

const FORMATS: Readonly<Record<XlsxCellType, string | undefined>> = {
  text: undefined,
  money: '0.00',
  number: undefined,
  date: 'yyyy-mm-dd',
  datetime: 'yyyy-mm-dd hh:mm:ss',
};

/**
 * Resolves once `stream` has drained or closed; the listeners go with it (a race of two
 * `once`s would leave the loser's behind on every wait).
 */
export function drained(stream: Writable): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });
}

/** Rows between checks of the stream's back-pressure. */
const DRAIN_EVERY = 1000;

function cell(type: XlsxCellType, value: string | null): unknown {
  if (value === null) return null;
  switch (type) {
    case 'money':
    case 'number':
      // numeric(18,2) text: at most 15 significant digits, so the double is the exact decimal.
      return Number(value);
    case 'date':
      return new Date(`${value}T00:00:00Z`);
    case 'datetime':
      return new Date(value);
    default:
      return guardFormula(value);
  }
}

/** One worksheet of a workbook and its rows. */
export interface XlsxSheetRows {
  sheet: XlsxSheet;
  rows: AsyncIterable<XlsxRecord> | Iterable<XlsxRecord>;
}

/**
 * Writes `rows` as the one worksheet of an XLSX file to `stream`, which it ends. exceljs writes
 * without back-pressure, so every DRAIN_EVERY rows it waits for the stream to drain (or close).
 */
export function writeXlsxSheet(
  stream: Writable,
  sheet: XlsxSheet,
  rows: AsyncIterable<XlsxRecord> | Iterable<XlsxRecord>,
): Promise<void> {
  return writeXlsxWorkbook(stream, [{ sheet, rows }]);
}

/** The same for several worksheets, in the order given (names unique, at most 31 characters). */
export async function writeXlsxWorkbook(
  stream: Writable,
  sheets: readonly XlsxSheetRows[],
): Promise<void> {
  // Loaded on the first XLSX, not at boot: ~28 MB of memory most processes never use.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const ExcelJS = require('exceljs') as typeof ExcelJSModule;
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: true });
  for (const { sheet, rows } of sheets) {
    const worksheet = workbook.addWorksheet(sheet.name);
    const preamble = sheet.preamble ?? [];
    worksheet.columns = sheet.columns.map((c) => {
      const numFmt = FORMATS[c.type];
      return {
        // With a preamble the headings are a row of their own below it.
        header: preamble.length > 0 ? undefined : (c.header ?? c.key),
        key: c.key,
        width: c.width,
        style: numFmt ? { numFmt } : {},
      };
    });
    if (preamble.length > 0) {
      for (const [label, value] of preamble) {
        const row = worksheet.addRow([guardFormula(label), guardFormula(value)]);
        // The columns' number formats are for the table's cells, not these.
        row.eachCell((c) => (c.numFmt = '@'));
        row.commit();
      }
      worksheet.addRow([]).commit();
      worksheet.addRow(sheet.columns.map((c) => c.header ?? c.key)).commit();
    }
    let written = 0;
    for await (const row of rows) {
      const cells: Record<string, unknown> = {};
      for (const c of sheet.columns) cells[c.key] = cell(c.type, row[c.key] ?? null);
      worksheet.addRow(cells).commit();
      if (++written % DRAIN_EVERY === 0 && stream.writableNeedDrain) {
        await drained(stream);
      }
    }
    worksheet.commit();
  }
  await workbook.commit();
}

/** The same, as the bytes of the file: for a sheet small enough to hold in memory. */
export function xlsxBytes(
  sheet: XlsxSheet,
  rows: AsyncIterable<XlsxRecord> | Iterable<XlsxRecord>,
): Promise<Buffer> {
  return xlsxWorkbookBytes([{ sheet, rows }]);
}

/** Several worksheets as the bytes of one file: for sheets small enough to hold in memory. */
export async function xlsxWorkbookBytes(sheets: readonly XlsxSheetRows[]): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = once(out, 'end');
  await writeXlsxWorkbook(out, sheets);
  await ended;
  return Buffer.concat(chunks);
}
