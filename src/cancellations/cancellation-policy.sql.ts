/** Every statement on `cancellation_policies` and its history, with row types and parameters. */

/** A cancellation_policies row as POLICY_COLUMNS selects it (percent as numeric text). */
export interface CancellationPolicyRow {
  version: number;
  rule: string;
  percent: string;
  bands: { fromDay: number; percent: string }[];
  refund_days: number;
}

/** The policy's values as stored (percents as two-decimal text). */
export interface CancellationPolicyValues {
  rule: string;
  percent: string;
  bands: readonly { fromDay: number; percent: string }[];
  refundDays: number;
}

const POLICY_COLUMNS = `version, rule, percent::text AS percent, bands, refund_days`;

export const tenantParams = (p: { tenantId: string }): unknown[] => [p.tenantId];

/** The tenant's stored policy (no row: the defaults). Params: tenantParams. */
export const CANCELLATION_POLICY_SQL = `SELECT ${POLICY_COLUMNS} FROM cancellation_policies WHERE tenant_id = $1`;

/**
 * Makes sure the tenant has a row to lock (version 0: the defaults, stored by nobody; a concurrent
 * first PUT waits here for the other's commit). Params: ensurePolicyParams.
 */
export const ENSURE_CANCELLATION_POLICY_SQL = `INSERT INTO cancellation_policies (tenant_id, version, rule, percent, bands, refund_days, modified_by)
       VALUES ($1, 0, $2, $3::numeric, $4::jsonb, $5, $6)
       ON CONFLICT (tenant_id) DO NOTHING`;

const valueParams = (p: CancellationPolicyValues): unknown[] => [
  p.rule,
  p.percent,
  JSON.stringify(p.bands),
  p.refundDays,
];

export const ensurePolicyParams = (
  p: { tenantId: string; actor: string } & CancellationPolicyValues,
): unknown[] => [p.tenantId, ...valueParams(p), p.actor];

/** The policy locked until commit, for a replacement. Params: tenantParams. */
export const LOCK_CANCELLATION_POLICY_SQL = `SELECT ${POLICY_COLUMNS} FROM cancellation_policies WHERE tenant_id = $1 FOR UPDATE`;

/** Stores a new version and appends it to the history, in one statement. */
export const REPLACE_CANCELLATION_POLICY_SQL = `WITH stored AS (
       UPDATE cancellation_policies
          SET version = $2, rule = $3, percent = $4::numeric, bands = $5::jsonb, refund_days = $6,
              modified_at = now(), modified_by = $7
        WHERE tenant_id = $1
        RETURNING tenant_id, version, modified_at, modified_by)
INSERT INTO cancellation_policy_history (tenant_id, version, policy, changed_at, changed_by)
SELECT tenant_id, version, $8::jsonb, modified_at, modified_by FROM stored`;

export const replacePolicyParams = (
  p: { tenantId: string; version: number; actor: string; view: unknown } & CancellationPolicyValues,
): unknown[] => [p.tenantId, p.version, ...valueParams(p), p.actor, JSON.stringify(p.view)];

/** Every stored version, newest first. Params: tenantParams. */
export const CANCELLATION_POLICY_HISTORY_SQL = `SELECT version, policy, changed_at, changed_by
  FROM cancellation_policy_history WHERE tenant_id = $1 ORDER BY version DESC`;

export interface CancellationPolicyHistoryRow {
  version: number;
  policy: Record<string, unknown>;
  changed_at: Date;
  changed_by: string;
}
