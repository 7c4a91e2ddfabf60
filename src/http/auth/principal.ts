/** What a verified token says about its bearer. */
export interface Principal {
  subject: string;
  /** `preferred_username`, else `sub`: recorded as createdBy / lastModifiedBy. */
  username: string;
  tenants: string[];
  scopes: Set<string>;
  /** The token's `exp` (seconds since the epoch), when it has one. */
  expiresAt?: number;
}

export function principalFromClaims(
  claims: Record<string, unknown>,
  tenantClaim: string,
): Principal {
  const subject = typeof claims.sub === 'string' ? claims.sub : '';
  const preferred = claims.preferred_username;
  const rawTenants = claims[tenantClaim];
  const tenants = Array.isArray(rawTenants)
    ? rawTenants.filter((t): t is string => typeof t === 'string')
    : typeof rawTenants === 'string'
      ? [rawTenants]
      : [];
  const scope = typeof claims.scope === 'string' ? claims.scope : '';
  return {
    subject,
    username: typeof preferred === 'string' && preferred.length > 0 ? preferred : subject,
    tenants,
    scopes: new Set(scope.split(' ').filter(Boolean)),
    ...(typeof claims.exp === 'number' ? { expiresAt: claims.exp } : {}),
  };
}
