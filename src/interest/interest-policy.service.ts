import { Injectable } from '@nestjs/common';
import { etagOf, ifMatchAllows, WithEtag } from '@/http/etag';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TenantContext } from '@/common/tenant-context';
import { OutboxService } from '@/platform/outbox/outbox.service';
import { RoutingTransactionAdapter } from '@/platform/replicas/routing-transaction-adapter';
import { InterestPolicyRequest } from './dto/interest-policy.request';
import { InterestPolicyVersion, InterestPolicyView } from './dto/interest-policy.view';
import { INTEREST_POLICY_CHANGED } from './interest.errors';
import {
  ENSURE_POLICY_SQL,
  ensurePolicyParams,
  LOCK_POLICY_SQL,
  POLICY_HISTORY_SQL,
  POLICY_SQL,
  PolicyHistoryRow,
  PolicyRow,
  PolicyValues,
  REPLACE_POLICY_SQL,
  replacePolicyParams,
  StoredPolicyRow,
  tenantParams,
} from './interest.sql';

/** Every tenant's policy until it stores one: disabled, no rates. */
export const DEFAULT_POLICY: InterestPolicyView = {
  enabled: false,
  graceDays: 0,
  rates: [],
  demandTypes: ['MILESTONE', 'MANUAL'],
  payerTypes: ['BUYER', 'CO_BUYER'],
};

export type PolicyWithEtag = WithEtag<InterestPolicyView>;

/** The policy as the API shows it: rates oldest first, numbers as numbers. */
export function toPolicyView(row: PolicyRow | null): InterestPolicyView {
  if (!row) return DEFAULT_POLICY;
  return {
    enabled: row.enabled,
    graceDays: row.grace_days,
    rates: [...row.rates]
      .sort((a, b) => (a.effectiveFrom < b.effectiveFrom ? -1 : 1))
      .map((r) => ({
        effectiveFrom: r.effectiveFrom,
        annualRatePercent: Number(r.annualRatePercent),
      })),
    demandTypes: row.demand_types,
    payerTypes: row.payer_types,
  };
}

function valuesOf(view: InterestPolicyView): PolicyValues {
  return {
    enabled: view.enabled,
    graceDays: view.graceDays,
    rates: view.rates,
    demandTypes: view.demandTypes,
    payerTypes: view.payerTypes,
  };
}

/** The tenant's interest policy, its versions and the `interest-policy.updated` event. */
@Injectable()
export class InterestPolicyService {
  constructor(
    private readonly txHost: TransactionHost<RoutingTransactionAdapter>,
    private readonly outbox: OutboxService,
  ) {}

  async get(tenant: TenantContext): Promise<PolicyWithEtag> {
    const [row] = await this.txHost.tx.query<StoredPolicyRow[]>(
      POLICY_SQL,
      tenantParams({ tenantId: tenant.tenantId }),
    );
    const view = toPolicyView(row ?? null);
    return { view, etag: etagOf(view) };
  }

  /**
   * PUT: replaces the policy (a new version in the history and an event) unless nothing changes.
   * The row is locked first, so concurrent replacements queue and If-Match sees the latest.
   */
  async replace(
    tenant: TenantContext,
    input: InterestPolicyRequest,
    ifMatch?: string,
  ): Promise<PolicyWithEtag> {
    const em = this.txHost.tx;
    const tenantId = tenant.tenantId;
    await em.query(
      ENSURE_POLICY_SQL,
      ensurePolicyParams({ tenantId, actor: tenant.actor, ...valuesOf(DEFAULT_POLICY) }),
    );
    const [current] = await em.query<StoredPolicyRow[]>(
      LOCK_POLICY_SQL,
      tenantParams({ tenantId }),
    );
    const before = toPolicyView(current);
    if (!ifMatchAllows(ifMatch, etagOf(before))) {
      throw INTEREST_POLICY_CHANGED.error();
    }
    const view = toPolicyView({
      enabled: input.enabled,
      grace_days: input.graceDays,
      rates: input.rates.map((r) => ({
        effectiveFrom: r.effectiveFrom,
        annualRatePercent: r.annualRatePercent,
      })),
      demand_types: input.demandTypes,
      payer_types: input.payerTypes,
    });
    if (JSON.stringify(view) === JSON.stringify(before)) return { view, etag: etagOf(view) };

    await em.query(
      REPLACE_POLICY_SQL,
      replacePolicyParams({
        tenantId,
        version: current.version + 1,
        actor: tenant.actor,
        view,
        ...valuesOf(view),
      }),
    );
    this.outbox.record('interest-policy.updated', view);
    return { view, etag: etagOf(view) };
  }

  /** Every stored version, newest first (empty until the first change). */
  async history(tenant: TenantContext): Promise<InterestPolicyVersion[]> {
    const rows = await this.txHost.tx.query<PolicyHistoryRow[]>(
      POLICY_HISTORY_SQL,
      tenantParams({ tenantId: tenant.tenantId }),
    );
    return rows.map((r) => ({
      version: r.version,
      changedAt: new Date(r.changed_at).toISOString(),
      changedBy: r.changed_by,
      policy: r.policy as unknown as InterestPolicyView,
    }));
  }
}
