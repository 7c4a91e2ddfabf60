/**
 * Compiles a parsed receipt search (src/search/search-request.ts) into parameterised PostgreSQL:
 *
 * - `idsSql` selects one page of receipt ids (the caller loads the full rows for those ids:
 *   a deferred join, so sorting and paging run on `receipts` and its indexes only);
 * - `countSql` counts the matching receipts with the same conditions, without any join.
 *
 * Every user value is a bind parameter; SQL text is built only from catalogue column names,
 * fixed aliases and operator keywords. Filters on receipt columns apply directly to `r`; all
 * demand-split filters share ONE correlated EXISTS on `demand_splits s`, and all demand filters
 * ONE EXISTS on `demands d`. `keyword` searches receipt number, transaction ref, demand number
 * and buyer name (through the trigram indexes when it can; see compileSearch).
 *
 * NULL semantics: columns are NOT NULL except where the catalogue says `nullable` (only
 * `demandMeta.milestone`). On nullable columns the negative operators also match NULL, i.e.
 * NOT_EQUALS uses `IS DISTINCT FROM` and NOT_IN / NOT_CONTAINS add `col IS NULL OR ...`, so
 * "milestone is not X" includes demands without a milestone.
 */
import {
  compileConditions,
  compileOrderBy,
  escapeLike,
  KEYWORD_SLOT,
  keywordUsesIndex,
  Params,
  SearchSqlShape,
} from '@/search/search-conditions';
import { ParsedSearchRequest } from '@/search/search-request';
import { SORT_COLUMNS } from './search-fields';

export interface CompiledSearch {
  /** `SELECT r.id FROM receipts r WHERE ... ORDER BY ... LIMIT $n OFFSET $n+1`. */
  readonly idsSql: string;
  /** Bind values for idsSql: `countParams` followed by limit and offset. */
  readonly idsParams: unknown[];
  /** `SELECT count(*)::bigint AS total FROM receipts r WHERE ...` (total comes back as a string). */
  readonly countSql: string;
  /** Bind values for countSql: tenant id ($1), then the filter values. */
  readonly countParams: unknown[];
  /**
   * countSql restricted to receipts inserted after a tenant write version bound as
   * `versionParam` (e.g. `$5`): what a cached count gained since (exact-counts.ts).
   */
  countInsertedAfter(versionParam: string): string;
  /**
   * matchSql restricted to receipts inserted after the write version `versionParam`, without
   * the keyword lookups (the few new receipts are checked directly): what cached totals gained
   * since (receipts/summary). Binds countParams.
   */
  matchInsertedAfter(columns: string, versionParam: string): string;
  /**
   * Every matching receipt, unordered and unpaged: `SELECT <columns> FROM receipts r WHERE ...`
   * (the keyword form is a `WITH ... UNION ALL` of its two branches, of which one is empty).
   * Binds countParams. `columns` may reference only `r`; the statement can be wrapped as a
   * subquery (summaries group it, exports order and stream it).
   */
  matchSql(columns: string): string;
  /** The ORDER BY list of the request's sort over `r` (ends with the id tie-break). */
  readonly orderBy: string;
}

/**
 * The form of `keyword CONTAINS` that scans: short keywords, and past the caps (see compileSearch).
 * PostgreSQL 17 runs the EXISTS as a hashed subplan: every demand of the tenant read once, right
 * for a count or an export. `perRow` (a page, which walks a sort index and stops after it) keeps
 * it a probe per receipt read instead (OFFSET 0 stops the conversion), so the page costs the
 * same whatever the tenant's size: at 4,000,000 receipts the hashed form read 500,000 demands
 * for a page of 20 (docs/benchmarks.md, ten million receipts).
 */
function keywordScanCondition(k: string, perRow = false): string {
  return (
    `(r.receipt_number ILIKE ${k} OR r.transaction_ref ILIKE ${k} OR EXISTS (` +
    `SELECT 1 FROM demands dk WHERE dk.tenant_id = r.tenant_id AND dk.id = r.demand_id ` +
    `AND (dk.demand_number ILIKE ${k} OR dk.buyer_name ILIKE ${k})${perRow ? ' OFFSET 0' : ''}))`
  );
}

export { keywordUsesIndex };

/**
 * Above this many matching demands (each fans out to its receipts) or receipts matched by number
 * or reference, probing the id lists costs more than scanning the tenant, so the scanning branch
 * runs instead (decided at run time; see compileSearch).
 */
export const KEYWORD_DEMAND_CAP = 10_000;
export const KEYWORD_RECEIPT_CAP = 20_000;
/**
 * The count's own cap on matching demands. A count reads every match whichever way it goes, and
 * the matches of a demand are one probe of `receipts_demand_idx` each (index-only when the page
 * is all-visible), so the lists stay cheaper than a scan of the tenant far past the page's cap:
 * at 4,000,000 receipts "iyer" matches 50,000 demands, whose 400,000 receipts the scan found by
 * reading all 4,000,000 (docs/benchmarks.md, ten million receipts).
 */
export const KEYWORD_COUNT_DEMAND_CAP = 200_000;

/**
 * The `kw` CTE (the tenant's demand ids and receipt ids matching pattern `k`, each looked up to
 * one past its cap) and the one-time condition that both lists are within their caps.
 */
function keywordLookups(k: string, demandCap: number): { cte: string; withinCap: string } {
  return {
    cte:
      `WITH kw AS MATERIALIZED (SELECT ` +
      `ARRAY(SELECT receipt_keyword_demand_ids($1::uuid, ${k}, ${demandCap + 1})) AS demand_ids, ` +
      `ARRAY(SELECT receipt_keyword_receipt_ids($1::uuid, ${k}, ${KEYWORD_RECEIPT_CAP + 1})) AS receipt_ids)`,
    withinCap:
      `(SELECT cardinality(demand_ids) <= ${demandCap} ` +
      `AND cardinality(receipt_ids) <= ${KEYWORD_RECEIPT_CAP} FROM kw)`,
  };
}

/** Receipts in the shared engine: `receipts r`, its split `s` and demand `d` as EXISTS. */
const RECEIPT_SQL: SearchSqlShape = {
  alias: 'r',
  rootSource: 'receipt',
  joins: {
    split: {
      alias: 's',
      from: 'demand_splits s WHERE s.tenant_id = r.tenant_id AND s.id = r.demand_split_id',
    },
    demand: {
      alias: 'd',
      from: 'demands d WHERE d.tenant_id = r.tenant_id AND d.id = r.demand_id',
    },
  },
  sortColumns: SORT_COLUMNS,
  keywordScan: keywordScanCondition,
};

/**
 * Compiles a parsed request for one tenant. The tenant id is bound as `$1`; filter values
 * follow in the order they appear in the SQL text; idsSql ends with `LIMIT $n OFFSET $n+1`.
 *
 * `keyword CONTAINS` (the first one with a trigram; see keywordUsesIndex) goes through the
 * trigram indexes. Under row-level security PostgreSQL never uses an index for `ILIKE` (a
 * non-leakproof operator may not run before the policy), so the lookups are two SECURITY
 * DEFINER functions (migrations/1764300000000-KeywordSearch.ts) that return the tenant's matching
 * demand ids and receipt ids (each up to its cap + 1), computed once in the `kw` CTE. Two
 * branches follow, of which a one-time filter on the list sizes runs exactly one: the indexed
 * one (`demand_id = ANY(...) OR id = ANY(...)`: a BitmapOr) when both lists are within the cap,
 * otherwise the scanning one (the ILIKE form). Page and count share this shape.
 */
export function compileSearch(parsed: ParsedSearchRequest, tenantId: string): CompiledSearch {
  if (typeof tenantId !== 'string' || tenantId.length === 0) {
    throw new Error('search-sql: a tenant id is required');
  }
  const p = new Params();
  p.add(tenantId);
  const indexed = parsed.filters.find(
    (f) => f.field.source === 'keyword' && f.operator === 'CONTAINS' && keywordUsesIndex(f.value),
  );
  const orderBy = compileOrderBy(RECEIPT_SQL, parsed.sort);

  if (indexed === undefined || indexed.operator !== 'CONTAINS') {
    const where = compileConditions(RECEIPT_SQL, parsed.filters, p);
    const countParams = [...p.values];
    const limit = p.add(parsed.size);
    const offset = p.add(parsed.page * parsed.size);
    const countSql = `SELECT count(*)::bigint AS total FROM receipts r WHERE ${where}`;
    return {
      idsSql:
        `SELECT r.id FROM receipts r WHERE ${where} ` +
        `ORDER BY ${orderBy} LIMIT ${limit} OFFSET ${offset}`,
      idsParams: [...p.values],
      countSql,
      countParams,
      countInsertedAfter: (versionParam) => `${countSql} AND r.inserted_version > ${versionParam}`,
      matchSql: (columns) => `SELECT ${columns} FROM receipts r WHERE ${where}`,
      matchInsertedAfter: (columns, versionParam) =>
        `SELECT ${columns} FROM receipts r WHERE ${where} AND r.inserted_version > ${versionParam}`,
      orderBy,
    };
  }

  const k = p.add(`%${escapeLike(indexed.value)}%`);
  const { cte, withinCap } = keywordLookups(k, KEYWORD_DEMAND_CAP);
  const where = compileConditions(RECEIPT_SQL, parsed.filters, p, indexed);
  const indexedWhere =
    where.replace(
      KEYWORD_SLOT,
      `(r.demand_id = ANY ((SELECT demand_ids FROM kw)::uuid[]) ` +
        `OR r.id = ANY ((SELECT receipt_ids FROM kw)::uuid[]))`,
    ) + ` AND ${withinCap}`;
  const scanOnlyWhere = where.replace(KEYWORD_SLOT, keywordScanCondition(k));
  const scanWhere = `${scanOnlyWhere} AND NOT ${withinCap}`;
  const pageScanWhere = `${where.replace(KEYWORD_SLOT, keywordScanCondition(k, true))} AND NOT ${withinCap}`;
  const countParams = [...p.values];
  const limit = p.add(parsed.size);
  const offset = p.add(parsed.page * parsed.size);
  const columns = [
    ...new Set(['id', ...parsed.sort.map((key) => RECEIPT_SQL.sortColumns[key.field])]),
  ]
    .map((c) => `r.${c}`)
    .join(', ');
  // The count: the matches by demand, then those by number or reference not among them (two
  // semi-joins on the id lists, each a probe per id), or the scan past the count's caps.
  const { cte: countCte, withinCap: countWithinCap } = keywordLookups(k, KEYWORD_COUNT_DEMAND_CAP);
  const byDemand = `r.demand_id IN (SELECT unnest(demand_ids) FROM kw)`;
  const countBranches = [
    where.replace(KEYWORD_SLOT, byDemand),
    where.replace(
      KEYWORD_SLOT,
      `(r.id IN (SELECT unnest(receipt_ids) FROM kw) AND NOT (${byDemand}))`,
    ),
  ].map((w) => `${w} AND ${countWithinCap}`);
  const countScanWhere = `${scanOnlyWhere} AND NOT ${countWithinCap}`;
  const countSql =
    `${countCte} SELECT count(*)::bigint AS total FROM (` +
    [...countBranches, countScanWhere]
      .map((w) => `SELECT 1 FROM receipts r WHERE ${w}`)
      .join(' UNION ALL ') +
    `) r`;
  // Each branch sorted and cut on its own, so the scanning one can walk a sort index and stop.
  const top = `ORDER BY ${orderBy} LIMIT (${limit}::bigint + ${offset}::bigint)`;
  return {
    idsSql:
      `${cte} SELECT r.id FROM (` +
      `(SELECT ${columns} FROM receipts r WHERE ${indexedWhere} ${top}) UNION ALL ` +
      `(SELECT ${columns} FROM receipts r WHERE ${pageScanWhere} ${top})) r ` +
      `ORDER BY ${orderBy} LIMIT ${limit} OFFSET ${offset}`,
    idsParams: [...p.values],
    countSql,
    countParams,
    // The few receipts inserted since a cached count are checked directly (by the
    // (tenant_id, inserted_version) index), without running the trigram lookups again.
    countInsertedAfter: (versionParam) =>
      `SELECT count(*)::bigint AS total FROM receipts r ` +
      `WHERE ${scanOnlyWhere} AND r.inserted_version > ${versionParam}`,
    matchSql: (columns) =>
      `${cte} SELECT ${columns} FROM receipts r WHERE ${indexedWhere} ` +
      `UNION ALL SELECT ${columns} FROM receipts r WHERE ${scanWhere}`,
    matchInsertedAfter: (columns, versionParam) =>
      `SELECT ${columns} FROM receipts r ` +
      `WHERE ${scanOnlyWhere} AND r.inserted_version > ${versionParam}`,
    orderBy,
  };
}
