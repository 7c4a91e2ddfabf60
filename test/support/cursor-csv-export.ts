/**
 * The receipt export's CSV as the service wrote it before issue 30: a cursor FETCHed 1,000 rows
 * at a time, each row made a record in JavaScript (toExportRecord) and written by csv-stringify.
 * The COPY path must give exactly these bytes (test/receipts-export.e2e-spec.ts), and the export
 * benchmark measures it next to the COPY path (bench/finance.bench.ts).
 */
import { stringify } from 'csv-stringify';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ClientBase } from 'pg';
import type { TenantContext } from '@/common/tenant-context';
import { EXPORT_COLUMNS, toExportRecord } from '@/exports/receipt-export-rows';
import {
  BEGIN_EXPORT_SQL,
  COMMIT_SQL,
  declareExportCursorSql,
  ExportRow,
  fetchExportSql,
  ROLLBACK_SQL,
} from '@/exports/receipt-export.sql';
import { TENANT_SETUP_SQL } from '@/http/tenancy/tenant-setup.sql';
import { compileSearch } from '@/receipts/search/receipt-search.sql';
import { RECEIPT_SEARCH } from '@/receipts/search/search-fields';
import { parseSearchRequest } from '@/search/search-request';

/**
 * Writes the CSV of every receipt of `tenant` the search (`sort`, `filters`) finds to `out`,
 * through `client` (the application login: row-level security applies), in one read-only
 * snapshot. Resolves with the number of rows.
 */
export async function writeCursorCsv(
  client: ClientBase,
  tenant: Pick<TenantContext, 'tenantId' | 'currency'>,
  sort: string | undefined,
  filters: unknown,
  out: Writable,
): Promise<number> {
  const sql = compileSearch(
    parseSearchRequest(RECEIPT_SEARCH, sort === undefined ? {} : { sort }, filters),
    tenant.tenantId,
  );
  let count = 0;
  await client.query(BEGIN_EXPORT_SQL);
  try {
    await client.query(TENANT_SETUP_SQL, [tenant.tenantId, '5000ms', '600000ms']);
    await client.query(declareExportCursorSql(sql), sql.countParams);
    const records = Readable.from(
      (async function* () {
        for (;;) {
          const { rows } = await client.query<ExportRow>(fetchExportSql(1000));
          for (const row of rows) yield toExportRecord(row, tenant as TenantContext);
          count += rows.length;
          if (rows.length < 1000) return;
        }
      })(),
    );
    await pipeline(
      records,
      stringify({
        bom: true,
        header: true,
        columns: [...EXPORT_COLUMNS],
        record_delimiter: '\r\n',
        quoted_match: /[\r\n]/,
      }),
      out,
    );
    await client.query(COMMIT_SQL);
    return count;
  } catch (error) {
    await client.query(ROLLBACK_SQL).catch(() => undefined);
    throw error;
  }
}

/** writeCursorCsv's bytes. */
export async function cursorCsv(
  client: ClientBase,
  tenant: Pick<TenantContext, 'tenantId' | 'currency'>,
  sort: string | undefined,
  filters: unknown,
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk);
      callback();
    },
  });
  await writeCursorCsv(client, tenant, sort, filters, sink);
  return Buffer.concat(chunks);
}
