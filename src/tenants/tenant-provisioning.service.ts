import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { RoutingTransactionAdapter } from '@/platform/replicas/routing-transaction-adapter';
import { AppError } from '@/common/app-error';
import { bindTenant } from '@/http/tenancy/bind-tenant';
import { TenantConfigService } from '@/tenant-config/tenant-config.service';
import { Tenant } from '@/http/tenancy/tenant.entity';
import { TENANT_EXISTS } from './tenants.errors';

export interface NewTenant {
  key: string;
  name: string;
  currency?: string;
  locale?: string;
  timezone?: string;
  fyStartMonth?: number;
}

/** Creates a tenant and its default numbering configuration in one transaction. */
@Injectable()
export class TenantProvisioningService {
  constructor(
    private readonly txHost: TransactionHost<RoutingTransactionAdapter>,
    private readonly configs: TenantConfigService,
  ) {}

  async create(input: NewTenant, actor = 'system'): Promise<Tenant> {
    validate(input);
    return this.txHost.withTransaction(async () => {
      const repo = this.txHost.tx.getRepository(Tenant);
      if (await repo.existsBy({ key: input.key })) {
        throw TENANT_EXISTS.error(input.key);
      }
      const tenant = await repo.save(
        repo.create({
          key: input.key,
          name: input.name,
          currency: input.currency ?? 'INR',
          locale: input.locale ?? 'en-IN',
          timezone: input.timezone ?? 'Asia/Kolkata',
          fyStartMonth: input.fyStartMonth ?? 4,
          active: true,
        }),
      );
      await bindTenant(this.txHost.tx, tenant.id);
      await this.configs.createDefault(tenant.id, actor);
      return tenant;
    });
  }
}

function validate(input: NewTenant): void {
  const problems: string[] = [];
  if (!/^[a-z0-9][a-z0-9-]{0,62}$/.test(input.key))
    problems.push('key: lower-case letters, digits and -');
  if (!input.name || input.name.length > 200) problems.push('name: 1 to 200 characters');
  if (input.currency !== undefined) {
    try {
      new Intl.NumberFormat('en', { style: 'currency', currency: input.currency });
      if (!/^[A-Z]{3}$/.test(input.currency)) throw new Error();
    } catch {
      problems.push('currency: an ISO 4217 code such as INR');
    }
  }
  if (
    input.locale !== undefined &&
    Intl.NumberFormat.supportedLocalesOf([input.locale]).length === 0
  ) {
    problems.push('locale: a supported BCP 47 locale such as en-IN');
  }
  if (input.timezone !== undefined) {
    try {
      new Intl.DateTimeFormat('en', { timeZone: input.timezone });
    } catch {
      problems.push('timezone: an IANA zone such as Asia/Kolkata');
    }
  }
  if (
    input.fyStartMonth !== undefined &&
    !(Number.isInteger(input.fyStartMonth) && input.fyStartMonth >= 1 && input.fyStartMonth <= 12)
  ) {
    problems.push('fyStartMonth: 1 to 12');
  }
  if (problems.length > 0) {
    throw AppError.validation(
      problems.map((p) => ({ field: p.split(':')[0], message: p })),
      `Invalid tenant: ${problems.join('; ')}`,
    );
  }
}
