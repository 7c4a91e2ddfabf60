import { Injectable } from '@nestjs/common';
import { Clock } from '@/platform/clock/clock';
import { TransactionHost } from '@nestjs-cls/transactional';
import { FieldError } from '@/common/app-error';
import { toMoney } from '@/common/money/money';
import { TenantContext } from '@/common/tenant-context';
import { RoutingTransactionAdapter } from '@/platform/replicas/routing-transaction-adapter';
import { bucketLabels, parseAgeingQuery, RawAgeingQuery } from './ageing-query';
import { AgeingView } from './dto/ageing.view';
import { AGEING_SQL, ageingParams, AgeingRow } from './receivables.sql';
import { validationFailed } from '@/http/errors/validation';

/** What buyers owe: read-only, one statement per report, through the request's transaction. */
@Injectable()
export class ReceivablesService {
  constructor(
    private readonly clock: Clock,
    private readonly txHost: TransactionHost<RoutingTransactionAdapter>,
  ) {}

  /** GET /receivables/ageing. */
  async ageing(tenant: TenantContext, raw: RawAgeingQuery): Promise<AgeingView> {
    const errors: FieldError[] = [];
    const today = this.clock.today(tenant);
    const query = parseAgeingQuery(raw, today, errors);
    if (errors.length > 0) {
      throw validationFailed(errors);
    }
    const [row] = await this.txHost.tx.query<AgeingRow[]>(
      AGEING_SQL,
      ageingParams({ tenantId: tenant.tenantId, timezone: tenant.timezone, ...query }),
    );
    const labels = bucketLabels(query.edges);
    const money = (amount: string) => toMoney(amount, tenant.currency, tenant.locale);
    const byBucket = (cells: Record<string, string>) =>
      Object.fromEntries(labels.map((label, i) => [label, money(cells[i] ?? '0.00')]));
    return {
      asOf: query.asOf,
      buckets: labels,
      total: { outstanding: money(row.outstanding), byBucket: byBucket(row.by_bucket) },
      groups: row.groups.map((g) => ({
        key: g.key,
        label: g.label,
        outstanding: money(g.outstanding),
        byBucket: byBucket(g.byBucket),
      })),
      totalGroups: row.total_groups,
    };
  }
}
