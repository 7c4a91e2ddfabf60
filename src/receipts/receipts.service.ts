import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { TransactionHost } from '@nestjs-cls/transactional';
import { RoutingTransactionAdapter } from '@/platform/replicas/routing-transaction-adapter';
import { TenantContext } from '@/common/tenant-context';
import { ReceiptPage, ReceiptView, toReceiptView } from './dto/receipt.view';
import { ReceiptSummaryView } from './dto/receipt-summary.view';
import { RECEIPT_NOT_FOUND } from './receipts.errors';
import {
  PRINTABLE_RECEIPT_SQL,
  printableReceiptParams,
  PrintableReceiptRow,
  ReceiptRow,
  RECEIPTS_BY_IDS_SQL,
  receiptsByIdsParams,
} from './receipts.sql';
import { receiptWriteVersionParams } from './receipt-writes.sql';
import { ExactCounts, RECEIPT_WRITE_VERSION_SQL, ReceiptWriteChanges } from './search/exact-counts';
import { compileSearch } from './search/receipt-search.sql';
import { parseGroupBy, summaryDependencies } from './summary/receipt-summary';
import { SummaryCache } from './summary/summary-cache';
import { toMoney } from '@/common/money/money';
import { searchPage } from './search/receipt-search-page';
import { RECEIPT_SEARCH } from './search/search-fields';
import { parseSearchRequest, RawSearchQuery } from '@/search/search-request';

/**
 * Reads receipts. A search page is one statement (search/receipt-search-page.ts): a deferred join (the
 * page's ids from the receipts table alone, joined-table filters as EXISTS, ordered by an
 * index, then only those rows joined to their split and demand) and the exact total, which is
 * not counted when the page proves it (a short page) and otherwise brought up to date from a
 * cached count with the receipts inserted since, unless a write changed something the filter
 * reads (search/exact-counts.ts).
 */
/** What a printed receipt names beyond its view: the booking, the unit and the payer. */
export interface PrintedReceiptNames {
  bookingNumber: string;
  unitName: string | null;
  /** The booking's buyer (a BUYER split without a payer name prints as this). */
  buyerName: string;
  payerName: string | null;
}

@Injectable()
export class ReceiptsService {
  /**
   * One count cache per database server (primary, each read replica): a replica's snapshot may
   * be older than the primary's, and an entry newer than the snapshot is unusable there (a
   * recount). Separate caches let each server's searches build on their own entries.
   */
  private readonly counts = new WeakMap<DataSource, ExactCounts>();
  /** Totals of POST /receipts/summary, one cache per database server as the counts. */
  private readonly summaries = new WeakMap<DataSource, SummaryCache>();

  constructor(private readonly txHost: TransactionHost<RoutingTransactionAdapter>) {}

  async search(tenant: TenantContext, query: RawSearchQuery, body: unknown): Promise<ReceiptPage> {
    const em = this.txHost.tx;
    let counts = this.counts.get(em.dataSource);
    if (!counts) {
      counts = new ExactCounts();
      this.counts.set(em.dataSource, counts);
    }
    return searchPage(
      (text, params) => em.query(text, params),
      tenant,
      parseSearchRequest(RECEIPT_SEARCH, query, body),
      counts,
    );
  }

  /** Totals for the search filters in `body`, optionally grouped (POST /receipts/summary). */
  async summary(
    tenant: TenantContext,
    groupBy: unknown,
    body: unknown,
  ): Promise<ReceiptSummaryView> {
    const group = parseGroupBy(groupBy);
    const parsed = parseSearchRequest(RECEIPT_SEARCH, {}, body);
    const sql = compileSearch(parsed, tenant.tenantId);
    const em = this.txHost.tx;
    let summaries = this.summaries.get(em.dataSource);
    if (!summaries) {
      summaries = new SummaryCache();
      this.summaries.set(em.dataSource, summaries);
    }
    const totals = await summaries.summarize(
      (text, params) => em.query(text, params),
      tenant.tenantId,
      sql,
      group,
      summaryDependencies(parsed, group),
    );
    const money = (amount: string) => toMoney(amount, tenant.currency, tenant.locale);
    return {
      count: totals.count,
      amount: money(totals.amount),
      groups: totals.groups.map((g) => ({ key: g.key, count: g.count, amount: money(g.amount) })),
    };
  }

  /**
   * Records a receipt write in the tenant's search version (call in the write's transaction,
   * after taking every other lock: this row stays locked until commit) and returns the version
   * to stamp on the receipts the transaction inserts (`inserted_version`). `changes` says which
   * statuses it changed; a write that changes neither and stamps its inserts keeps cached totals.
   */
  async markChanged(tenant: TenantContext, changes: ReceiptWriteChanges): Promise<string> {
    const [row] = await this.txHost.tx.query<{ version: string }[]>(
      RECEIPT_WRITE_VERSION_SQL,
      receiptWriteVersionParams({ tenantId: tenant.tenantId, changes }),
    );
    return row.version;
  }

  async findOne(tenant: TenantContext, id: string): Promise<ReceiptView> {
    const [receipt] = await this.loadByIds(tenant, [id]);
    if (!receipt) throw RECEIPT_NOT_FOUND.error(id);
    return receipt;
  }

  /**
   * The receipt as GET returns it and when it was created, in one statement: the printed
   * receipt dates its file by the creation time so that renders are byte-identical.
   */
  async findPrintable(
    tenant: TenantContext,
    id: string,
  ): Promise<{ receipt: ReceiptView; createdAt: Date; names: PrintedReceiptNames }> {
    const [row] = await this.txHost.tx.query<PrintableReceiptRow[]>(
      PRINTABLE_RECEIPT_SQL,
      printableReceiptParams({ tenantId: tenant.tenantId, id }),
    );
    if (!row) throw RECEIPT_NOT_FOUND.error(id);
    return {
      receipt: toReceiptView(row, tenant),
      createdAt: row.created_at,
      names: {
        bookingNumber: row.b_booking_number,
        unitName: row.b_unit_name,
        buyerName: row.b_buyer_name,
        payerName: row.s_payer_name,
      },
    };
  }

  /** Receipts with their split and demand, in the order of `ids`. */
  async loadByIds(tenant: TenantContext, ids: string[]): Promise<ReceiptView[]> {
    if (ids.length === 0) return [];
    const rows = await this.txHost.tx.query<ReceiptRow[]>(
      RECEIPTS_BY_IDS_SQL,
      receiptsByIdsParams({ tenantId: tenant.tenantId, ids }),
    );
    const byId = new Map(rows.map((row) => [row.id, row]));
    return ids.flatMap((id) => {
      const row = byId.get(id);
      return row ? [toReceiptView(row, tenant)] : [];
    });
  }
}
