/**
 * The statements of interest on late payment (docs/interest.md), with their row types and
 * parameter builders. The interest of a booking is fed by one statement, INTEREST_SQL; the rule
 * itself is computed in interest-rule.ts.
 */

/**
 * What the interest of bookings needs besides their records (the ledger's LEDGER_RECORDS_SQL),
 * one row per booking (none for a booking that is not the tenant's): the tenant's policy and the
 * booking's waivers, oldest first (the caller applies asOf). Params: interestParams (one
 * booking) or bookingsInterestParams (many: a reminder run's letters).
 */
export const INTEREST_SQL = `SELECT b.id,
       (SELECT row_to_json(p)
          FROM (SELECT enabled, grace_days, rates, demand_types, payer_types
                  FROM interest_policies WHERE tenant_id = $1) p) AS policy,
       (SELECT coalesce(json_agg(json_build_object(
                 'id', w.id, 'payerId', w.payer_id, 'amount', w.amount::text, 'reason', w.reason,
                 'waivedOn', w.waived_on, 'waivedBy', w.waived_by)
               ORDER BY w.waived_on, w.created_at, w.id), '[]'::json)
          FROM interest_waivers w
         WHERE w.tenant_id = $1 AND w.booking_id = b.id) AS waivers
  FROM bookings b
 WHERE b.tenant_id = $1 AND b.id = ANY ($2::uuid[])`;

/** A booking's row of INTEREST_SQL. */
export interface InterestTermsRow {
  id: string;
  /** Null when the tenant never stored one (the default, disabled policy). */
  policy: PolicyRow | null;
  waivers: InterestWaiverRow[];
}

/** The stored policy as the statements return it (jsonb and text[] arrive parsed). */
export interface PolicyRow {
  enabled: boolean;
  grace_days: number;
  rates: { effectiveFrom: string; annualRatePercent: number }[];
  demand_types: string[];
  payer_types: string[];
}

export interface InterestSplitRow {
  id: string;
  demand: string;
  demandNumber: string;
  payerType: string;
  payerId: string;
  dueDate: string;
  amount: string;
  payments: { date: string; amount: string }[];
}

export interface InterestDemandedRow {
  demand: string;
  demandDate: string;
  interestThrough: string;
  /** The cancel's date in the tenant's zone; null while the demand is not cancelled. */
  cancelledOn: string | null;
  payerId: string;
  amount: string;
}

export interface InterestWaiverRow {
  id: string;
  payerId: string;
  amount: string;
  reason: string;
  waivedOn: string;
  waivedBy: string;
}

/** The interest's input for one booking: its terms and what the ledger says of its splits. */
export interface InterestRow {
  id: string;
  booking_number: string;
  unit_id: string;
  buyer_name: string;
  status: string;
  /** Null when the tenant never stored one (the default, disabled policy). */
  policy: PolicyRow | null;
  splits: InterestSplitRow[];
  demanded: InterestDemandedRow[];
  waivers: InterestWaiverRow[];
}

export const bookingsInterestParams = (p: {
  tenantId: string;
  bookingIds: readonly string[];
}): unknown[] => [p.tenantId, p.bookingIds];

/**
 * The booking, locked until commit, before an interest demand or waiver is written: two of them
 * on one booking queue here, so neither can bill or waive what the other just did. The booking
 * comes first in the lock order every writer shares (cancellations.service.ts). Params:
 * bookingParams.
 */
export const LOCK_BOOKING_SQL = `SELECT status FROM bookings WHERE tenant_id = $1 AND id = $2 FOR UPDATE`;

export interface LockedBookingRow {
  status: string;
}

export const bookingParams = (p: { tenantId: string; bookingId: string }): unknown[] => [
  p.tenantId,
  p.bookingId,
];

const WAIVER_COLUMNS = `id, booking_id, payer_id, amount::text AS amount, reason,
  waived_on::text AS waived_on, waived_by`;

export interface WaiverRow {
  id: string;
  booking_id: string;
  payer_id: string;
  amount: string;
  reason: string;
  waived_on: string;
  waived_by: string;
}

export const INSERT_WAIVER_SQL = `INSERT INTO interest_waivers (tenant_id, booking_id, payer_id, amount, reason, waived_on, waived_by)
       VALUES ($1, $2, $3, $4::numeric, $5, $6::date, $7)
       RETURNING ${WAIVER_COLUMNS}`;

export const insertWaiverParams = (p: {
  tenantId: string;
  bookingId: string;
  payerId: string;
  /** Numeric text, two decimals. */
  amount: string;
  reason: string;
  waivedOn: string;
  waivedBy: string;
}): unknown[] => [p.tenantId, p.bookingId, p.payerId, p.amount, p.reason, p.waivedOn, p.waivedBy];

const POLICY_COLUMNS = `version, enabled, grace_days, rates, demand_types, payer_types`;

export interface StoredPolicyRow extends PolicyRow {
  version: number;
}

/** The tenant's stored policy (no row: the default). Params: tenantParams. */
export const POLICY_SQL = `SELECT ${POLICY_COLUMNS} FROM interest_policies WHERE tenant_id = $1`;

export const tenantParams = (p: { tenantId: string }): unknown[] => [p.tenantId];

/**
 * Makes sure the tenant has a policy row to lock (version 0: the default, never stored by anyone;
 * a concurrent first PUT waits here for the other's commit). Params: ensurePolicyParams.
 */
export const ENSURE_POLICY_SQL = `INSERT INTO interest_policies (tenant_id, version, enabled, grace_days, rates, demand_types, payer_types, modified_by)
       VALUES ($1, 0, $2, $3, $4::jsonb, $5::text[], $6::text[], $7)
       ON CONFLICT (tenant_id) DO NOTHING`;

export const ensurePolicyParams = (
  p: { tenantId: string; actor: string } & PolicyValues,
): unknown[] => [
  p.tenantId,
  p.enabled,
  p.graceDays,
  JSON.stringify(p.rates),
  p.demandTypes,
  p.payerTypes,
  p.actor,
];

/** The policy locked until commit, for a replacement. Params: tenantParams. */
export const LOCK_POLICY_SQL = `SELECT ${POLICY_COLUMNS} FROM interest_policies WHERE tenant_id = $1 FOR UPDATE`;

/** A policy's values as stored. */
export interface PolicyValues {
  enabled: boolean;
  graceDays: number;
  rates: { effectiveFrom: string; annualRatePercent: number }[];
  demandTypes: string[];
  payerTypes: string[];
}

/**
 * Stores a new version of the policy and appends it to the history, in one statement. Params:
 * replacePolicyParams.
 */
export const REPLACE_POLICY_SQL = `WITH stored AS (
       UPDATE interest_policies
          SET version = $2, enabled = $3, grace_days = $4, rates = $5::jsonb,
              demand_types = $6::text[], payer_types = $7::text[],
              modified_at = now(), modified_by = $8
        WHERE tenant_id = $1
        RETURNING tenant_id, version, modified_at, modified_by)
INSERT INTO interest_policy_history (tenant_id, version, policy, changed_at, changed_by)
SELECT tenant_id, version, $9::jsonb, modified_at, modified_by FROM stored
RETURNING changed_at`;

export const replacePolicyParams = (
  p: { tenantId: string; version: number; actor: string; view: unknown } & PolicyValues,
): unknown[] => [
  p.tenantId,
  p.version,
  p.enabled,
  p.graceDays,
  JSON.stringify(p.rates),
  p.demandTypes,
  p.payerTypes,
  p.actor,
  JSON.stringify(p.view),
];

/** Every stored version, newest first. Params: tenantParams. */
export const POLICY_HISTORY_SQL = `SELECT version, policy, changed_at, changed_by
  FROM interest_policy_history WHERE tenant_id = $1 ORDER BY version DESC`;

export interface PolicyHistoryRow {
  version: number;
  policy: Record<string, unknown>;
  changed_at: Date;
  changed_by: string;
}
