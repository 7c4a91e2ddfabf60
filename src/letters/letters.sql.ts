/**
 * The statements of reminders, their policy and collection holds (docs/letters.md), with their
 * row types and parameter builders. Every one is tenant-scoped (`tenant_id = $1`) and runs in the
 * request's transaction, under row-level security. What a split owes comes from the ledger's
 * fragments (the ageing's definition).
 */
import {
  movedReceipts,
  NOT_CANCELLED_AFTER_PAYMENT,
  OUTSTANDING,
  owesOn,
} from '@/ledger/ledger.sql';

// ---------------------------------------------------------------------------------------------
// The reminder policy

/** A step as stored (jsonb) and shown. */
export interface StepValue {
  name: string;
  offsetDays: number;
}

export interface ReminderPolicyRow {
  version: number;
  enabled: boolean;
  steps: StepValue[];
}

/** The tenant's stored policy (no row: the default). Params: tenantParams. */
export const REMINDER_POLICY_SQL = `SELECT version, enabled, steps FROM reminder_policies WHERE tenant_id = $1`;

export const tenantParams = (p: { tenantId: string }): unknown[] => [p.tenantId];

/**
 * Makes sure the tenant has a policy row to lock (version 0: the default; a concurrent first PUT
 * waits here for the other's commit). Params: ensureReminderPolicyParams.
 */
export const ENSURE_REMINDER_POLICY_SQL = `INSERT INTO reminder_policies (tenant_id, version, enabled, steps, modified_by)
       VALUES ($1, 0, $2, $3::jsonb, $4)
       ON CONFLICT (tenant_id) DO NOTHING`;

export const ensureReminderPolicyParams = (p: {
  tenantId: string;
  enabled: boolean;
  steps: StepValue[];
  actor: string;
}): unknown[] => [p.tenantId, p.enabled, JSON.stringify(p.steps), p.actor];

/** The policy locked until commit, for a replacement. Params: tenantParams. */
export const LOCK_REMINDER_POLICY_SQL = `SELECT version, enabled, steps FROM reminder_policies WHERE tenant_id = $1 FOR UPDATE`;

/** A new version of the policy. Params: replaceReminderPolicyParams. */
export const REPLACE_REMINDER_POLICY_SQL = `WITH stored AS (
       UPDATE reminder_policies
          SET version = version + 1, enabled = $2, steps = $3::jsonb,
              modified_at = now(), modified_by = $4
        WHERE tenant_id = $1
        RETURNING version)
SELECT version FROM stored`;

export const replaceReminderPolicyParams = (p: {
  tenantId: string;
  enabled: boolean;
  steps: StepValue[];
  actor: string;
}): unknown[] => [p.tenantId, p.enabled, JSON.stringify(p.steps), p.actor];

// ---------------------------------------------------------------------------------------------
// Due reminders

/**
 * The reminders due on asOf for the whole tenant (docs/letters.md), as CTEs the due list and a run
 * share. Params ($1..$4): tenant, asOf, the default steps (jsonb, used while the tenant has no
 * policy row), the tenant's time zone.
 *
 * - `steps`: the policy's steps (none while it is disabled), with their order.
 * - `owed`: every split that exists and owes on asOf (receivables' fragments) with what it owes,
 *   its payer's overdue on the booking's other demands (`previous_dues`) and its payer's part of
 *   the demand (`this_demand`): the letter's figures, from one pass. Only splits whose due date is
 *   far enough back for the earliest step are kept.
 * - `candidates`: per split owing > 0, each step reached on asOf (asOf >= dueDate + offsetDays)
 *   neither sent nor skipped (no row in `reminders`).
 * - `latest`: per split, the candidate with the largest offset: the one due.
 * - `held`: whether a collection hold of the booking covers asOf (from <= asOf <= until).
 */
const DUE_CTES = `policy AS (
       SELECT coalesce(p.enabled, true) AS enabled, coalesce(p.steps, $3::jsonb) AS steps
         FROM (SELECT 1) one
         LEFT JOIN reminder_policies p ON p.tenant_id = $1),
     steps AS (
       SELECT e.step ->> 'name' AS name, (e.step ->> 'offsetDays')::int AS offset_days, e.ord
         FROM policy p
        CROSS JOIN LATERAL jsonb_array_elements(p.steps) WITH ORDINALITY AS e(step, ord)
        WHERE p.enabled),
     moved AS (${movedReceipts('$2::date')}),
     owed_all AS (
       SELECT s.id AS split_id, s.demand_id, d.booking_id, s.payer_id, s.payer_type,
              d.due_date, ${OUTSTANDING} AS outstanding
         FROM demand_splits s
         JOIN demands d ON d.tenant_id = s.tenant_id AND d.id = s.demand_id
         LEFT JOIN moved m ON m.demand_split_id = s.id
        WHERE s.tenant_id = $1 AND d.tenant_id = $1 AND ${owesOn('$2::date', '$4::text')}
          AND ${NOT_CANCELLED_AFTER_PAYMENT}),
     owed AS (
       SELECT o.*,
              sum(o.outstanding) OVER (PARTITION BY o.demand_id, o.payer_id) AS this_demand,
              coalesce(sum(o.outstanding) FILTER (WHERE o.due_date < $2::date)
                         OVER (PARTITION BY o.booking_id, o.payer_id), 0)
              - coalesce(sum(o.outstanding) FILTER (WHERE o.due_date < $2::date)
                           OVER (PARTITION BY o.demand_id, o.payer_id), 0) AS previous_dues
         FROM owed_all o),
     candidates AS (
       SELECT o.split_id, o.demand_id, o.booking_id, o.payer_id, o.payer_type, o.due_date,
              o.outstanding, o.this_demand, o.previous_dues, st.name AS step, st.offset_days, st.ord
         FROM owed o
         JOIN steps st ON $2::date >= o.due_date + st.offset_days
        WHERE o.outstanding > 0
          AND o.due_date <= $2::date - (SELECT min(offset_days) FROM steps)
          AND NOT EXISTS (SELECT 1 FROM reminders r
                           WHERE r.tenant_id = $1 AND r.demand_split_id = o.split_id
                             AND r.step = st.name)),
     latest AS (
       SELECT DISTINCT ON (c.split_id) c.*,
              EXISTS (SELECT 1 FROM collection_holds h
                       WHERE h.tenant_id = $1 AND h.booking_id = c.booking_id
                         AND h.from_date <= $2::date
                         AND (h.until_date IS NULL OR h.until_date >= $2::date)) AS held
         FROM candidates c
        ORDER BY c.split_id, c.offset_days DESC, c.ord DESC)`;

/** A due reminder with what its letter needs (money as numeric text). */
export interface DueReminderRow {
  split_id: string;
  demand_id: string;
  demand_number: string;
  booking_id: string;
  booking_number: string;
  buyer_name: string;
  unit_id: string;
  agreement_value: string | null;
  payer_id: string;
  payer_type: string;
  step: string;
  due_date: string;
  days_past_due: number;
  outstanding: string;
  this_demand: string;
  previous_dues: string;
}

const DUE_COLUMNS = `l.split_id, l.demand_id, d.demand_number, l.booking_id, b.booking_number,
       b.buyer_name, b.unit_id, b.agreement_value::text AS agreement_value, l.payer_id,
       l.payer_type, l.step, l.due_date::text AS due_date,
       ($2::date - l.due_date) AS days_past_due, l.outstanding::text AS outstanding,
       l.this_demand::text AS this_demand, l.previous_dues::text AS previous_dues`;

const DUE_JOINS = `JOIN demands d ON d.tenant_id = $1 AND d.id = l.demand_id
  JOIN bookings b ON b.tenant_id = $1 AND b.id = l.booking_id`;

/**
 * GET /reminders/due: one page of the reminders due on asOf (held ones are not due), by due date
 * then split, with the total. Params: dueParams.
 */
export const DUE_PAGE_SQL = `WITH ${DUE_CTES},
     due AS (SELECT * FROM latest WHERE NOT held)
SELECT ${DUE_COLUMNS}, (SELECT count(*)::int FROM due) AS total
  FROM due l
  ${DUE_JOINS}
 ORDER BY l.due_date, l.split_id
 LIMIT $5 OFFSET $6`;

export const dueParams = (p: {
  tenantId: string;
  asOf: string;
  defaultSteps: StepValue[];
  timezone: string;
  page: number;
  size: number;
}): unknown[] => [
  p.tenantId,
  p.asOf,
  JSON.stringify(p.defaultSteps),
  p.timezone,
  p.size,
  p.page * p.size,
];

/**
 * POST /reminders/run: the one statement that finds the tenant's due reminders on asOf and
 * records them: the latest step of each split not held as SENT, the earlier unsent steps of that
 * split as SKIPPED, in (split, step) order (two runs at once then queue on the same first key
 * instead of deadlocking). `reminders_split_step_key` with ON CONFLICT DO NOTHING is what keeps a
 * step from going out twice: a run that loses the race inserts nothing and answers nothing for
 * it. Answers the SENT reminders this run inserted, and how many due ones a hold kept back (on
 * every row; one row with split_id null when none was sent). Params: runParams.
 */
export const RUN_SQL = `WITH ${DUE_CTES},
     due AS (SELECT * FROM latest WHERE NOT held),
     rows AS (
       SELECT l.split_id, l.demand_id, l.step, 'SENT' AS status FROM due l
       UNION ALL
       SELECT c.split_id, c.demand_id, c.step, 'SKIPPED'
         FROM candidates c JOIN due l ON l.split_id = c.split_id AND l.step <> c.step),
     inserted AS (
       INSERT INTO reminders (tenant_id, demand_split_id, demand_id, step, status, as_of, run_id)
       SELECT $1, r.split_id, r.demand_id, r.step, r.status, $2::date, $5::uuid
         FROM rows r ORDER BY r.split_id, r.step
       ON CONFLICT (tenant_id, demand_split_id, step) DO NOTHING
       RETURNING demand_split_id, step, status, sent_at)
SELECT ${DUE_COLUMNS}, i.sent_at,
       (SELECT count(*)::int FROM latest WHERE held) AS skipped_held
  FROM (SELECT 1) one
  LEFT JOIN (due l
             JOIN inserted i ON i.demand_split_id = l.split_id AND i.step = l.step
                            AND i.status = 'SENT'
             ${DUE_JOINS}) ON true
 ORDER BY l.due_date, l.split_id`;

export interface RunRow extends Omit<DueReminderRow, 'split_id'> {
  split_id: string | null;
  sent_at: Date | null;
  skipped_held: number;
}

export const runParams = (p: {
  tenantId: string;
  asOf: string;
  defaultSteps: StepValue[];
  timezone: string;
  runId: string;
}): unknown[] => [p.tenantId, p.asOf, JSON.stringify(p.defaultSteps), p.timezone, p.runId];

/** GET /demands/{id}/reminders: the demand's sent reminders, oldest first. Params: demandParams. */
export const DEMAND_REMINDERS_SQL = `SELECT r.demand_split_id, s.payer_id, r.step, r.as_of::text AS as_of,
       r.sent_at, r.run_id
  FROM reminders r
  JOIN demand_splits s ON s.tenant_id = $1 AND s.id = r.demand_split_id
 WHERE r.tenant_id = $1 AND r.demand_id = $2 AND r.status = 'SENT'
 ORDER BY r.sent_at, r.demand_split_id, r.step`;

export interface DemandReminderRow {
  demand_split_id: string;
  payer_id: string;
  step: string;
  as_of: string;
  sent_at: Date;
  run_id: string;
}

export const demandParams = (p: { tenantId: string; demandId: string }): unknown[] => [
  p.tenantId,
  p.demandId,
];

// ---------------------------------------------------------------------------------------------
// Collection holds

/**
 * Holds of one booking are created and ended one at a time (until commit): a lock on the
 * booking's own key, so two creations at once cannot both find no active hold. Params:
 * bookingParams.
 */
export const LOCK_BOOKING_HOLDS_SQL = `SELECT pg_advisory_xact_lock(hashtextextended('collection-holds:' || $1::text || ':' || $2::text, 0))`;

export const bookingParams = (p: { tenantId: string; bookingId: string }): unknown[] => [
  p.tenantId,
  p.bookingId,
];

/** Whether the booking is the tenant's. Params: bookingParams. */
export const BOOKING_EXISTS_SQL = `SELECT id FROM bookings WHERE tenant_id = $1 AND id = $2`;

const HOLD_COLUMNS = `id, booking_id, reason, from_date::text AS from_date,
  until_date::text AS until_date, created_by, ended_at, ended_by`;

export interface HoldRow {
  id: string;
  booking_id: string;
  reason: string;
  from_date: string;
  until_date: string | null;
  created_by: string;
  ended_at: Date | null;
  ended_by: string | null;
}

/** The booking's hold active on `today` (not ended, not expired), if any. Params: activeHoldParams. */
export const ACTIVE_HOLD_SQL = `SELECT ${HOLD_COLUMNS} FROM collection_holds
 WHERE tenant_id = $1 AND booking_id = $2 AND ended_at IS NULL
   AND (until_date IS NULL OR until_date >= $3::date)`;

export const activeHoldParams = (p: {
  tenantId: string;
  bookingId: string;
  today: string;
}): unknown[] => [p.tenantId, p.bookingId, p.today];

export const INSERT_HOLD_SQL = `INSERT INTO collection_holds (tenant_id, booking_id, reason, from_date, until_date, created_by)
VALUES ($1, $2, $3, $4::date, $5::date, $6)
RETURNING ${HOLD_COLUMNS}`;

export const insertHoldParams = (p: {
  tenantId: string;
  bookingId: string;
  reason: string;
  from: string;
  until: string | null;
  actor: string;
}): unknown[] => [p.tenantId, p.bookingId, p.reason, p.from, p.until, p.actor];

/** One hold of a booking. Params: holdParams. */
export const HOLD_SQL = `SELECT ${HOLD_COLUMNS} FROM collection_holds
 WHERE tenant_id = $1 AND booking_id = $2 AND id = $3`;

export const holdParams = (p: {
  tenantId: string;
  bookingId: string;
  holdId: string;
}): unknown[] => [p.tenantId, p.bookingId, p.holdId];

/** Ends a hold: it covers `today` still, not tomorrow. Params: endHoldParams. */
export const END_HOLD_SQL = `WITH ended AS (
  UPDATE collection_holds
     SET until_date = $4::date, ended_at = now(), ended_by = $5
   WHERE tenant_id = $1 AND booking_id = $2 AND id = $3
  RETURNING ${HOLD_COLUMNS})
SELECT * FROM ended`;

export const endHoldParams = (p: {
  tenantId: string;
  bookingId: string;
  holdId: string;
  today: string;
  actor: string;
}): unknown[] => [p.tenantId, p.bookingId, p.holdId, p.today, p.actor];

/** A hold as listed: `ended_on` is the day it was ended in the tenant's zone, null while not. */
export interface ListedHoldRow {
  id: string;
  reason: string;
  from_date: string;
  until_date: string | null;
  ended_on: string | null;
  created_by: string;
}

/** The booking's holds, newest first. Params: bookingHoldsParams. */
export const BOOKING_HOLDS_SQL = `SELECT id, reason, from_date::text AS from_date, until_date::text AS until_date,
       (ended_at AT TIME ZONE $3::text)::date::text AS ended_on, created_by
  FROM collection_holds
 WHERE tenant_id = $1 AND booking_id = $2
 ORDER BY created_at DESC, id DESC`;

export const bookingHoldsParams = (p: {
  tenantId: string;
  bookingId: string;
  timezone: string;
}): unknown[] => [p.tenantId, p.bookingId, p.timezone];

/** Demands by id, with the columns the caller selects (demands.sql's DEMAND_COLUMNS). */
export const DEMANDS_BY_IDS_SQL = (columns: string): string =>
  `SELECT ${columns} FROM demands WHERE tenant_id = $1 AND id = ANY ($2::uuid[])`;

export const demandsByIdsParams = (p: { tenantId: string; ids: string[] }): unknown[] => [
  p.tenantId,
  p.ids,
];
