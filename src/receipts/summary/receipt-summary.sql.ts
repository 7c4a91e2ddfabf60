/**
 * The statement of a receipt search's totals: ONE aggregate over the search's own compiled
 * conditions (CompiledSearch.matchSql), so `count` is search's `totalElements` by construction.
 * `ROLLUP` yields the groups and the grand total in the same scan.
 */
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

/**
 * The statement (binds `sql.countParams`): one row per group in ascending key order (byte order,
 * so it does not depend on the database's collation), then the grand total (`total_row`). An
 * empty match still yields the total row, with count 0 and amount 0.
 */
export function summaryStatement(sql: CompiledSearch, groupBy: SummaryGroup | undefined): string {
  const matched = sql.matchSql(
    'r.amount, r.payment_mode, r.status, r.payer_type, r.received_date, r.demand_id',
  );
  if (groupBy === undefined) {
    return (
      `SELECT NULL::text AS key, true AS total_row, count(*)::bigint AS count, ` +
      `round(coalesce(sum(m.amount), 0), 2)::text AS amount FROM (${matched}) m`
    );
  }
  const join =
    groupBy === 'demandType'
      ? ' JOIN demands d ON d.tenant_id = $1::uuid AND d.id = m.demand_id'
      : '';
  return (
    `SELECT g.key, grouping(g.key) = 1 AS total_row, count(*)::bigint AS count, ` +
    `round(coalesce(sum(g.amount), 0), 2)::text AS amount ` +
    `FROM (SELECT ${GROUP_KEYS[groupBy]} AS key, m.amount FROM (${matched}) m${join}) g ` +
    `GROUP BY ROLLUP (g.key) ORDER BY grouping(g.key), g.key COLLATE "C"`
  );
}
