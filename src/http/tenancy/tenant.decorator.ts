import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { TenantContext } from '@/common/tenant-context';
import type { Tenant as TenantRecord } from '@/http/tenancy/tenant.entity';

/** The context of `actor` working in `tenant`. */
export function tenantContextOf(tenant: TenantRecord, actor: string): TenantContext {
  return {
    tenantId: tenant.id,
    tenantKey: tenant.key,
    currency: tenant.currency,
    locale: tenant.locale,
    timezone: tenant.timezone,
    fyStartMonth: tenant.fyStartMonth,
    actor,
  };
}

declare module 'express' {
  interface Request {
    tenant?: TenantContext;
  }
}

/** The request's resolved tenant (set by TenantGuard). */
export const Tenant = createParamDecorator((_: unknown, ctx: ExecutionContext): TenantContext => {
  const tenant = ctx.switchToHttp().getRequest<Request>().tenant;
  if (!tenant) throw new Error('Tenant context missing: route is not behind TenantGuard');
  return tenant;
});
