/**
 * The bare floor: `node:http` + `pg`, no framework, running the service's search SQL (built by
 * the service's own compileSearch / RECEIPT_ROW_SELECT) as the application login, in one
 * transaction per request with `app.tenant_id`, lock_timeout and statement_timeout set as the
 * TenantTransactionInterceptor sets them, and building the body with the service's own pure
 * toReceiptView. It skips what a framework adds around the SQL: JWT verification, the request
 * log, rate limiting, validation of unknown parameters, problem+json on errors (a bare 500).
 */
import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Pool } from 'pg';
import { TenantContext } from '@/common/tenancy/tenant-context';
import {
  RECEIPT_ROW_SELECT,
  ReceiptRow,
  ReceiptView,
  toReceiptPage,
  toReceiptView,
} from '@/receipts/dto/receipt.view';
import { countDependencies, ExactCounts } from '@/receipts/search/exact-counts';
import { parseSearchRequest, RawSearchQuery } from '@/receipts/search/search-request';
import { compileSearch } from '@/receipts/search/search-sql';

export interface FloorServer {
  url: string;
  close(): Promise<void>;
}

export interface FloorOptions {
  appUrl: string;
  poolSize: number;
  lockTimeoutMs: number;
  statementTimeoutMs: number;
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

export async function startFloor(options: FloorOptions): Promise<FloorServer> {
  const pool = new Pool({ connectionString: options.appUrl, max: options.poolSize });
  // The same exact-count cache and SQL as ReceiptsService.
  const counts = new ExactCounts();

  const tenantOf = async (key: string): Promise<TenantContext | null> => {
    const { rows } = await pool.query<{
      id: string;
      key: string;
      currency: string;
      locale: string;
      timezone: string;
      fy_start_month: number;
    }>(
      'SELECT id, key, currency, locale, timezone, fy_start_month FROM tenants WHERE key = $1 AND active = true LIMIT 1',
      [key],
    );
    const t = rows[0];
    return t
      ? {
          tenantId: t.id,
          tenantKey: t.key,
          currency: t.currency,
          locale: t.locale,
          timezone: t.timezone,
          fyStartMonth: t.fy_start_month,
          actor: 'bench',
        }
      : null;
  };

  const search = async (tenant: TenantContext, query: RawSearchQuery, body: unknown) => {
    const parsed = parseSearchRequest(query, body);
    const sql = compileSearch(parsed, tenant.tenantId);
    const db = await pool.connect();
    try {
      await db.query('BEGIN');
      await db.query(
        `SELECT set_config('app.tenant_id', $1, true),
                set_config('lock_timeout', $2, true),
                set_config('statement_timeout', $3, true)`,
        [tenant.tenantId, `${options.lockTimeoutMs}ms`, `${options.statementTimeoutMs}ms`],
      );
      const ids = (await db.query<{ id: string }>(sql.idsSql, sql.idsParams)).rows.map((r) => r.id);
      const offset = parsed.page * parsed.size;
      const pageIsShort = ids.length > 0 ? ids.length < parsed.size : parsed.page === 0;
      const totalElements = pageIsShort
        ? offset + ids.length
        : await counts.count(
            async <T>(text: string, params: unknown[]) =>
              (await db.query(text, params)).rows as T[],
            tenant.tenantId,
            sql,
            countDependencies(parsed),
          );
      let content: ReceiptView[] = [];
      if (ids.length > 0) {
        const { rows } = await db.query<ReceiptRow>(
          `${RECEIPT_ROW_SELECT} WHERE r.tenant_id = $1 AND r.id = ANY($2::uuid[])`,
          [tenant.tenantId, ids],
        );
        const byId = new Map(rows.map((row) => [row.id, row]));
        content = ids.flatMap((id) => {
          const row = byId.get(id);
          return row ? [toReceiptView(row, tenant)] : [];
        });
      }
      await db.query('COMMIT');
      return toReceiptPage(content, parsed.page, parsed.size, totalElements);
    } catch (error) {
      await db.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      db.release();
    }
  };

  const server: Server = createServer((req, res) => {
    const handle = async () => {
      const url = new URL(req.url ?? '/', 'http://floor');
      const text = await readBody(req);
      if (req.method !== 'POST' || url.pathname !== '/receipts/search') {
        res.writeHead(404).end();
        return;
      }
      const key = req.headers['x-tenant-id'];
      const tenant = typeof key === 'string' ? await tenantOf(key) : null;
      if (!tenant) {
        res.writeHead(403).end();
        return;
      }
      const page = await search(tenant, rawQuery(url), text === '' ? undefined : JSON.parse(text));
      const json = JSON.stringify(page);
      res
        .writeHead(200, {
          'content-type': 'application/json; charset=utf-8',
          'content-length': Buffer.byteLength(json),
        })
        .end(json);
    };
    handle().catch((error: unknown) => {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
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
