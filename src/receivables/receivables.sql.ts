/** The one statement of the ageing report (docs/receivables.md), its row type and parameters. */
import { balanceOn, countsOn, movedReceipts } from '@/ledger/ledger.sql';

/**
 * The ageing of what is outstanding on `asOf`, in one statement: totals by bucket, the number of
 * groups and one page of groups (largest outstanding first, then key in byte order).
 *
 * - A receipt has paid on asOf when it was received on or before asOf and is ACTIVE, or left
 *   ACTIVE (cancelled, bounced) after asOf (`status_changed_on`, the bounce's bouncedOn).
 * - What a split's receipts paid on asOf is its `paid_amount` (what its ACTIVE receipts pay now,
 *   kept in the same transaction as every receipt write) corrected by the receipts whose standing
 *   differs on asOf (`moved`): minus ACTIVE ones received after asOf, plus ones received by asOf
 *   that left ACTIVE after it. For asOf today that is a handful of rows instead of every receipt
 *   of the tenant; each part has its index (receipts_default_sort_idx, receipts_left_active_idx).
 * - A split exists on asOf when its demand is dated on or before asOf; it owes when it is not
 *   cancelled, or its demand was cancelled after asOf (the cancel's date in the tenant's zone).
 * - Money received before its demand's date (an advance on a demand not dated yet on asOf)
 *   counts from the day it was received, as a negative balance of its split, as in the
 *   statement of account.
 * - Outstanding per split = amount - what it had been paid on asOf; its bucket is
 *   `width_bucket(asOf - dueDate, thresholds)` with thresholds 1, e1+1, ..., ek+1: 0 = NOT_DUE,
 *   i = the i-th range.
 * - A group is listed when any of its cells is non-zero; groupBy none lists none.
 *
 * Money stays numeric (text in the JSON), never a float.
 */
export const AGEING_SQL = `WITH moved AS (${movedReceipts('$2::date')}),
       owed AS (
         SELECT CASE $4::text
                  WHEN 'booking' THEN d.booking_id::text
                  WHEN 'payerType' THEN s.payer_type
                  WHEN 'demandType' THEN d.demand_type
                END AS key,
                width_bucket($2::date - d.due_date, $3::int[]) AS bucket,
                ${balanceOn('$2::date', '$5::text')} AS outstanding
           FROM demand_splits s
           JOIN demands d ON d.tenant_id = s.tenant_id AND d.id = s.demand_id
           LEFT JOIN moved m ON m.demand_split_id = s.id
          WHERE s.tenant_id = $1 AND d.tenant_id = $1 AND ${countsOn('$2::date', '$5::text')}),
       cells AS (
         SELECT key, bucket, sum(outstanding) AS amount FROM owed GROUP BY key, bucket),
       totals AS (
         SELECT bucket, sum(amount) AS amount FROM cells GROUP BY bucket),
       grouped AS (
         SELECT key, sum(amount) AS outstanding, json_object_agg(bucket, amount::text) AS by_bucket
           FROM cells
          WHERE key IS NOT NULL
          GROUP BY key
         HAVING bool_or(amount <> 0)),
       page AS (
         SELECT key, outstanding, by_bucket FROM grouped
          ORDER BY outstanding DESC, key COLLATE "C"
          LIMIT $6 OFFSET $7)
SELECT (SELECT coalesce(sum(amount), 0)::text FROM totals) AS outstanding,
       (SELECT coalesce(json_object_agg(bucket, amount::text), '{}'::json) FROM totals) AS by_bucket,
       (SELECT count(*)::int FROM grouped) AS total_groups,
       (SELECT coalesce(json_agg(json_build_object(
                  'key', p.key,
                  'label', CASE WHEN b.id IS NULL THEN p.key
                                ELSE b.booking_number || ' — ' || b.buyer_name END,
                  'outstanding', p.outstanding::text,
                  'byBucket', p.by_bucket)
                ORDER BY p.outstanding DESC, p.key COLLATE "C"), '[]'::json)
          FROM page p
          LEFT JOIN bookings b
            ON b.tenant_id = $1 AND b.id = CASE WHEN $4::text = 'booking' THEN p.key::uuid END
       ) AS groups`;

/** Money as numeric text; buckets keyed by their index (0 = NOT_DUE). */
export interface AgeingRow {
  outstanding: string;
  by_bucket: Record<string, string>;
  total_groups: number;
  groups: { key: string; label: string; outstanding: string; byBucket: Record<string, string> }[];
}

export const ageingParams = (p: {
  tenantId: string;
  asOf: string;
  /** The bucket edges, ascending (30, 60, 90). */
  edges: readonly number[];
  groupBy: string;
  timezone: string;
  page: number;
  size: number;
}): unknown[] => [
  p.tenantId,
  p.asOf,
  [1, ...p.edges.map((e) => e + 1)],
  p.groupBy,
  p.timezone,
  p.size,
  p.page * p.size,
];
