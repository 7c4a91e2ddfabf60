import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Response } from 'express';
import { finished } from 'node:stream/promises';
import { Pool, PoolClient } from 'pg';
import { DataSource } from 'typeorm';
import { FieldError } from '@/common/app-error';
import { isValidLocalDate, localDateFields } from '@/common/dates/local-date';
import { TenantContext } from '@/common/tenant-context';
import { sidePool } from '@/database/side-pool';
import { EXPORT_BUSY } from '@/exports/exports.errors';
import { drained } from '@/exports/xlsx-sheet';
import { validationFailed } from '@/http/errors/validation';
import { TENANT_SETUP_SQL, TenantSetupRow } from '@/http/tenancy/tenant-setup.sql';
import { tenantForbidden } from '@/http/tenancy/tenant.guard';
import { TenantsService } from '@/http/tenancy/tenants.service';
import { Clock } from '@/platform/clock/clock';
import { AppConfig } from '@/platform/config/app-config';
import { Metrics } from '@/platform/metrics/metrics';
import { toBooksSettings } from './books-settings.service';
import {
  BEGIN_BOOKS_SQL,
  BOOKS_SETTINGS_SQL,
  BooksSettingsRow,
  COMMIT_SQL,
  DECLARE_VOUCHERS_CURSOR_SQL,
  fetchVouchersSql,
  ROLLBACK_SQL,
  tenantParams,
  vouchersParams,
  VouchersCursorRow,
} from './books.sql';
import {
  CSV_HEAD,
  csvRows,
  ledgerParents,
  TALLY_TAIL,
  tallyHead,
  tallyLedger,
  tallyVoucher,
} from './voucher-files';
import { BooksSettings, voucherOf } from './vouchers';

export const VOUCHER_FORMATS = ['csv', 'tally', 'tally-masters'] as const;
export type VoucherFormat = (typeof VOUCHER_FORMATS)[number];

/** The longest period one file covers (a leap year's days). */
export const MAX_PERIOD_DAYS = 366;
/** Events per FETCH: amortises the round trip, small enough to stop promptly. */
const FETCH_ROWS = 1000;
const RETRY_AFTER_SECONDS = 5;

const MEDIA_TYPES: Readonly<Record<VoucherFormat, string>> = {
  csv: 'text/csv; charset=utf-8',
  tally: 'application/xml; charset=utf-8',
  'tally-masters': 'application/xml; charset=utf-8',
};
const EXTENSIONS: Readonly<Record<VoucherFormat, string>> = {
  csv: 'csv',
  tally: 'xml',
  'tally-masters': 'xml',
};

export interface VouchersQuery {
  from?: unknown;
  to?: unknown;
  format?: unknown;
}

interface Period {
  from: string;
  to: string;
  format: VoucherFormat;
}

const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / 86_400_000;

/** The period and format of a request, or 400 VALIDATION_FAILED naming every bad field. */
export function parseVouchersQuery(query: VouchersQuery): Period {
  const errors: FieldError[] = [];
  const date = (field: 'from' | 'to'): string | undefined => {
    const raw = query[field];
    if (raw === undefined || raw === '') {
      errors.push({ field, message: `${field} is required (YYYY-MM-DD)` });
      return undefined;
    }
    const fields = typeof raw === 'string' ? localDateFields(raw) : undefined;
    if (!fields || !isValidLocalDate(fields)) {
      errors.push({ field, message: `${field} must be a real date written YYYY-MM-DD` });
      return undefined;
    }
    return raw as string;
  };
  const from = date('from');
  const to = date('to');
  const format = query.format === undefined ? 'csv' : query.format;
  if (!(VOUCHER_FORMATS as readonly unknown[]).includes(format)) {
    errors.push({
      field: 'format',
      message: `format must be one of ${VOUCHER_FORMATS.join(', ')}`,
    });
  }
  if (from !== undefined && to !== undefined) {
    if (from > to) errors.push({ field: 'to', message: 'to must not be before from' });
    else if (dayNumber(to) - dayNumber(from) > MAX_PERIOD_DAYS) {
      errors.push({
        field: 'to',
        message: `to must be at most ${MAX_PERIOD_DAYS} days after from`,
      });
    }
  }
  if (errors.length > 0) throw validationFailed(errors);
  return { from: from!, to: to!, format: format as VoucherFormat };
}

/** Writes `text` to `res`, waiting while its buffer is full (a slow client slows the reading). */
async function write(res: Response, text: string): Promise<void> {
  if (text !== '' && !res.write(text)) await drained(res);
}

/**
 * GET /books/vouchers: the vouchers (or the masters they use) of a period, streamed as the
 * receipt export streams (src/exports/receipt-export.service.ts): a pool of its own
 * (EXPORT_POOL_SIZE connections; one more is 503 EXPORT_BUSY), one read-only REPEATABLE READ
 * transaction with the tenant set for row-level security, and a server-side cursor read
 * FETCH_ROWS events at a time only when the response has room. Each event becomes one voucher
 * (vouchers.ts); a FETCH's vouchers are written as one piece, so memory stays flat (one batch)
 * whatever the period holds; only the
 * masters keep the names of the ledgers already written (one per booking of the period). The
 * transaction COMMITs and frees its place once the last event is read; a failure after the
 * headers destroys the response, so a truncated file never looks complete. Always on the
 * primary.
 */
@Injectable()
export class BooksService implements OnModuleDestroy {
  private readonly pool: Pool;
  private running = 0;

  constructor(
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly tenants: TenantsService,
    @InjectDataSource() dataSource: DataSource,
    metrics: Metrics,
  ) {
    const options = dataSource.options as { url?: string; extra?: Record<string, unknown> };
    const pool = sidePool({
      connectionString: options.url,
      max: config.exportPoolSize,
      connectionTimeoutMillis: config.dbConnectTimeoutMs,
      application_name: 'finance-service-books',
      options: options.extra?.options as string | undefined,
    });
    metrics.registerPool('books', () => pool);
    this.pool = pool;
  }

  async onModuleDestroy(): Promise<void> {
    await this.pool.end();
  }

  /** A connection in the file's read-only snapshot, tenant set; refuses a deactivated tenant. */
  private async begin(tenant: TenantContext): Promise<PoolClient> {
    const client = await this.pool.connect();
    try {
      await client.query(BEGIN_BOOKS_SQL);
      const { rows } = await client.query<TenantSetupRow>(TENANT_SETUP_SQL, [
        tenant.tenantId,
        `${this.config.dbLockTimeoutMs}ms`,
        `${this.config.exportStatementTimeoutMs}ms`,
      ]);
      if (!rows[0]?.active) {
        this.tenants.forget(tenant.tenantKey);
        throw tenantForbidden();
      }
      return client;
    } catch (error) {
      await client.query(ROLLBACK_SQL).catch(() => undefined);
      client.release();
      throw error;
    }
  }

  async vouchers(tenant: TenantContext, query: VouchersQuery, res: Response): Promise<void> {
    const period = parseVouchersQuery(query);
    if (this.running >= this.config.exportPoolSize) {
      throw EXPORT_BUSY.errorWith(
        { headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) } },
        this.config.exportPoolSize,
      );
    }
    this.running++;
    let client: PoolClient | undefined;
    let placeHeld = true;
    const free = (destroy: boolean) => {
      if (!placeHeld) return;
      placeHeld = false;
      client?.release(destroy || undefined);
      client = undefined;
      this.running--;
    };
    try {
      client = await this.begin(tenant);
      const [row] = (
        await client.query<BooksSettingsRow>(
          BOOKS_SETTINGS_SQL,
          tenantParams({ tenantId: tenant.tenantId }),
        )
      ).rows;
      const settings = toBooksSettings(row);
      await client.query(
        DECLARE_VOUCHERS_CURSOR_SQL,
        vouchersParams({
          tenantId: tenant.tenantId,
          from: period.from,
          to: period.to,
          timezone: tenant.timezone,
          currency: tenant.currency,
        }),
      );
      const name = `${period.format === 'tally-masters' ? 'masters' : 'vouchers'}-${tenant.tenantKey}-${period.from.replaceAll('-', '')}-${period.to.replaceAll('-', '')}.${EXTENSIONS[period.format]}`;
      res.status(200);
      res.setHeader('Content-Type', MEDIA_TYPES[period.format]);
      res.setHeader('Content-Disposition', `attachment; filename="${name}"`);
      res.setHeader('Cache-Control', 'no-store');
      let gone = false;
      res.once('close', () => (gone = !res.writableFinished));
      const events = this.events(
        client,
        () => gone,
        async () => {
          await client!.query(COMMIT_SQL);
          free(false);
        },
      );
      const tail = await writeFile(period.format, settings, events, res);
      res.end(tail);
      await finished(res);
    } catch (error) {
      if (!res.headersSent) {
        if (placeHeld) await client?.query(ROLLBACK_SQL).catch(() => undefined);
        throw error;
      }
      if (!res.destroyed) res.destroy(error as Error);
      free(true);
    } finally {
      free(false);
    }
  }

  /** The cursor's events, FETCH_ROWS at a time; `done` runs once the last one is read. */
  private async *events(
    client: PoolClient,
    gone: () => boolean,
    done: () => Promise<void>,
  ): AsyncGenerator<VouchersCursorRow[]> {
    for (;;) {
      if (gone()) throw new Error('the client went away');
      const { rows } = await client.query<VouchersCursorRow>(fetchVouchersSql(FETCH_ROWS));
      if (rows.length > 0) yield rows;
      if (rows.length < FETCH_ROWS) break;
    }
    await done();
  }
}

/**
 * Writes the file's head and then, for each batch of events (one FETCH), their pieces as one
 * write: a write per event cost a promise and a socket write each, a third of the export's time.
 * Answers the tail, written by the caller after the transaction is committed.
 */
export async function writeFile(
  format: VoucherFormat,
  settings: BooksSettings,
  batches: AsyncIterable<VouchersCursorRow[]>,
  res: Response,
): Promise<string> {
  if (format === 'csv') {
    await write(res, CSV_HEAD);
    for await (const events of batches) {
      let text = '';
      for (const event of events) {
        const voucher = voucherOf(event, settings);
        if (voucher) text += csvRows(voucher);
      }
      await write(res, text);
    }
    return '';
  }
  if (format === 'tally') {
    await write(res, tallyHead('Vouchers', settings.company));
    for await (const events of batches) {
      let text = '';
      for (const event of events) {
        const voucher = voucherOf(event, settings);
        if (voucher) text += tallyVoucher(voucher);
      }
      await write(res, text);
    }
    return TALLY_TAIL;
  }
  await write(res, tallyHead('All Masters', settings.company));
  const parents = ledgerParents(settings);
  const written = new Set<string>();
  for await (const events of batches) {
    let text = '';
    for (const event of events) {
      const voucher = voucherOf(event, settings);
      if (!voucher) continue;
      for (const line of voucher.lines) {
        if (written.has(line.ledger)) continue;
        written.add(line.ledger);
        const parent = line.party
          ? settings.partyGroup
          : (parents.get(line.ledger) ?? 'Bank Accounts');
        text += tallyLedger(line.ledger, parent);
      }
    }
    await write(res, text);
  }
  return TALLY_TAIL;
}
