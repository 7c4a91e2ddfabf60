import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { AppError } from '@/common/errors/app-error';
import { TenantContext } from '@/common/tenancy/tenant-context';
import {
  RECEIPT_ROW_SELECT,
  ReceiptPage,
  ReceiptRow,
  ReceiptView,
  toReceiptPage,
  toReceiptView,
} from './dto/receipt.view';
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { parseSearchRequest, RawSearchQuery } from './search/search-request';
import { CompiledSearch, compileSearch } from './search/search-sql';

/** Exact totals kept per (tenant, receipt write version, query); ~100 bytes an entry. */
const COUNT_CACHE_ENTRIES = 20_000;

/**
 * Reads receipts. Search is a deferred join: the page's ids come from the receipts table alone
 * (joined-table filters as EXISTS, ordered by an index), then only those rows are joined to
 * their split and demand. The total is counted on the receipts table, and not at all when the
 * page itself proves it (a short page) or when the same count was taken since the tenant's last
 * receipt write (paging through results, dashboards polling).
 */
@Injectable()
export class ReceiptsService {
  private readonly counts = new LRUCache<string, number>({ max: COUNT_CACHE_ENTRIES });

  constructor(private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>) {}

  async search(tenant: TenantContext, query: RawSearchQuery, body: unknown): Promise<ReceiptPage> {
    const parsed = parseSearchRequest(query, body);
    const sql = compileSearch(parsed, tenant.tenantId);
    const em = this.txHost.tx;

    const ids = (await em.query<{ id: string }[]>(sql.idsSql, sql.idsParams)).map((r) => r.id);
    const offset = parsed.page * parsed.size;
    const pageIsShort = ids.length > 0 ? ids.length < parsed.size : parsed.page === 0;
    const totalElements = pageIsShort ? offset + ids.length : await this.count(tenant, sql);

    const content = await this.loadByIds(tenant, ids);
    return toReceiptPage(content, parsed.page, parsed.size, totalElements);
  }

  /**
   * Marks the tenant's receipts as changed (call in the transaction of every receipt write).
   * Counts cached under the previous version are never used again, on any instance.
   */
  async markChanged(tenant: TenantContext): Promise<void> {
    await this.txHost.tx.query(
      `INSERT INTO receipt_search_versions (tenant_id, version) VALUES ($1, 1)
       ON CONFLICT (tenant_id) DO UPDATE SET version = receipt_search_versions.version + 1`,
      [tenant.tenantId],
    );
  }

  private async count(tenant: TenantContext, sql: CompiledSearch): Promise<number> {
    const em = this.txHost.tx;
    const [row] = await em.query<{ version: string }[]>(
      `SELECT version::text AS version FROM receipt_search_versions WHERE tenant_id = $1`,
      [tenant.tenantId],
    );
    const key = createHash('sha256')
      .update(
        `${tenant.tenantId}\n${row?.version ?? '0'}\n${sql.countSql}\n${JSON.stringify(sql.countParams)}`,
      )
      .digest('base64url');
    const cached = this.counts.get(key);
    if (cached !== undefined) return cached;
    const [{ total }] = await em.query<{ total: string }[]>(sql.countSql, sql.countParams);
    const count = Number(total);
    this.counts.set(key, count);
    return count;
  }

  async findOne(tenant: TenantContext, id: string): Promise<ReceiptView> {
    const [receipt] = await this.loadByIds(tenant, [id]);
    if (!receipt) throw AppError.notFound('RECEIPT_NOT_FOUND', `Receipt ${id} was not found.`);
    return receipt;
  }

  /** Receipts with their split and demand, in the order of `ids`. */
  async loadByIds(tenant: TenantContext, ids: string[]): Promise<ReceiptView[]> {
    if (ids.length === 0) return [];
    const rows = await this.txHost.tx.query<ReceiptRow[]>(
      `${RECEIPT_ROW_SELECT} WHERE r.tenant_id = $1 AND r.id = ANY($2::uuid[])`,
      [tenant.tenantId, ids],
    );
    const byId = new Map(rows.map((row) => [row.id, row]));
    return ids.flatMap((id) => {
      const row = byId.get(id);
      return row ? [toReceiptView(row, tenant)] : [];
    });
  }
}
