/** The one statement of the ageing report (docs/receivables.md), its row type and parameters. */

/**
 * What a split owes on `asOf` (CONTRACT §10.2), as fragments every statement of what is owed is
 * built from: the ageing below, a booking's dues (a demand letter) and the tenant's due reminders.
 *
 * `movedReceipts`: per split, the receipts whose standing on asOf differs from now (a CTE body,
 * joined as `m`): minus ACTIVE ones received after asOf, plus ones received by asOf that left
 * ACTIVE after it. `scope` narrows both scans (`AND r.booking_id = $2`); `$1` is the tenant.
 */
export const movedReceipts = (asOf: string, scope = ''): string => `
         SELECT demand_split_id, sum(amount) AS amount
           FROM (SELECT r.demand_split_id, -r.amount AS amount
                   FROM receipts r
                  WHERE r.tenant_id = $1 AND r.received_date > ${asOf} AND r.status = 'ACTIVE'${scope}
                 UNION ALL
                 SELECT r.demand_split_id, r.amount
                   FROM receipts r
                  WHERE r.tenant_id = $1 AND r.status <> 'ACTIVE'
                    AND r.status_changed_on > ${asOf} AND r.received_date <= ${asOf}${scope}) m
          GROUP BY demand_split_id`;

/**
 * The split `s` of demand `d` exists and owes on asOf: its demand is dated on or before asOf, and
 * it is not cancelled, or its demand was cancelled after asOf (the cancel's date in the zone).
 */
export const owesOn = (asOf: string, timezone: string): string =>
  `d.demand_date <= ${asOf}
            AND (s.status <> 'CANCELLED'
                 OR (d.cancelled_at AT TIME ZONE ${timezone})::date > ${asOf})`;

/** What split `s` owes on asOf, with `m` its moved receipts. */
export const OUTSTANDING = `s.amount - s.paid_amount - coalesce(m.amount, 0)`;

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
                ${OUTSTANDING} AS outstanding
           FROM demand_splits s
           JOIN demands d ON d.tenant_id = s.tenant_id AND d.id = s.demand_id
           LEFT JOIN moved m ON m.demand_split_id = s.id
          WHERE s.tenant_id = $1 AND d.tenant_id = $1 AND ${owesOn('$2::date', '$5::text')}),
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

/**
 * The splits of one booking that exist and owe on asOf, each with what it owes then (§10.2, the
 * ageing's definition: the same fragments), for a demand letter. Params: bookingDuesParams.
 */
export const BOOKING_DUES_SQL = `WITH moved AS (${movedReceipts('$3::date', ' AND r.booking_id = $2')})
SELECT s.id, s.demand_id, s.payer_id, s.payer_type, d.due_date::text AS due_date,
       (${OUTSTANDING})::text AS outstanding
  FROM demand_splits s
  JOIN demands d ON d.tenant_id = s.tenant_id AND d.id = s.demand_id
  LEFT JOIN moved m ON m.demand_split_id = s.id
 WHERE s.tenant_id = $1 AND d.tenant_id = $1 AND d.booking_id = $2
   AND ${owesOn('$3::date', '$4::text')}`;

export interface BookingDueRow {
  id: string;
  demand_id: string;
  payer_id: string;
  payer_type: string;
  due_date: string;
  /** Numeric text. */
  outstanding: string;
}

export const bookingDuesParams = (p: {
  tenantId: string;
  bookingId: string;
  asOf: string;
  timezone: string;
}): unknown[] => [p.tenantId, p.bookingId, p.asOf, p.timezone];
