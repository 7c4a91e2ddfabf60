import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { IS_PUBLIC } from '@/http/auth/auth.decorators';
import { Principal } from '@/http/auth/principal';
import { AppError } from '@/common/app-error';
import { TenantsService } from '@/http/tenancy/tenants.service';
import { tenantContextOf } from '@/http/tenancy/tenant.decorator';

export const TENANT_HEADER = 'x-tenant-id';
const TENANT_KEY = /^[a-z0-9][a-z0-9-]{0,62}$/;

/** One answer for unknown, inactive and not-entitled tenants alike. */
export function tenantForbidden(): AppError {
  return new AppError(
    403,
    'TENANT_FORBIDDEN',
    'Forbidden',
    'The token does not grant access to this tenant.',
  );
}

/**
 * Resolves `x-tenant-id` to an active tenant the token is entitled to. Unknown, inactive and
 * not-entitled answer with one identical 403, so the answer reveals nothing about other tenants.
 */
@Injectable()
export class TenantGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly tenants: TenantsService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (isPublic) return true;

    const req = context.switchToHttp().getRequest<Request>();
    const header = req.headers[TENANT_HEADER];
    if (typeof header !== 'string' || !TENANT_KEY.test(header)) {
      throw new AppError(
        400,
        'TENANT_HEADER_INVALID',
        'Bad Request',
        `The ${TENANT_HEADER} header is required: a tenant key of lower-case letters, digits and '-' (at most 63 characters).`,
        [{ field: TENANT_HEADER, message: header === undefined ? 'missing' : 'invalid' }],
      );
    }
    const principal = req.user as Principal;
    const tenant = principal.tenants.includes(header)
      ? await this.tenants.findActiveByKey(header)
      : null;
    if (!tenant) throw tenantForbidden();
    req.tenant = tenantContextOf(tenant, principal.username);
    return true;
  }
}
