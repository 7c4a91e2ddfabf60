import { sign } from 'jsonwebtoken';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
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
  const claims: Record<string, unknown> = {
    sub: request.sub,
    preferred_username: request.sub,
    [config.jwt.tenantClaim]: request.tenants.length === 1 ? request.tenants[0] : request.tenants,
    scope: request.scope,
  };
  return sign(claims, secret, {
    algorithm: 'HS256',
    expiresIn: request.ttl as `${number}${'s' | 'm' | 'h' | 'd'}`,
    ...(config.jwt.issuer ? { issuer: config.jwt.issuer } : {}),
    ...(config.jwt.audience ? { audience: config.jwt.audience } : {}),
  });
}
