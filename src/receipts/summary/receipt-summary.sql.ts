/**
 * The statement of a receipt search's totals: ONE aggregate over the search's own compiled
 * conditions (CompiledSearch.matchSql), so `count` is search's `totalElements` by construction.
 * `ROLLUP` yields the groups and the grand total in the same scan.
 */
import { ParsedSearchRequest } from '@/search/search-request';
import {
  countDependencies,
  CountDependencies,
  staleCondition,
  TENANT_VERSIONS,
} from '../search/exact-counts';
import { CompiledSearch } from '../search/receipt-search.sql';

export const SUMMARY_GROUPS = [
  'paymentMode',
  'status',
  'payerType',
  'demandType',
  'receivedMonth',
  'receivedDate',
] as const;
export type SummaryGroup = (typeof SUMMARY_GROUPS)[number];

/** The group key over the matched receipt `m` (and its demand `d` for demandType). */
const GROUP_KEYS: Readonly<Record<SummaryGroup, string>> = {
  paymentMode: 'm.payment_mode',
  status: 'm.status',
  payerType: 'm.payer_type',
  demandType: 'd.demand_type',
  receivedMonth: `to_char(m.received_date, 'YYYY-MM')`,
  receivedDate: 'm.received_date::text',
};

export interface SummaryRow {
  /** NULL on the grand-total row. */
  key: string | null;
  total_row: boolean;
  count: string;
  amount: string;
}

/** The receipt columns a summary reads (over `r`). */
const SUMMARY_COLUMNS =
  'r.amount, r.payment_mode, r.status, r.payer_type, r.received_date, r.demand_id';

/**
 * The aggregate over `matched` (a statement selecting SUMMARY_COLUMNS): one row per group in
 * ascending key order (byte order, so it does not depend on the database's collation), then the
 * grand total (`total_row`). An empty match still yields the total row, with count 0 and amount
 * 0. `where` (optional) applies to the matched rows `m`.
 */
function aggregate(matched: string, groupBy: SummaryGroup | undefined, where = ''): string {
  const filter = where ? ` WHERE ${where}` : '';
  if (groupBy === undefined) {
    return (
      `SELECT NULL::text AS key, true AS total_row, count(*)::bigint AS count, ` +
      `round(coalesce(sum(m.amount), 0), 2)::text AS amount FROM (${matched}) m${filter}`
    );
  }
  const join =
    groupBy === 'demandType'
      ? ' JOIN demands d ON d.tenant_id = $1::uuid AND d.id = m.demand_id'
      : '';
  return (
    `SELECT g.key, grouping(g.key) = 1 AS total_row, count(*)::bigint AS count, ` +
    `round(coalesce(sum(g.amount), 0), 2)::text AS amount ` +
    `FROM (SELECT ${GROUP_KEYS[groupBy]} AS key, m.amount FROM (${matched}) m${join}${filter}) g ` +
    `GROUP BY ROLLUP (g.key) ORDER BY grouping(g.key), g.key COLLATE "C"`
  );
}

/** The statement of the totals of `sql` (binds `sql.countParams`); see aggregate(). */
export function summaryStatement(sql: CompiledSearch, groupBy: SummaryGroup | undefined): string {
  return aggregate(sql.matchSql(SUMMARY_COLUMNS), groupBy);
}

/**
 * What a summary reads that a write can change after the receipts were inserted: what its
 * filters read (exact-counts.ts), and the receipt status when it groups by status. The other
 * group keys (payment mode, payer type, received date, the demand's type) and the amount are
 * never updated (the application login has no UPDATE on them).
 */
export function summaryDependencies(
  parsed: ParsedSearchRequest,
  groupBy: SummaryGroup | undefined,
): CountDependencies {
  const deps = countDependencies(parsed);
  return groupBy === 'status' ? { ...deps, receiptStatus: true } : deps;
}

/** A row of the versioned statements: a summary row with the versions it was read at. */
export interface VersionedSummaryRow {
  /** The tenant's write version in the statement's snapshot. */
  version: string;
  /** Delta statement: the cached totals cannot be brought up to date (recount); no rows then. */
  stale: boolean;
  /** NULL on the grand-total row (and on the one row of a stale delta). */
  key: string | null;
  total_row: boolean | null;
  count: string | null;
  amount: string | null;
}

/**
 * The full totals and the tenant's write version in one statement (one snapshot): what a cache
 * entry is made of. Binds `sql.countParams`.
 */
export function versionedSummaryStatement(
  sql: CompiledSearch,
  groupBy: SummaryGroup | undefined,
): string {
  return (
    `SELECT v.version::text AS version, false AS stale, t.key, t.total_row, t.count, t.amount ` +
    `FROM ${TENANT_VERSIONS} CROSS JOIN (${summaryStatement(sql, groupBy)}) t`
  );
}

/**
 * What totals cached at a version gained since, in one statement with the versions: the
 * aggregate of the matching receipts inserted after the cached version (a range of the
 * `(tenant_id, inserted_version)` index), unless that is `stale` (then the aggregate is not
 * run: a one-time filter). Binds `sql.countParams`, then the cached version as `$n+1`.
 */
export function summaryDeltaStatement(
  sql: CompiledSearch,
  groupBy: SummaryGroup | undefined,
  deps: CountDependencies,
): string {
  const cached = `$${sql.countParams.length + 1}::bigint`;
  const stale = staleCondition(cached, deps);
  const delta = aggregate(
    sql.matchInsertedAfter(SUMMARY_COLUMNS, cached),
    groupBy,
    `NOT (${stale})`,
  );
  return (
    `SELECT v.version::text AS version, (${stale}) AS stale, ` +
    `t.key, t.total_row, t.count, t.amount ` +
    `FROM ${TENANT_VERSIONS} LEFT JOIN LATERAL (${delta}) t ON NOT (${stale})`
  );
}
