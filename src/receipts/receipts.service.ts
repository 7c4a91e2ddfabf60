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
  toReceiptView,
} from './dto/receipt.view';
import { parseSearchRequest, RawSearchQuery } from './search/search-request';
import { compileSearch } from './search/search-sql';

/**
 * Reads receipts. Search is a deferred join: the page's ids come from the receipts table alone
 * (joined-table filters as EXISTS, ordered by an index), then only those rows are joined to
 * their split and demand. The total is counted on the receipts table, and not at all when the
 * page itself proves it (a short page).
 */
@Injectable()
export class ReceiptsService {
  constructor(private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>) {}

  async search(tenant: TenantContext, query: RawSearchQuery, body: unknown): Promise<ReceiptPage> {
    const parsed = parseSearchRequest(query, body);
    const sql = compileSearch(parsed, tenant.tenantId);
    const em = this.txHost.tx;

    const ids = (await em.query<{ id: string }[]>(sql.idsSql, sql.idsParams)).map((r) => r.id);
    const offset = parsed.page * parsed.size;
    const pageIsShort = ids.length > 0 ? ids.length < parsed.size : parsed.page === 0;
    const totalElements = pageIsShort
      ? offset + ids.length
      : Number((await em.query<{ total: string }[]>(sql.countSql, sql.countParams))[0].total);

    const content = await this.loadByIds(tenant, ids);
    const totalPages = Math.ceil(totalElements / parsed.size);
    return {
      content,
      empty: content.length === 0,
      first: parsed.page === 0,
      last: parsed.page >= totalPages - 1,
      from: content.length > 0 ? offset + 1 : 0,
      to: content.length > 0 ? offset + content.length : 0,
      pageNumber: parsed.page,
      pageSize: parsed.size,
      totalElements,
      totalPages,
    };
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
