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
import {
  countDependencies,
  ExactCounts,
  RECEIPT_WRITE_VERSION_SQL,
  ReceiptWriteChanges,
} from './search/exact-counts';
import { parseSearchRequest, RawSearchQuery } from './search/search-request';
import { compileSearch } from './search/search-sql';

/**
 * Reads receipts. Search is a deferred join: the page's ids come from the receipts table alone
 * (joined-table filters as EXISTS, ordered by an index), then only those rows are joined to
 * their split and demand. The total is counted on the receipts table, and not at all when the
 * page itself proves it (a short page). A total counted before is brought up to date with the
 * receipts inserted since, unless a write changed something the filter reads
 * (search/exact-counts.ts).
 */
@Injectable()
export class ReceiptsService {
  private readonly counts = new ExactCounts();

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
      : await this.counts.count(
          (text, params) => em.query(text, params),
          tenant.tenantId,
          sql,
          countDependencies(parsed),
        );

    const content = await this.loadByIds(tenant, ids);
    return toReceiptPage(content, parsed.page, parsed.size, totalElements);
  }

  /**
   * Records a receipt write in the tenant's search version (call in the write's transaction,
   * after taking every other lock: this row stays locked until commit) and returns the version
   * to stamp on the receipts the transaction inserts (`inserted_version`). `changes` says which
   * statuses it changed; a write that changes neither and stamps its inserts keeps cached totals.
   */
  async markChanged(tenant: TenantContext, changes: ReceiptWriteChanges): Promise<string> {
    const [row] = await this.txHost.tx.query<{ version: string }[]>(RECEIPT_WRITE_VERSION_SQL, [
      tenant.tenantId,
      changes.receiptStatus,
      changes.demandStatus,
    ]);
    return row.version;
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
