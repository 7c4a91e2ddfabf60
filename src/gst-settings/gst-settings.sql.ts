/** Every statement on `gst_settings` and its history, with row types and parameter builders. */

import type { InterestTax } from '@/gst/gst-tax';

/** A return filed for a financial year (`2025-26`), as stored in `annual_returns`. */
export interface AnnualReturnValue {
  financialYear: string;
  filedOn: string;
}

/** The settings' values as stored (the columns PUT replaces). */
export interface GstSettingsValues {
  enabled: boolean;
  gstin: string | null;
  legalName: string | null;
  address: string | null;
  otherChargesSac: string;
  interestTax: InterestTax;
  /** `YYYY-MM`, or null. */
  lockedThrough: string | null;
  /** Oldest financial year first. */
  annualReturns: AnnualReturnValue[];
}

/** A gst_settings row as SETTINGS_COLUMNS selects it (jsonb arrives parsed). */
export interface GstSettingsRow {
  version: number;
  enabled: boolean;
  gstin: string | null;
  legal_name: string | null;
  address: string | null;
  other_charges_sac: string;
  interest_tax: InterestTax;
  locked_through: string | null;
  annual_returns: AnnualReturnValue[];
}

const SETTINGS_COLUMNS = `version, enabled, gstin, legal_name, address, other_charges_sac,
  interest_tax, locked_through, annual_returns`;

export const tenantParams = (p: { tenantId: string }): unknown[] => [p.tenantId];

/** The tenant's stored settings (no row: the defaults). Params: tenantParams. */
export const GST_SETTINGS_SQL = `SELECT ${SETTINGS_COLUMNS} FROM gst_settings WHERE tenant_id = $1`;

/**
 * Makes sure the tenant has a row to lock (version 0: the defaults, stored by nobody; a concurrent
 * first PUT waits here for the other's commit). Params: ensureGstSettingsParams.
 */
export const ENSURE_GST_SETTINGS_SQL = `INSERT INTO gst_settings (tenant_id, version, enabled, gstin, legal_name, address,
         other_charges_sac, interest_tax, locked_through, annual_returns, modified_by)
       VALUES ($1, 0, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10)
       ON CONFLICT (tenant_id) DO NOTHING`;

const valueParams = (p: GstSettingsValues): unknown[] => [
  p.enabled,
  p.gstin,
  p.legalName,
  p.address,
  p.otherChargesSac,
  p.interestTax,
  p.lockedThrough,
  JSON.stringify(p.annualReturns),
];

export const ensureGstSettingsParams = (
  p: { tenantId: string; actor: string } & GstSettingsValues,
): unknown[] => [p.tenantId, ...valueParams(p), p.actor];

/** The settings locked until commit, for a replacement. Params: tenantParams. */
export const LOCK_GST_SETTINGS_SQL = `SELECT ${SETTINGS_COLUMNS} FROM gst_settings WHERE tenant_id = $1 FOR UPDATE`;

/**
 * Stores a new version and appends it to the history, in one statement. Params:
 * replaceGstSettingsParams.
 */
export const REPLACE_GST_SETTINGS_SQL = `WITH stored AS (
       UPDATE gst_settings
          SET version = $2, enabled = $3, gstin = $4, legal_name = $5, address = $6,
              other_charges_sac = $7, interest_tax = $8, locked_through = $9,
              annual_returns = $10::jsonb, modified_at = now(), modified_by = $11
        WHERE tenant_id = $1
        RETURNING tenant_id, version, modified_at, modified_by)
INSERT INTO gst_settings_history (tenant_id, version, settings, changed_at, changed_by)
SELECT tenant_id, version, $12::jsonb, modified_at, modified_by FROM stored`;

export const replaceGstSettingsParams = (
  p: { tenantId: string; version: number; actor: string; view: unknown } & GstSettingsValues,
): unknown[] => [p.tenantId, p.version, ...valueParams(p), p.actor, JSON.stringify(p.view)];

/** Every stored version, newest first. Params: tenantParams. */
export const GST_SETTINGS_HISTORY_SQL = `SELECT version, settings, changed_at, changed_by
  FROM gst_settings_history WHERE tenant_id = $1 ORDER BY version DESC`;

export interface GstSettingsHistoryRow {
  version: number;
  settings: Record<string, unknown>;
  changed_at: Date;
  changed_by: string;
}
