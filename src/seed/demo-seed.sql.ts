/** The demo seed's statements: one per plan chunk, then the search version and the counters. */
import type { DemoPlanChunk, DemoPlanSummary } from './demo-plan';

/** `'epoch' + ms`: instants travel as epoch milliseconds (bigint), exact to the millisecond. */
const instant = (ms: string) => `(timestamptz 'epoch' + ${ms} * interval '1 millisecond')`;
/** Amounts travel as paise (bigint). */
const money = (paise: string) => `(${paise}::numeric / 100)`;

/**
 * One statement per chunk: an INSERT ... SELECT FROM unnest(...) per table, joined as data-modifying
 * CTEs (the foreign keys are checked at the end of the statement, when every table has its rows).
 * Every row carries the tenant id; receipts carry the search version of the write that recorded
 * them ($2 + their write number).
 */
export const DEMO_CHUNK_SQL = `
  WITH bookings_in AS (
    INSERT INTO bookings (tenant_id, id, booking_number, unit_id, buyer_name, buyer_id,
                          booking_date, status, created_at, created_by, cancel_reason,
                          cancelled_at, cancelled_by)
    SELECT $1, t.id, t.number, t.unit_id, t.buyer_name, t.buyer_id, t.date,
           CASE WHEN t.cancelled_at IS NULL THEN 'ACTIVE' ELSE 'CANCELLED' END, ${instant('t.at')},
           $3, t.reason, ${instant('t.cancelled_at')},
           CASE WHEN t.cancelled_at IS NULL THEN NULL ELSE $3 END
      FROM unnest($4::uuid[], $5::text[], $6::uuid[], $7::text[], $8::uuid[], $9::date[],
                  $10::bigint[], $11::text[], $12::bigint[])
        AS t(id, number, unit_id, buyer_name, buyer_id, date, at, reason, cancelled_at)
  ), demands_in AS (
    INSERT INTO demands (tenant_id, id, booking_id, unit_id, buyer_name, milestone_id, demand_type,
                         demand_number, total_amount, received_amount, due_date, demand_date,
                         remarks, status, created_at, created_by, modified_at, cancel_reason,
                         cancelled_at, cancelled_by)
    SELECT $1, t.id, t.booking_id, t.unit_id, t.buyer_name, t.milestone_id, t.demand_type,
           t.number, ${money('t.total')}, ${money('t.received')}, t.due, t.date, t.remarks,
           t.status, ${instant('t.at')}, $3, ${instant('t.modified')}, t.reason,
           ${instant('t.cancelled_at')}, CASE WHEN t.cancelled_at IS NULL THEN NULL ELSE $3 END
      FROM unnest($13::uuid[], $14::uuid[], $15::uuid[], $16::text[], $17::uuid[], $18::text[],
                  $19::text[], $20::bigint[], $21::bigint[], $22::date[], $23::date[],
                  $24::text[], $25::text[], $26::bigint[], $27::bigint[], $28::text[],
                  $29::bigint[])
        AS t(id, booking_id, unit_id, buyer_name, milestone_id, demand_type, number, total,
             received, due, date, remarks, status, at, modified, reason, cancelled_at)
  ), splits_in AS (
    INSERT INTO demand_splits (tenant_id, id, demand_id, payer_type, payer_id, demand_split_number,
                               amount, paid_amount, status, created_at, modified_at)
    SELECT $1, t.id, t.demand_id, t.payer_type, t.payer_id, t.number, ${money('t.amount')},
           ${money('t.paid')}, t.status, ${instant('t.at')}, ${instant('t.modified')}
      FROM unnest($30::uuid[], $31::uuid[], $32::text[], $33::uuid[], $34::text[], $35::bigint[],
                  $36::bigint[], $37::text[], $38::bigint[], $39::bigint[])
        AS t(id, demand_id, payer_type, payer_id, number, amount, paid, status, at, modified)
  ), receipts_in AS (
    INSERT INTO receipts (tenant_id, id, demand_split_id, demand_id, booking_id, payer_type,
                          receipt_number, amount, payment_mode, transaction_ref, received_date,
                          status, status_reason, status_changed_at, status_changed_on,
                          status_changed_by, created_at, created_by, modified_at,
                          inserted_version)
    SELECT $1, t.id, t.split_id, t.demand_id, t.booking_id, t.payer_type, t.number,
           ${money('t.amount')}, t.mode, t.ref, t.date, t.status, t.reason,
           ${instant('t.changed_at')}, t.changed_on,
           CASE WHEN t.changed_at IS NULL THEN NULL ELSE $3 END, ${instant('t.at')}, $3,
           ${instant('coalesce(t.changed_at, t.at)')}, $2::bigint + t.write
      FROM unnest($40::uuid[], $41::uuid[], $42::uuid[], $43::uuid[], $44::text[], $45::text[],
                  $46::bigint[], $47::text[], $48::text[], $49::date[], $50::text[],
                  $51::text[], $52::bigint[], $53::date[], $54::bigint[], $55::bigint[])
        AS t(id, split_id, demand_id, booking_id, payer_type, number, amount, mode, ref, date,
             status, reason, changed_at, changed_on, at, write)
  )
  INSERT INTO issued_numbers (tenant_id, document_type, number)
  SELECT $1, t.type, t.number FROM unnest($56::text[], $57::text[]) AS t(type, number)`;

/** DEMO_CHUNK_SQL's binds, column by column. */
export function demoChunkParams(p: {
  tenantId: string;
  baseVersion: string;
  actor: string;
  chunk: DemoPlanChunk;
}): unknown[] {
  const { bookings: b, demands: d, splits: s, receipts: r, issued } = p.chunk;
  return [
    p.tenantId,
    p.baseVersion,
    p.actor,
    b.map((x) => x.id),
    b.map((x) => x.number),
    b.map((x) => x.unitId),
    b.map((x) => x.buyerName),
    b.map((x) => x.buyerId),
    b.map((x) => x.date),
    b.map((x) => x.at),
    b.map((x) => x.cancelReason),
    b.map((x) => x.cancelledAt),
    d.map((x) => x.id),
    d.map((x) => x.bookingId),
    d.map((x) => x.unitId),
    d.map((x) => x.buyerName),
    d.map((x) => x.milestoneId),
    d.map((x) => x.demandType),
    d.map((x) => x.number),
    d.map((x) => x.total),
    d.map((x) => x.received),
    d.map((x) => x.dueDate),
    d.map((x) => x.date),
    d.map((x) => x.remarks),
    d.map((x) => x.status),
    d.map((x) => x.at),
    d.map((x) => x.modifiedAt),
    d.map((x) => x.cancelReason),
    d.map((x) => x.cancelledAt),
    s.map((x) => x.id),
    s.map((x) => x.demandId),
    s.map((x) => x.payerType),
    s.map((x) => x.payerId),
    s.map((x) => x.number),
    s.map((x) => x.amount),
    s.map((x) => x.paid),
    s.map((x) => x.status),
    s.map((x) => x.at),
    s.map((x) => x.modifiedAt),
    r.map((x) => x.id),
    r.map((x) => x.splitId),
    r.map((x) => x.demandId),
    r.map((x) => x.bookingId),
    r.map((x) => x.payerType),
    r.map((x) => x.number),
    r.map((x) => x.amount),
    r.map((x) => x.paymentMode),
    r.map((x) => x.transactionRef),
    r.map((x) => x.date),
    r.map((x) => x.status),
    r.map((x) => x.statusReason),
    r.map((x) => x.statusChangedAt),
    r.map((x) => x.statusChangedOn),
    r.map((x) => x.at),
    r.map((x) => x.write),
    issued.map((x) => x.documentType),
    issued.map((x) => x.number),
  ];
}

/** The tenant's receipt search version before the seed. $1 tenant id. */
export const SEARCH_VERSION_SQL = `SELECT coalesce(max(version), 0)::text AS version
  FROM receipt_search_versions WHERE tenant_id = $1`;

export interface SearchVersionRow {
  version: string;
}

/** The search version as the writes would have left it: every receipt write counted, no cached count survives. */
export const ADVANCE_SEARCH_VERSION_SQL = `INSERT INTO receipt_search_versions AS v (tenant_id, version, receipt_status_version,
                                           demand_status_version, reset_version)
VALUES ($1, $2, $2, $2, $2)
ON CONFLICT (tenant_id) DO UPDATE
   SET version = v.version + $2, receipt_status_version = v.version + $2,
       demand_status_version = v.version + $2, reset_version = v.version + $2`;

export const advanceSearchVersionParams = (p: {
  tenantId: string;
  receiptWrites: DemoPlanSummary['receiptWrites'];
}): unknown[] => [p.tenantId, p.receiptWrites];

/** What the allocator leaves behind: each counter at its next value. */
export const INSERT_COUNTERS_SQL = `INSERT INTO number_counters (tenant_id, document_type, counter_key, next_value)
SELECT $1, t.type, t.key, t.next FROM unnest($2::text[], $3::text[], $4::bigint[]) AS t(type, key, next)`;

export const insertCountersParams = (p: {
  tenantId: string;
  counters: DemoPlanSummary['counters'];
}): unknown[] => [
  p.tenantId,
  p.counters.map((x) => x.documentType),
  p.counters.map((x) => x.counterKey),
  p.counters.map((x) => x.nextValue.toString()),
];

/**
 * Statistics for the rows the seed has just written, before the demo statement is imported and
 * matched in the same transaction (ANALYZE counts the transaction's own rows): without them the
 * planner takes the tables as empty and matching scans instead of probing indexes. Needs the
 * MAINTAIN privilege (migration AnalyzeGrant); without it PostgreSQL skips with a warning.
 */
export const ANALYZE_SEEDED_SQL = `ANALYZE bookings, demands, demand_splits, receipts`;

/**
 * First in the seed's transaction: on a database whose bookings, demands, demand_splits and
 * receipts hold no row of any tenant, drops their indexes that back no constraint and their
 * foreign keys (migration SeedDeferredIndexes), so the chunks write rows only; answers how many
 * (0: the tables hold rows, and everything is kept). Half the insert time was the receipts'
 * trigram index, then the demands' and the foreign-key checks.
 */
export const DEFER_SEED_INDEXES_SQL = `SELECT seed_defer_indexes() AS deferred`;

/**
 * After the last chunk, in the same transaction: builds what DEFER_SEED_INDEXES_SQL dropped (a
 * sorted build per index, a join per foreign key). A transaction that deferred and did not restore
 * cannot commit.
 */
export const RESTORE_SEED_INDEXES_SQL = `SELECT seed_restore_indexes() AS built`;
