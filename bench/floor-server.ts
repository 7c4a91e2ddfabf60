/**
 * The bare floor: `node:http` + `pg`, no framework, running the service's SQL as the application
 * login, in one transaction per request with `app.tenant_id`, lock_timeout and statement_timeout
 * set as TenantTransactionInterceptor sets them, and building bodies with the service's own pure
 * mappers. SQL comes from the service's own builders and constants (compileSearch,
 * receipts.sql, receipt-writes.sql, numbering.sql, idempotency.sql); the two lookups the
 * service makes through TypeORM's `findOneBy` (tenant by key, tenant configuration) are rendered
 * once at start by TypeORM's query builder with the same find options, so their text is TypeORM's.
 * Like the service it keeps a tenant for TENANT_CACHE_TTL_MS and checks `active` in the first
 * statement of each transaction (TENANT_SETUP_SQL), and runs a search page as one statement
 * through the service's own searchPage (receipts/search/receipt-search-page.ts).
 * bench/floor.bench.ts checks all of it in the statement log. It skips what a framework adds
 * around the SQL: JWT verification (the actor is `bench`, the bench token's subject), the request
 * log, rate limiting, validation, problem+json on errors (a bare status).
 *
 * Run as a child process by floor.bench.ts (one JSON argument, FloorOptions; sends { url } over
 * IPC once listening; exits when the parent disconnects).
 */
import Decimal from 'decimal.js';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { Pool, PoolClient } from 'pg';
import { DataSource } from 'typeorm';
import { parseLocalDate } from '@/common/dates/local-date';
import { PaymentMode } from '@/common/domain/enums';
import {
  IDEMPOTENCY_FIND_SQL,
  IDEMPOTENCY_LOCK_SQL,
  idempotencyLockKey,
} from '@/platform/idempotency/idempotency.sql';
import { requestHash } from '@/http/idempotency/idempotency.interceptor';
import { lsnToToken, positionOfCommit } from '@/platform/replicas/consistency-token';
import { COMMIT_RETURNING_POSITION_SQL } from '@/platform/replicas/replicas.sql';
import { TenantContext } from '@/common/tenant-context';
import { decimalFromJson } from '@/common/field-validators';
import { dataSourceOptions } from '@/database/data-source-options';
import { counterKey, renderNumber } from '@/numbering/number-pattern';
import {
  CLAIM_NUMBER_SQL,
  NEXT_COUNTER_VALUE_SQL,
  NUMBERING_SETTINGS_SQL,
} from '@/numbering/numbering.sql';
import { numberRenderContext, resolveScheme } from '@/numbering/numbering.service';
import { ReceiptView, toReceiptView } from '@/receipts/dto/receipt.view';
import { ReceiptRow } from '@/receipts/receipts.sql';
import { APPEND_EVENTS_AND_IDEMPOTENCY_SQL, APPEND_EVENTS_SQL } from '@/platform/outbox/outbox.sql';
import { LOCK_OPEN_LINES_OF_AMOUNTS_SQL, openLinesOfAmountsParams } from '@/bank/bank-matching.sql';
import { reachesBank } from '@/common/domain/payment-modes';
import { pendingAmount } from '@/receipts/payment-status';
import {
  INSERT_RECEIPT_SQL,
  LOCK_SPLIT_AND_DEMAND_SQL,
  LockedSplitRow,
  insertReceiptParams,
  splitAndDemandPayment,
  UPDATE_SPLIT_AND_DEMAND_SQL,
} from '@/receipts/receipt-writes.sql';
import { ExactCounts, QueryFn } from '@/receipts/search/exact-counts';
import { searchPage } from '@/receipts/search/receipt-search-page';
import { RECEIPT_SEARCH } from '@/receipts/search/search-fields';
import { parseSearchRequest, RawSearchQuery } from '@/search/search-request';
import { TENANT_SETUP_SQL, TenantSetupRow } from '@/http/tenancy/tenant-setup.sql';
import { TENANT_CACHE_TTL_MS } from '@/http/tenancy/tenants.service';
import { NumberingSettings } from '@/numbering/numbering-settings';
import { Tenant } from '@/http/tenancy/tenant.entity';

export interface FloorOptions {
  appUrl: string;
  poolSize: number;
  lockTimeoutMs: number;
  statementTimeoutMs: number;
}

/** A failure answered with a bare status (the floor has no problem+json). */
export class FloorError extends Error {
  constructor(readonly status: number) {
    super(String(status));
  }
}

export interface RecordBody {
  demandSplit: string;
  amount: number;
  paymentMode: PaymentMode;
  transactionRef: string;
  receivedDate: string;
}

export interface Lookup {
  sql: string;
  /** Column alias in the result -> entity property. */
  columns: [alias: string, property: string][];
}

/** The SQL TypeORM writes for `findOneBy(where)` on `entity`, with the result's column aliases. */
function findOneBySql(ds: DataSource, entity: typeof Tenant, where: object): Lookup {
  const meta = ds.getMetadata(entity);
  const [sql] = ds
    .getRepository(entity)
    .createQueryBuilder(meta.name)
    .setFindOptions({ where, take: 1 })
    .getQueryAndParameters();
  return {
    sql,
    columns: meta.columns.map((c) => [`${meta.name}_${c.databaseName}`, c.propertyName]),
  };
}

function mapRow(row: Record<string, unknown>, lookup: Lookup): Record<string, unknown> {
  return Object.fromEntries(lookup.columns.map(([alias, prop]) => [prop, row[alias]]));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function rawQuery(url: URL): RawSearchQuery {
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(url.searchParams.keys())) {
    const all = url.searchParams.getAll(key);
    out[key] = all.length === 1 ? all[0] : all;
  }
  return out;
}

function send(
  res: ServerResponse,
  status: number,
  json: string,
  extra: Record<string, string> = {},
) {
  res
    .writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(json),
      ...extra,
    })
    .end(json);
}

/**
 * What the floor's routes need from the database: a statement outside any transaction (the
 * tenant lookup) and one transaction whose COMMIT, when asked, also returns the WAL position
 * (COMMIT_RETURNING_POSITION_SQL, as the service's writes commit). The bare floor runs both on a
 * `pg` pool; the stack floor (bench/stack-floor.ts) through TypeORM and nestjs-cls.
 */
export interface FloorDb {
  query: QueryFn;
  transaction<T>(
    work: (query: QueryFn) => Promise<T>,
    commitPosition: boolean,
  ): Promise<{ result: T; token?: string }>;
}

export interface FloorRoutes {
  tenantOf: (key: string) => Promise<TenantContext | null>;
  search: (tenant: TenantContext, query: RawSearchQuery, body: unknown) => Promise<unknown>;
  recordIdempotent: (
    tenant: TenantContext,
    key: string | undefined,
    path: string,
    body: RecordBody,
  ) => Promise<{ status: number; json: string; replayed: boolean; token?: string }>;
}

/** The SQL TypeORM writes for the guard's tenant lookup (`findOneBy({ key, active: true })`). */
export async function tenantLookupSql(appUrl: string): Promise<Lookup> {
  const ds = new DataSource(dataSourceOptions(appUrl, 1, 3000, [Tenant]));
  await ds.initialize();
  try {
    return findOneBySql(ds, Tenant, { key: 'k', active: true });
  } finally {
    await ds.destroy();
  }
}

/** ReceiptWritesService.record + NumberingService.allocate, statement for statement. */
export async function recordReceipt(
  query: QueryFn,
  tenant: TenantContext,
  body: RecordBody,
): Promise<ReceiptView> {
  const amount = decimalFromJson(body.amount);
  if (amount.lte(0)) throw new FloorError(422);
  const date = parseLocalDate(body.receivedDate);
  const splits = await query<LockedSplitRow>(LOCK_SPLIT_AND_DEMAND_SQL, [
    tenant.tenantId,
    body.demandSplit,
  ]);
  const split = splits[0];
  if (!split) throw new FloorError(404);
  if (split.status === 'CANCELLED' || split.d_status === 'CANCELLED') throw new FloorError(409);
  if (amount.gt(pendingAmount({ total: split.amount, paid: split.paid_amount }))) {
    throw new FloorError(422);
  }
  const payment = splitAndDemandPayment(tenant.tenantId, split, amount);
  await query(UPDATE_SPLIT_AND_DEMAND_SQL, payment.params);
  const configs = await query<NumberingSettings>(NUMBERING_SETTINGS_SQL, [tenant.tenantId]);
  const settings = configs[0] ?? null;
  const scheme = resolveScheme(settings, 'receipt');
  const ctx = numberRenderContext(tenant, scheme, { date }, date);
  const key = counterKey(scheme.parsed, ctx);
  let receiptNumber: string | undefined;
  while (receiptNumber === undefined) {
    const rows = await query<{ value: string }>(NEXT_COUNTER_VALUE_SQL, [
      tenant.tenantId,
      'receipt',
      key,
      String(scheme.numbering.starting),
    ]);
    const number = renderNumber(scheme.parsed, ctx, BigInt(rows[0].value));
    const claimed = await query(CLAIM_NUMBER_SQL, [tenant.tenantId, 'receipt', number]);
    if (claimed.length === 1) receiptNumber = number;
  }
  const inserted = await query<ReceiptRow>(
    INSERT_RECEIPT_SQL,
    insertReceiptParams({
      tenant,
      split,
      receiptNumber,
      amount,
      receipt: body,
      demandStatusChanged: payment.statusChanged,
    }),
  );
  return toReceiptView(inserted[0], tenant);
}

/**
 * The two routes, statement for statement as the service runs them, on any FloorDb: the
 * service's short-lived tenant cache and exact-count cache, one tenant transaction per request
 * with TENANT_SETUP_SQL first, search through searchPage, recording with the Idempotency-Key's
 * statements around ReceiptWritesService.record.
 */
export function floorRoutes(
  db: FloorDb,
  options: Pick<FloorOptions, 'lockTimeoutMs' | 'statementTimeoutMs'>,
  tenantLookup: Lookup,
): FloorRoutes {
  // The same exact-count cache as ReceiptsService, and the same short-lived tenant cache.
  const counts = new ExactCounts();
  const tenants = new Map<string, { tenant: TenantContext; until: number }>();

  const tenantOf = async (key: string): Promise<TenantContext | null> => {
    const hit = tenants.get(key);
    if (hit && hit.until > Date.now()) return hit.tenant;
    const rows = await db.query<Record<string, unknown>>(tenantLookup.sql, [key, true]);
    if (!rows[0]) return null;
    const t = mapRow(rows[0], tenantLookup) as unknown as Tenant;
    const tenant: TenantContext = {
      tenantId: t.id,
      tenantKey: t.key,
      currency: t.currency,
      locale: t.locale,
      timezone: t.timezone,
      fyStartMonth: t.fyStartMonth,
      actor: 'bench',
    };
    tenants.set(key, { tenant, until: Date.now() + TENANT_CACHE_TTL_MS });
    return tenant;
  };

  /** One tenant transaction, as TenantTransactionInterceptor runs it. */
  const inTransaction = <T>(
    tenant: TenantContext,
    work: (query: QueryFn) => Promise<T>,
    commitPosition = false,
  ) =>
    db.transaction(async (query) => {
      const setup = await query<TenantSetupRow>(TENANT_SETUP_SQL, [
        tenant.tenantId,
        `${options.lockTimeoutMs}ms`,
        `${options.statementTimeoutMs}ms`,
      ]);
      if (!setup[0]?.active) {
        tenants.delete(tenant.tenantKey);
        throw new FloorError(403);
      }
      return work(query);
    }, commitPosition);

  const search = async (tenant: TenantContext, query: RawSearchQuery, body: unknown) => {
    const parsed = parseSearchRequest(RECEIPT_SEARCH, query, body);
    return (await inTransaction(tenant, (q) => searchPage(q, tenant, parsed, counts))).result;
  };

  /** POST /receipts with the IdempotencyInterceptor's statements when a key is sent. */
  const recordIdempotent = async (
    tenant: TenantContext,
    key: string | undefined,
    path: string,
    body: RecordBody,
  ) => {
    const { result, token } = await inTransaction(
      tenant,
      async (query): Promise<{ status: number; json: string; replayed: boolean }> => {
        if (key === undefined) {
          const view = await recordReceipt(query, tenant, body);
          await bankCheck(query, tenant, view);
          await appendEvent(query, tenant, view);
          return { status: 201, json: JSON.stringify(view), replayed: false };
        }
        await query(IDEMPOTENCY_LOCK_SQL, [idempotencyLockKey(tenant.tenantId, key)]);
        const hash = requestHash('POST', path, body);
        const rows = await query<{
          request_hash: string;
          response_status: number;
          response_body: string;
        }>(IDEMPOTENCY_FIND_SQL, [tenant.tenantId, key]);
        if (rows[0]) {
          if (rows[0].request_hash !== hash) throw new FloorError(422);
          return { status: rows[0].response_status, json: rows[0].response_body, replayed: true };
        }
        const view: ReceiptView = await recordReceipt(query, tenant, body);
        await bankCheck(query, tenant, view);
        const json = JSON.stringify(view);
        // The service writes the key's response with the events, in one last statement.
        await query(APPEND_EVENTS_AND_IDEMPOTENCY_SQL, [
          tenant.tenantId,
          tenant.actor,
          ['receipt.recorded'],
          [json],
          key,
          hash,
          201,
          json,
          null,
        ]);
        return { status: 201, json, replayed: false };
      },
      true,
    );
    return { ...result, token };
  };

  /**
   * BankMatchingService.afterRecorded's look-up: the tenant's unmatched credit lines of the new
   * receipt's amount, locked (none in the bench's data, so no match follows).
   */
  const bankCheck = async (query: QueryFn, tenant: TenantContext, view: ReceiptView) => {
    if (!reachesBank(view.paymentMode) || view.transactionRef.trim() === '') return;
    const amount = new Decimal(view.amount.amount).toFixed(2);
    await query(
      LOCK_OPEN_LINES_OF_AMOUNTS_SQL,
      openLinesOfAmountsParams({
        tenantId: tenant.tenantId,
        amounts: [amount],
        currency: tenant.currency,
      }),
    );
  };

  /** The outbox's last statement before commit, as the service writes it (docs/api.md, Events). */
  const appendEvent = (query: QueryFn, tenant: TenantContext, view: ReceiptView) =>
    query(APPEND_EVENTS_SQL, [
      tenant.tenantId,
      tenant.actor,
      ['receipt.recorded'],
      [JSON.stringify(view)],
    ]);

  return { tenantOf, search, recordIdempotent };
}

/** FloorDb on a `pg` pool: START TRANSACTION ... COMMIT (or ROLLBACK) on one pooled client. */
export function poolDb(pool: Pool): FloorDb {
  const queryFn =
    (db: Pool | PoolClient): QueryFn =>
    async <T>(text: string, params: unknown[]) =>
      (await db.query(text, params)).rows as T[];
  return {
    query: queryFn(pool),
    transaction: async (work, commitPosition) => {
      const db = await pool.connect();
      try {
        await db.query('START TRANSACTION');
        const result = await work(queryFn(db));
        let token: string | undefined;
        if (commitPosition) {
          const results: unknown = await db.query(COMMIT_RETURNING_POSITION_SQL);
          token = lsnToToken(positionOfCommit(results));
        } else {
          await db.query('COMMIT');
        }
        return { result, token };
      } catch (error) {
        await db.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        db.release();
      }
    },
  };
}

export async function startFloor(
  options: FloorOptions,
): Promise<{ url: string; close(): Promise<void> }> {
  // The service's own connection settings (DateStyle, TimeZone), under another application_name.
  const { extra } = dataSourceOptions(options.appUrl, options.poolSize) as {
    extra: Record<string, unknown>;
  };
  const pool = new Pool({
    connectionString: options.appUrl,
    ...extra,
    application_name: 'bench-floor',
  });
  const { tenantOf, search, recordIdempotent } = floorRoutes(
    poolDb(pool),
    options,
    await tenantLookupSql(options.appUrl),
  );

  const server: Server = createServer((req, res) => {
    const handle = async () => {
      const url = new URL(req.url ?? '/', 'http://floor');
      const text = await readBody(req);
      const route = `${req.method} ${url.pathname}`;
      if (route !== 'POST /receipts/search' && route !== 'POST /receipts') {
        throw new FloorError(404);
      }
      const tenantKey = req.headers['x-tenant-id'];
      const tenant = typeof tenantKey === 'string' ? await tenantOf(tenantKey) : null;
      if (!tenant) throw new FloorError(403);
      const body: unknown = text === '' ? undefined : JSON.parse(text);
      if (route === 'POST /receipts/search') {
        send(res, 200, JSON.stringify(await search(tenant, rawQuery(url), body)));
        return;
      }
      const key = req.headers['idempotency-key'];
      const result = await recordIdempotent(
        tenant,
        typeof key === 'string' ? key : undefined,
        url.pathname,
        body as RecordBody,
      );
      send(res, result.status, result.json, {
        'x-consistency-token': result.token ?? '',
        ...(result.replayed ? { 'idempotent-replayed': 'true' } : {}),
      });
    };
    handle().catch((error: unknown) => {
      const status = error instanceof FloorError ? error.status : 500;
      res.writeHead(status, { 'content-type': 'text/plain' }).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await pool.end();
    },
  };
}

if (require.main === module) {
  startFloor(JSON.parse(process.argv[2]) as FloorOptions)
    .then((floor) => {
      process.on('disconnect', () => {
        void floor.close().finally(() => process.exit(0));
      });
      process.send?.({ url: floor.url });
    })
    .catch((error: unknown) => {
      process.stderr.write(
        `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
      process.exit(1);
    });
}
