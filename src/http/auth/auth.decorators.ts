import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'auth:isPublic';
export const REQUIRED_SCOPES = 'auth:requiredScopes';

export const SCOPES = [
  'receipts:read',
  'receipts:write',
  'tenant-config:read',
  'tenant-config:write',
  'events:read',
  'webhooks:write',
  'bank:read',
  'bank:write',
] as const;
export type Scope = (typeof SCOPES)[number];

/** No token, no tenant, no transaction (health checks, docs). */
export const Public = () => SetMetadata(IS_PUBLIC, true);

/** The token's `scope` claim must contain every one of these. */
export const RequireScopes = (...scopes: Scope[]) => SetMetadata(REQUIRED_SCOPES, scopes);
