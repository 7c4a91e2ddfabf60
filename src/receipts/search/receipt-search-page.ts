/**
 * One page of a receipt search in ONE statement (one round trip, one snapshot):
 *
 * 1. `page`: the page's ids, from the receipts table alone in the requested order (idsSql:
 *    joined-table filters as EXISTS, ordered by an index, LIMIT/OFFSET on index entries);
 * 2. the exact total (exact-counts.ts: the tenant's write versions and either a count or, when
 *    a count is cached, the receipts inserted since), skipped when the page itself proves the
 *    total: a non-empty page shorter than `size` (total = offset + rows) or an empty first page
 *    (0). A cached count that went stale (a change its filter reads) is recounted by a second
 *    statement, rarely;
 * 3. the page's rows joined to their split and demand, in page order.
 *
 * Shared by ReceiptsService and the benchmark's bare floor, so both run the same SQL.
 */
import { TenantContext } from '@/common/tenant-context';
import { ReceiptPage, toReceiptPage, toReceiptView } from '../dto/receipt.view';
import { RECEIPT_ROW_COLUMNS, RECEIPT_ROW_JOINS, ReceiptRow } from '../receipts.sql';
import {
  CountColumns,
  countDependencies,
  ExactCounts,
  incrementalCountSql,
  NOTHING_CACHED,
  QueryFn,
} from './exact-counts';
import { ParsedSearchRequest } from '@/search/search-request';
import { CompiledSearch, compileSearch } from './receipt-search.sql';

/** One row per receipt of the page (or one row of NULL receipt columns for an empty page). */
type SearchPageRow = CountColumns & { page_length: number } & (
    (ReceiptRow & { page_index: string }) | { [K in keyof ReceiptRow]: null }
  );

export interface SearchPageStatement {
  text: string;
  params: unknown[];
}

/**
 * The statement for `sql` (compiled for one tenant, bound as `$1`). Binds: countParams, then
 * LIMIT, OFFSET (as in idsSql), then the cached count's version (not bound when none is cached).
 */
export function searchPageStatement(
  parsed: ParsedSearchRequest,
  sql: CompiledSearch,
  cachedVersion: string,
): SearchPageStatement {
  const k = sql.countParams.length;
  const [limit, offset, cached] = [`$${k + 1}::int`, `$${k + 2}::bigint`, `$${k + 3}`];
  const length = 'cardinality(page.ids)';
  const proven = `(${length} BETWEEN 1 AND ${limit} - 1 OR (${length} = 0 AND ${offset} = 0))`;
  const count = incrementalCountSql(sql, countDependencies(parsed), {
    cachedVersionParam: cached,
    unless: proven,
    only: cachedVersion === NOTHING_CACHED ? 'full' : 'delta',
  });
  const text =
    `WITH page AS MATERIALIZED (SELECT ARRAY(${sql.idsSql}) AS ids) ` +
    `SELECT c.version, c.total, c.added, ${length} AS page_length, x.* ` +
    `FROM page CROSS JOIN LATERAL (${count}) c ` +
    `LEFT JOIN LATERAL (SELECT ${RECEIPT_ROW_COLUMNS}, o.n AS page_index ` +
    `FROM unnest(page.ids) WITH ORDINALITY AS o(id, n) ` +
    `JOIN receipts r ON r.tenant_id = $1::uuid AND r.id = o.id ${RECEIPT_ROW_JOINS}) x ON true ` +
    `ORDER BY x.page_index`;
  // Without a cached count the statement has no use for the version (an unused bind is an error).
  const params =
    cachedVersion === NOTHING_CACHED ? [...sql.idsParams] : [...sql.idsParams, cachedVersion];
  return { text, params };
}

/** Runs one search page through `query` (the request's tenant transaction). */
export async function searchPage(
  query: QueryFn,
  tenant: TenantContext,
  parsed: ParsedSearchRequest,
  counts: ExactCounts,
): Promise<ReceiptPage> {
  const sql = compileSearch(parsed, tenant.tenantId);
  const prepared = counts.prepare(tenant.tenantId, sql);
  const statement = searchPageStatement(parsed, sql, prepared.cachedVersion);
  const rows = await query<SearchPageRow>(statement.text, statement.params);
  const first = rows[0];
  const offset = parsed.page * parsed.size;
  const proven = first.page_length > 0 ? first.page_length < parsed.size : parsed.page === 0;
  const totalElements = proven
    ? offset + first.page_length
    : first.total !== null || first.added !== null
      ? counts.settle(prepared, first)
      : // The cached count went stale (e.g. a cancel under a status filter): count afresh.
        await counts.count(query, tenant.tenantId, sql, countDependencies(parsed));
  const content = rows.flatMap((row) => (row.id === null ? [] : [toReceiptView(row, tenant)]));
  return toReceiptPage(content, parsed.page, parsed.size, totalElements);
}
