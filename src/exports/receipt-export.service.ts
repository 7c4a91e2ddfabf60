import { validationFailed } from '@/http/errors/validation';
import { Clock } from '@/platform/clock/clock';
import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Response } from 'express';
import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { Pool, PoolClient } from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { sidePool } from '@/database/side-pool';
import { DataSource } from 'typeorm';
import { AppConfig } from '@/platform/config/app-config';
import { Metrics } from '@/platform/metrics/metrics';
import { TenantContext } from '@/common/tenant-context';
import { TENANT_SETUP_SQL, TenantSetupRow } from '@/http/tenancy/tenant-setup.sql';
import { isDatabaseUnavailable } from '@/platform/lifecycle/database-availability';
import { consistencyTokenOf } from '@/platform/replicas/consistency-token';
import { ReadReplicas, REPLAYED_SQL, Replica } from '@/platform/replicas/read-replicas';
import { tenantForbidden } from '@/http/tenancy/tenant.guard';
import { TenantsService } from '@/http/tenancy/tenants.service';
import { RECEIPT_SEARCH } from '@/receipts/search/search-fields';
import { compileSearch } from '@/receipts/search/receipt-search.sql';
import { RawSearchQuery, parseSearchRequest } from '@/search/search-request';
import { EXPORT_BUSY, EXPORT_TOO_LARGE } from './exports.errors';
import { DATE_COLUMNS, EXPORT_COLUMNS, toExportRecord } from './receipt-export-rows';
import { CrlfRows } from './crlf-rows';
import { drained, writeXlsxSheet, XlsxSheet } from './xlsx-sheet';
import {
  BEGIN_EXPORT_SQL,
  cappedCountSql,
  COMMIT_SQL,
  copyExportCsvSql,
  declareExportCursorSql,
  ExportRow,
  fetchExportSql,
  ROLLBACK_SQL,
} from './receipt-export.sql';

export const EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Excel's sheet limit is 1,048,576 rows; an XLSX export stops at a round million. */
export const MAX_XLSX_ROWS = 1_000_000;
/** Rows per FETCH: large enough to amortise the round trip, small enough to stop promptly. */
const FETCH_ROWS = 1000;
const RETRY_AFTER_SECONDS = 5;

const MEDIA_TYPES: Readonly<Record<ExportFormat, string>> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

export interface ExportQuery extends RawSearchQuery {
  format?: unknown;
}

/**
 * Streams every receipt a search matches as CSV or XLSX (POST /receipts/export). Each export runs on a
 * pool of its own (EXPORT_POOL_SIZE connections, no queue: one more is 503 EXPORT_BUSY), in one
 * read-only REPEATABLE READ transaction (one snapshot for the whole file) with the tenant set
 * for row-level security as every request's transaction is. CSV is one `COPY ... TO STDOUT`
 * whose cells PostgreSQL formats (copyExportCsvSql), read only as fast as the response drains;
 * XLSX reads a server-side cursor FETCH_ROWS at a time only when the response has room. Either
 * way a slow client slows the reading, and the service's memory stays flat whatever the size.
 * The export COMMITs and frees its place once the last row is read, before the file's last
 * bytes. A client that goes away stops the reading and closes the connection; a failure after
 * the headers destroys the response, so a truncated file never looks complete.
 */
@Injectable()
export class ReceiptExportService implements OnModuleDestroy {
  /** The primary's export pool, and one per read replica (made on its first export). */
  private readonly pools = new Map<string, Pool>();
  private readonly primaryUrl?: string;
  private readonly sessionOptions?: string;
  private running = 0;

  constructor(
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly tenants: TenantsService,
    private readonly replicas: ReadReplicas,
    @InjectDataSource() dataSource: DataSource,
    private readonly metrics: Metrics,
  ) {
    const options = dataSource.options as { url?: string; extra?: Record<string, unknown> };
    this.primaryUrl = options.url;
    this.sessionOptions = options.extra?.options as string | undefined;
    this.poolFor(undefined);
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all([...this.pools.values()].map((pool) => pool.end()));
  }

  /** `export` on the primary, `export:replica-1` ... on a replica (db_pool_connections). */
  private poolFor(replica: Replica | undefined): Pool {
    const name = replica ? `export:${replica.name}` : 'export';
    let pool = this.pools.get(name);
    if (!pool) {
      // The next export reconnects after a broken connection.
      const created = sidePool({
        connectionString: replica ? replica.url : this.primaryUrl,
        max: this.config.exportPoolSize,
        connectionTimeoutMillis: this.config.dbConnectTimeoutMs,
        application_name: 'finance-service-export',
        options: this.sessionOptions,
      });
      this.metrics.registerPool(name, () => created);
      this.pools.set(name, created);
      pool = created;
    }
    return pool;
  }

  /**
   * A connection in the export's read-only snapshot, tenant set: on a usable replica that has
   * replayed the request's X-Consistency-Token (docs/operations.md, read replicas), else on the primary.
   */
  private async begin(tenant: TenantContext, token: bigint | undefined): Promise<PoolClient> {
    const replica = this.replicas.configured ? this.replicas.pick(token) : undefined;
    if (replica) {
      let client: PoolClient | undefined;
      try {
        client = await this.poolFor(replica).connect();
        // Waited for before BEGIN: a repeatable-read snapshot is taken at the first statement.
        const caughtUp =
          token === undefined ||
          (await this.replicas.replayedTo(token, undefined, async () => {
            const { rows } = await client!.query<{ replayed: string | null }>(REPLAYED_SQL);
            return rows[0]?.replayed;
          }));
        if (caughtUp) {
          await this.setUp(client, tenant);
          this.replicas.served('replica');
          return client;
        }
        this.replicas.served('primary:token-not-replayed');
      } catch (error) {
        if (!isDatabaseUnavailable(error)) {
          await client?.query(ROLLBACK_SQL).catch(() => undefined);
          client?.release();
          throw error;
        }
        this.replicas.failed(replica, error);
        this.replicas.served('primary:replica-failed');
      }
      await client?.query(ROLLBACK_SQL).catch(() => undefined);
      client?.release();
    } else if (this.replicas.configured) {
      this.replicas.served('primary:no-usable-replica');
    }
    const client = await this.poolFor(undefined).connect();
    try {
      await this.setUp(client, tenant);
    } catch (error) {
      await client.query(ROLLBACK_SQL).catch(() => undefined);
      client.release();
      throw error;
    }
    return client;
  }

  /** BEGIN and the tenant's transaction-local settings; refuses a deactivated tenant. */
  private async setUp(client: PoolClient, tenant: TenantContext): Promise<void> {
    await client.query(BEGIN_EXPORT_SQL);
    const { rows } = await client.query<TenantSetupRow>(TENANT_SETUP_SQL, [
      tenant.tenantId,
      `${this.config.dbLockTimeoutMs}ms`,
      `${this.config.exportStatementTimeoutMs}ms`,
    ]);
    if (!rows[0]?.active) {
      // Deactivated since the guard read it from the cache: refuse as the interceptor does.
      this.tenants.forget(tenant.tenantKey);
      throw tenantForbidden();
    }
  }

  async export(
    tenant: TenantContext,
    query: ExportQuery,
    body: unknown,
    res: Response,
  ): Promise<void> {
    const format = parseFormat(query.format);
    const parsed = parseSearchRequest(RECEIPT_SEARCH, { sort: query.sort }, body);
    const sql = compileSearch(parsed, tenant.tenantId);
    if (this.running >= this.config.exportPoolSize) {
      throw EXPORT_BUSY.errorWith(
        { headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) } },
        this.config.exportPoolSize,
      );
    }
    this.running++;
    let client: PoolClient | undefined;
    let copy: Readable | undefined;
    let placeHeld = true;
    /** Gives the export's place and connection back (destroying it when it cannot be reused). */
    const free = (destroy: boolean) => {
      if (!placeHeld) return;
      placeHeld = false;
      client?.release(destroy || undefined);
      client = undefined;
      this.running--;
    };
    /**
     * Called once every row is read and before the file's last bytes are written: a client that
     * starts its next export as soon as this one ends finds the place free.
     */
    const commit = async () => {
      await client!.query(COMMIT_SQL);
      free(false);
    };
    try {
      client = await this.begin(tenant, consistencyTokenOf(res.req.headers['x-consistency-token']));
      if (format === 'xlsx') {
        await refuseTooLarge(client, sql.matchSql('r.id'), sql.countParams);
        await client.query(declareExportCursorSql(sql), sql.countParams);
      } else {
        copy = client.query(copyTo(copyExportCsvSql(sql, tenant.currency)));
      }

      const day = this.clock.today(tenant).replaceAll('-', '');
      res.status(200);
      res.setHeader('Content-Type', MEDIA_TYPES[format]);
      res.setHeader(
        'Content-Disposition',
        `attachment; filename="receipts-${tenant.tenantKey}-${day}.${format}"`,
      );
      res.setHeader('Cache-Control', 'no-store');
      if (copy) await writeCsv(copy, res, commit);
      else {
        // The request stream is destroyed once its body is read; only the response tells.
        let gone = false;
        res.once('close', () => (gone = !res.writableFinished));
        await writeXlsx(
          cursorRows(client, () => gone, commit),
          tenant,
          res,
        );
      }
    } catch (error) {
      if (!res.headersSent) {
        if (placeHeld) await client?.query(ROLLBACK_SQL).catch(() => undefined);
        throw error;
      }
      // Headers sent: the only honest signal left is a broken connection. The database
      // connection goes too, which ends the export's statement and transaction at once (a COPY
      // cut short leaves its connection mid-protocol: it could not be reused anyway).
      if (!res.destroyed) res.destroy(error as Error);
      free(true);
    } finally {
      free(false);
    }
  }
}

function parseFormat(raw: unknown): ExportFormat {
  if (raw === undefined) return 'csv';
  const format = EXPORT_FORMATS.find((f) => f === raw);
  if (format === undefined) {
    const message = `must be one of ${EXPORT_FORMATS.join(', ')}`;
    throw validationFailed([{ field: 'format', message }]);
  }
  return format;
}

export async function refuseTooLarge(
  client: PoolClient,
  matchSql: string,
  params: unknown[],
): Promise<void> {
  const { rows } = await client.query<{ n: number }>(
    cappedCountSql(matchSql, MAX_XLSX_ROWS + 1),
    params,
  );
  if (rows[0].n > MAX_XLSX_ROWS) {
    const message = `xlsx holds at most ${MAX_XLSX_ROWS} rows; use csv`;
    throw EXPORT_TOO_LARGE.errorWith({ errors: [{ field: 'format', message }] }, MAX_XLSX_ROWS);
  }
}

/**
 * The cursor's rows, FETCH_ROWS at a time, read only as fast as they are consumed; `done` runs
 * once the last row is read (the export's COMMIT, before the file's last bytes).
 */
async function* cursorRows(
  client: PoolClient,
  gone: () => boolean,
  done: () => Promise<void>,
): AsyncGenerator<ExportRow> {
  for (;;) {
    if (gone()) throw new Error('the client went away');
    const { rows } = await client.query<ExportRow>(fetchExportSql(FETCH_ROWS));
    yield* rows;
    if (rows.length < FETCH_ROWS) break;
  }
  await done();
}

/** The byte order mark and the header row, before the first row (docs/api.md). */
const CSV_START = Buffer.from(`\uFEFF${EXPORT_COLUMNS.join(',')}\r\n`, 'utf8');

/**
 * Streams `copy` (the rows of `COPY ... (FORMAT csv)`) to `res` as the export's CSV: the byte
 * order mark and header at once (PostgreSQL may sort every row before it sends the first), then
 * the rows, ending in CRLF (CrlfRows). The last bytes are held back until `done` (the COMMIT,
 * which frees the export's place) has run. Reading waits for the response to drain, so a slow
 * client slows the COPY.
 */
async function writeCsv(copy: Readable, res: Response, done: () => Promise<void>): Promise<void> {
  let gone = false;
  res.once('close', () => (gone = !res.writableFinished));
  const rows = new CrlfRows();
  res.write(CSV_START.subarray(0, -1));
  let held: Buffer = CSV_START.subarray(-1);
  for await (const chunk of copy as AsyncIterable<Buffer>) {
    if (gone) throw new Error('the client went away');
    if (!res.write(held)) await drained(res);
    held = rows.convert(chunk);
  }
  if (gone) throw new Error('the client went away');
  await done();
  res.end(held);
  await finished(res);
}

/** The receipt export's one worksheet: the CSV's columns, with typed amount and date cells. */
const RECEIPTS_SHEET: XlsxSheet = {
  name: 'Receipts',
  columns: EXPORT_COLUMNS.map((key) => ({
    key,
    width:
      key === 'id' ||
      key.endsWith('Id') ||
      ['unit', 'demand', 'booking', 'demandSplit'].includes(key)
        ? 38
        : 18,
    type:
      key === 'amount'
        ? 'money'
        : DATE_COLUMNS.has(key)
          ? 'date'
          : key === 'created'
            ? 'datetime'
            : 'text',
  })),
};

async function writeXlsx(rows: AsyncIterable<ExportRow>, tenant: TenantContext, res: Response) {
  async function* records() {
    for await (const row of rows) yield toExportRecord(row, tenant);
  }
  await writeXlsxSheet(res, RECEIPTS_SHEET, records());
}
