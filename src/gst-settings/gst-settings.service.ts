import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { FieldError } from '@/common/app-error';
import { pastDateProblems } from '@/common/dates/plausible-dates';
import { TenantContext } from '@/common/tenant-context';
import { checkedGstin } from '@/gst/gst.errors';
import { DEFAULT_OTHER_CHARGES_SAC, InterestTax } from '@/gst/gst-tax';
import { etagOf, ifMatchAllows, WithEtag } from '@/http/etag';
import { validationFailed } from '@/http/errors/validation';
import { Clock } from '@/platform/clock/clock';
import { OutboxService } from '@/platform/outbox/outbox.service';
import { RoutingTransactionAdapter } from '@/platform/replicas/routing-transaction-adapter';
import { GstSettingsRequest } from './dto/gst-settings.request';
import { GstSettingsVersion, GstSettingsView } from './dto/gst-settings.view';
import { GST_SETTINGS_CHANGED, GST_SETTINGS_INCOMPLETE } from './gst-settings.errors';
import {
  ENSURE_GST_SETTINGS_SQL,
  ensureGstSettingsParams,
  GST_SETTINGS_HISTORY_SQL,
  GST_SETTINGS_SQL,
  GstSettingsHistoryRow,
  GstSettingsRow,
  GstSettingsValues,
  LOCK_GST_SETTINGS_SQL,
  REPLACE_GST_SETTINGS_SQL,
  replaceGstSettingsParams,
  tenantParams,
} from './gst-settings.sql';

/**
 * The tenant's GST settings as the features that tax demands and print invoices read them
 * (`GstSettingsService.settings`): plain values, no money.
 */
export interface GstSettingsRecord {
  enabled: boolean;
  /** Upper case, check character verified; null until given. */
  gstin: string | null;
  legalName: string | null;
  address: string | null;
  /** The GSTIN's first two digits (the place of supply: the flat is in the tenant's state). */
  stateCode: string | null;
  /** 6 digits. */
  otherChargesSac: string;
  interestTax: InterestTax;
  /** `YYYY-MM`: no tax invoice may be dated in or before this month; null: none filed. */
  lockedThrough: string | null;
  /** Oldest financial year (`2025-26`) first. */
  annualReturns: { financialYear: string; filedOn: string }[];
}

/** Every tenant's settings until it stores some: not registered. */
export const DEFAULT_GST_SETTINGS: GstSettingsValues = {
  enabled: false,
  gstin: null,
  legalName: null,
  address: null,
  otherChargesSac: DEFAULT_OTHER_CHARGES_SAC,
  interestTax: 'AS_PRINCIPAL',
  lockedThrough: null,
  annualReturns: [],
};

/** The settings as the API shows them: the stored values plus the derived state code. */
export function toGstSettingsRecord(values: GstSettingsValues): GstSettingsRecord {
  return {
    enabled: values.enabled,
    gstin: values.gstin,
    legalName: values.legalName,
    address: values.address,
    stateCode: values.gstin === null ? null : values.gstin.slice(0, 2),
    otherChargesSac: values.otherChargesSac,
    interestTax: values.interestTax,
    lockedThrough: values.lockedThrough,
    annualReturns: values.annualReturns.map((r) => ({
      financialYear: r.financialYear,
      filedOn: r.filedOn,
    })),
  };
}

function valuesOfRow(row: GstSettingsRow | undefined): GstSettingsValues {
  if (!row) return DEFAULT_GST_SETTINGS;
  return {
    enabled: row.enabled,
    gstin: row.gstin,
    legalName: row.legal_name,
    address: row.address,
    otherChargesSac: row.other_charges_sac,
    interestTax: row.interest_tax,
    lockedThrough: row.locked_through,
    annualReturns: row.annual_returns,
  };
}

/** The first day after financial year `2025-26` ends: its annual return cannot be filed earlier. */
const yearEndsBefore = (financialYear: string) => `${Number(financialYear.slice(0, 4)) + 1}-04-01`;

/** The tenant's GST settings, their versions and the `gst-settings.updated` event. */
@Injectable()
export class GstSettingsService {
  constructor(
    private readonly txHost: TransactionHost<RoutingTransactionAdapter>,
    private readonly outbox: OutboxService,
    private readonly clock: Clock,
  ) {}

  /**
   * The settings in force, read in the caller's transaction (a demand taxes and invoices with
   * what this returns): the defaults until the first PUT.
   */
  async settings(tenant: TenantContext): Promise<GstSettingsRecord> {
    const [row] = await this.txHost.tx.query<GstSettingsRow[]>(
      GST_SETTINGS_SQL,
      tenantParams({ tenantId: tenant.tenantId }),
    );
    return toGstSettingsRecord(valuesOfRow(row));
  }

  async get(tenant: TenantContext): Promise<WithEtag<GstSettingsView>> {
    const view = await this.settings(tenant);
    return { view, etag: etagOf(view) };
  }

  /**
   * PUT: replaces the settings (a new version in the history and an event) unless nothing
   * changes. The row is locked first, so concurrent replacements queue and If-Match sees the
   * latest.
   */
  async replace(
    tenant: TenantContext,
    input: GstSettingsRequest,
    ifMatch?: string,
  ): Promise<WithEtag<GstSettingsView>> {
    const values = this.valuesOf(tenant, input);
    const em = this.txHost.tx;
    const tenantId = tenant.tenantId;
    await em.query(
      ENSURE_GST_SETTINGS_SQL,
      ensureGstSettingsParams({ tenantId, actor: tenant.actor, ...DEFAULT_GST_SETTINGS }),
    );
    const [current] = await em.query<GstSettingsRow[]>(
      LOCK_GST_SETTINGS_SQL,
      tenantParams({ tenantId }),
    );
    const before = toGstSettingsRecord(valuesOfRow(current));
    if (!ifMatchAllows(ifMatch, etagOf(before))) throw GST_SETTINGS_CHANGED.error();
    const view = toGstSettingsRecord(values);
    if (JSON.stringify(view) === JSON.stringify(before)) return { view, etag: etagOf(view) };

    await em.query(
      REPLACE_GST_SETTINGS_SQL,
      replaceGstSettingsParams({
        tenantId,
        version: current.version + 1,
        actor: tenant.actor,
        view,
        ...values,
      }),
    );
    this.outbox.record('gst-settings.updated', view);
    return { view, etag: etagOf(view) };
  }

  /** Every stored version, newest first (empty until the first change). */
  async history(tenant: TenantContext): Promise<GstSettingsVersion[]> {
    const rows = await this.txHost.tx.query<GstSettingsHistoryRow[]>(
      GST_SETTINGS_HISTORY_SQL,
      tenantParams({ tenantId: tenant.tenantId }),
    );
    return rows.map((r) => ({
      version: r.version,
      changedAt: new Date(r.changed_at).toISOString(),
      changedBy: r.changed_by,
      settings: r.settings as unknown as GstSettingsView,
    }));
  }

  /**
   * The values a PUT stores: an omitted (or null) field takes its default. 400s first (the GSTIN,
   * dates), then 422 GST_SETTINGS_INCOMPLETE.
   */
  private valuesOf(tenant: TenantContext, input: GstSettingsRequest): GstSettingsValues {
    const gstin =
      input.gstin === undefined || input.gstin === null ? null : checkedGstin('gstin', input.gstin);
    const today = this.clock.today(tenant);
    const returns = [...(input.annualReturns ?? [])].sort((a, b) =>
      a.financialYear < b.financialYear ? -1 : 1,
    );
    const problems: FieldError[] = (input.annualReturns ?? []).flatMap((r, i) => {
      const field = `annualReturns.${i}.filedOn`;
      const past = pastDateProblems(field, r.filedOn, today);
      if (past.length > 0) return past;
      const earliest = yearEndsBefore(r.financialYear);
      return r.filedOn < earliest
        ? [
            {
              field,
              message: `must not be before ${earliest}, after financial year ${r.financialYear} ends`,
            },
          ]
        : [];
    });
    if (problems.length > 0) throw validationFailed(problems);

    const values: GstSettingsValues = {
      enabled: input.enabled ?? DEFAULT_GST_SETTINGS.enabled,
      gstin,
      legalName: input.legalName ?? null,
      address: input.address ?? null,
      otherChargesSac: input.otherChargesSac ?? DEFAULT_GST_SETTINGS.otherChargesSac,
      interestTax:
        (input.interestTax as InterestTax | null | undefined) ?? DEFAULT_GST_SETTINGS.interestTax,
      lockedThrough: input.lockedThrough ?? null,
      annualReturns: returns.map((r) => ({ financialYear: r.financialYear, filedOn: r.filedOn })),
    };
    if (values.enabled) {
      const missing = (['gstin', 'legalName', 'address'] as const).filter(
        (f) => values[f] === null,
      );
      if (missing.length > 0) {
        throw GST_SETTINGS_INCOMPLETE.errorWith(
          {
            errors: missing.map((field) => ({
              field,
              message: `${field} is required while enabled`,
            })),
          },
          missing.join(', '),
        );
      }
    }
    return values;
  }
}
