import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import Decimal from 'decimal.js';
import { TenantContext } from '@/common/tenant-context';
import { etagOf, ifMatchAllows, WithEtag } from '@/http/etag';
import { OutboxService } from '@/platform/outbox/outbox.service';
import { RoutingTransactionAdapter } from '@/platform/replicas/routing-transaction-adapter';
import type { CancellationPolicy as PolicyRecord, CancellationRule } from './cancellation-quote';
import {
  CANCELLATION_POLICY_HISTORY_SQL,
  CANCELLATION_POLICY_SQL,
  CancellationPolicyHistoryRow,
  CancellationPolicyRow,
  CancellationPolicyValues,
  ENSURE_CANCELLATION_POLICY_SQL,
  ensurePolicyParams,
  LOCK_CANCELLATION_POLICY_SQL,
  REPLACE_CANCELLATION_POLICY_SQL,
  replacePolicyParams,
  tenantParams,
} from './cancellation-policy.sql';
import { CANCELLATION_POLICY_CHANGED } from './cancellations.errors';
import { bandsProblem, CancellationPolicyRequest } from './dto/cancellation-policy.request';
import { validationFailed } from '@/http/errors/validation';
import { CancellationPolicyVersion, CancellationPolicyView } from './dto/cancellation-policy.view';

/** Every tenant's policy until it stores one: MahaRERA's 2022 bands, the refund in 45 days. */
export const DEFAULT_CANCELLATION_POLICY: CancellationPolicyValues = {
  rule: 'MAHARERA_2022',
  percent: '10.00',
  bands: [],
  refundDays: 45,
};

/** Two-decimal text of a percent the request gave as a number. */
const percentText = (value: number) => new Decimal(String(value)).toFixed(2);

function valuesOfRow(row: CancellationPolicyRow | undefined): CancellationPolicyValues {
  if (!row) return DEFAULT_CANCELLATION_POLICY;
  return {
    rule: row.rule,
    percent: row.percent,
    bands: row.bands.map((b) => ({ fromDay: b.fromDay, percent: b.percent })),
    refundDays: row.refund_days,
  };
}

function toView(values: CancellationPolicyValues): CancellationPolicyView {
  return {
    rule: values.rule as CancellationRule,
    percent: Number(values.percent),
    bands: values.bands.map((b) => ({ fromDay: b.fromDay, percent: Number(b.percent) })),
    refundDays: values.refundDays,
  };
}

/** The tenant's cancellation policy, its versions and the `cancellation-policy.updated` event. */
@Injectable()
export class CancellationPolicyService {
  constructor(
    private readonly txHost: TransactionHost<RoutingTransactionAdapter>,
    private readonly outbox: OutboxService,
  ) {}

  /** The policy in force, read in the caller's transaction (percents as text, for the quote). */
  async policy(tenant: TenantContext): Promise<PolicyRecord> {
    const [row] = await this.txHost.tx.query<CancellationPolicyRow[]>(
      CANCELLATION_POLICY_SQL,
      tenantParams({ tenantId: tenant.tenantId }),
    );
    const values = valuesOfRow(row);
    return { ...values, rule: values.rule as CancellationRule };
  }

  async get(tenant: TenantContext): Promise<WithEtag<CancellationPolicyView>> {
    const view = toView(await this.policy(tenant));
    return { view, etag: etagOf(view) };
  }

  /** PUT: a new version in the history and an event, unless nothing changes. */
  async replace(
    tenant: TenantContext,
    input: CancellationPolicyRequest,
    ifMatch?: string,
  ): Promise<WithEtag<CancellationPolicyView>> {
    const values: CancellationPolicyValues = {
      rule: input.rule ?? DEFAULT_CANCELLATION_POLICY.rule,
      percent:
        input.percent === undefined || input.percent === null
          ? DEFAULT_CANCELLATION_POLICY.percent
          : percentText(input.percent),
      bands: (input.bands ?? []).map((b) => ({
        fromDay: b.fromDay,
        percent: percentText(b.percent),
      })),
      refundDays: input.refundDays ?? DEFAULT_CANCELLATION_POLICY.refundDays,
    };
    // @IsOptional skips the request's own check when bands are left out.
    const bands = bandsProblem(input.bands, values.rule);
    if (bands !== null) throw validationFailed([{ field: 'bands', message: `bands ${bands}` }]);
    const em = this.txHost.tx;
    const tenantId = tenant.tenantId;
    await em.query(
      ENSURE_CANCELLATION_POLICY_SQL,
      ensurePolicyParams({ tenantId, actor: tenant.actor, ...DEFAULT_CANCELLATION_POLICY }),
    );
    const [current] = await em.query<CancellationPolicyRow[]>(
      LOCK_CANCELLATION_POLICY_SQL,
      tenantParams({ tenantId }),
    );
    const before = toView(valuesOfRow(current));
    if (!ifMatchAllows(ifMatch, etagOf(before))) throw CANCELLATION_POLICY_CHANGED.error();
    const view = toView(values);
    if (JSON.stringify(view) === JSON.stringify(before)) return { view, etag: etagOf(view) };
    await em.query(
      REPLACE_CANCELLATION_POLICY_SQL,
      replacePolicyParams({
        tenantId,
        version: current.version + 1,
        actor: tenant.actor,
        view,
        ...values,
      }),
    );
    this.outbox.record('cancellation-policy.updated', view);
    return { view, etag: etagOf(view) };
  }

  /** Every stored version, newest first (empty until the first change). */
  async history(tenant: TenantContext): Promise<CancellationPolicyVersion[]> {
    const rows = await this.txHost.tx.query<CancellationPolicyHistoryRow[]>(
      CANCELLATION_POLICY_HISTORY_SQL,
      tenantParams({ tenantId: tenant.tenantId }),
    );
    return rows.map((r) => ({
      version: r.version,
      changedAt: new Date(r.changed_at).toISOString(),
      changedBy: r.changed_by,
      policy: r.policy as unknown as CancellationPolicyView,
    }));
  }
}
