import { sign } from 'jsonwebtoken';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { SCOPES } from '@/http/auth/auth.decorators';
import { AppConfig } from '@/platform/config/app-config';
import { readLocalSecrets } from '@/platform/config/local-secrets';

export interface DevTokenRequest {
  tenants: string[];
  sub: string;
  scope: string;
  ttl: string;
}

/** A refusal with a message meant for the person at the terminal. */
export class TokenRefused extends Error {}

/** The scopes of `--scope` (space-separated), each one the server knows. */
export function checkScopes(scope: string): string {
  const scopes = scope.split(/\s+/).filter(Boolean);
  if (scopes.length === 0) throw new TokenRefused(`--scope is empty; known: ${SCOPES.join(' ')}`);
  const unknown = scopes.find((s) => !(SCOPES as readonly string[]).includes(s));
  if (unknown !== undefined) {
    throw new TokenRefused(`unknown scope "${unknown}"; known: ${SCOPES.join(' ')}`);
  }
  return scopes.join(' ');
}

const TTL = /^([1-9]\d{0,6})([smhd]?)$/;
const UNIT_SECONDS: Record<string, number> = { '': 1, s: 1, m: 60, h: 3600, d: 86400 };

/**
 * `--ttl` in seconds: a whole number with an optional unit (90, 90s, 15m, 1h, 7d). Stricter than
 * jsonwebtoken, which reads "1 fortnight" as nothing and "1.5h" as 5400 s, and signs `0` as a
 * token that is expired when printed.
 */
export function checkTtl(ttl: string): number {
  const match = TTL.exec(ttl.trim());
  if (!match) {
    throw new TokenRefused(
      `--ttl "${ttl}" is not a lifetime: a whole number above 0 with an optional unit s, m, h or d (90, 15m, 1h, 7d)`,
    );
  }
  return Number(match[1]) * UNIT_SECONDS[match[2]];
}

/**
 * Signs a development token with the secret the server verifies with: JWT_SECRET, else the one
 * the server generated into DATA_DIR on its first start. Never creates a secret: one made here
 * would differ from the server's (another DATA_DIR, or no start yet) and every token would be 401.
 */
export function signDevelopmentToken(config: AppConfig, request: DevTokenRequest): string {
  if (config.jwt.jwksUri) {
    throw new TokenRefused('JWT_JWKS_URI is set: tokens come from your identity provider');
  }
  const secret = config.jwt.secret ?? readLocalSecrets(config.dataDir)?.jwtSecret;
  if (!secret) {
    const file = join(config.dataDir, 'secrets.json');
    throw new TokenRefused(
      [
        `No development secret in ${file}${existsSync(config.dataDir) ? '' : ' (the directory does not exist)'}.`,
        `The server generates it into its DATA_DIR on its first start, so either start the server first`,
        `(npm start), or run this command with the server's DATA_DIR (and JWT_SECRET, if the server has one):`,
        `  DATA_DIR=/path/the/server/uses npm run -s token -- --tenant ${request.tenants[0] ?? 'demo'}`,
      ].join('\n'),
    );
  }
  const scope = checkScopes(request.scope);
  const expiresIn = checkTtl(request.ttl);
  const claims: Record<string, unknown> = {
    sub: request.sub,
    preferred_username: request.sub,
    [config.jwt.tenantClaim]: request.tenants.length === 1 ? request.tenants[0] : request.tenants,
    scope,
  };
  return sign(claims, secret, {
    algorithm: 'HS256',
    expiresIn,
    ...(config.jwt.issuer ? { issuer: config.jwt.issuer } : {}),
    ...(config.jwt.audience ? { audience: config.jwt.audience } : {}),
  });
}
