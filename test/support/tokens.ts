import { sign, SignOptions } from 'jsonwebtoken';
import { SCOPES } from '@/http/auth/auth.decorators';
import { TEST_JWT_SECRET } from './test-app';

export const ALL_SCOPES = SCOPES.join(' ');

export interface TokenOptions {
  tenant?: string | string[];
  scope?: string;
  sub?: string;
  preferredUsername?: string;
  expiresIn?: SignOptions['expiresIn'];
  secret?: string;
  algorithm?: SignOptions['algorithm'];
  extra?: Record<string, unknown>;
}

export function token(opts: TokenOptions = {}): string {
  return sign(
    {
      sub: opts.sub ?? 'tester',
      ...(opts.preferredUsername ? { preferred_username: opts.preferredUsername } : {}),
      ...(opts.tenant !== undefined ? { tenant: opts.tenant } : {}),
      scope: opts.scope ?? ALL_SCOPES,
      ...opts.extra,
    },
    opts.secret ?? TEST_JWT_SECRET,
    { algorithm: opts.algorithm ?? 'HS256', expiresIn: opts.expiresIn ?? '1h' },
  );
}

/** Headers for a request as a member of `tenantKey` with every scope (unless overridden). */
export function as(tenantKey: string, opts: TokenOptions = {}): Record<string, string> {
  return {
    authorization: `Bearer ${token({ tenant: tenantKey, ...opts })}`,
    'x-tenant-id': tenantKey,
  };
}
