import { sign } from 'jsonwebtoken';
import { parseArgs } from 'node:util';
import { SCOPES } from '@/common/auth/auth.decorators';
import { loadConfig } from '@/common/config/app-config';
import { loadOrCreateLocalSecrets } from '@/database/local-secrets';

/** Prints one signed development JWT (HS256) on stdout and nothing else. */
function main(): void {
  const { values } = parseArgs({
    options: {
      tenant: { type: 'string', multiple: true },
      sub: { type: 'string', default: 'dev-user' },
      scope: { type: 'string', default: SCOPES.join(' ') },
      ttl: { type: 'string', default: '1h' },
    },
  });
  if (!values.tenant || values.tenant.length === 0) {
    throw new Error(
      'usage: npm run -s token -- --tenant <key> [--sub alice] [--scope "receipts:read"] [--ttl 1h]',
    );
  }
  const config = loadConfig();
  if (config.jwt.jwksUri)
    throw new Error('JWT_JWKS_URI is set: tokens come from your identity provider');
  const secret = config.jwt.secret ?? loadOrCreateLocalSecrets(config.dataDir).jwtSecret;
  const claims: Record<string, unknown> = {
    sub: values.sub,
    preferred_username: values.sub,
    [config.jwt.tenantClaim]: values.tenant.length === 1 ? values.tenant[0] : values.tenant,
    scope: values.scope,
  };
  const token = sign(claims, secret, {
    algorithm: 'HS256',
    expiresIn: values.ttl as `${number}${'s' | 'm' | 'h' | 'd'}`,
    ...(config.jwt.issuer ? { issuer: config.jwt.issuer } : {}),
    ...(config.jwt.audience ? { audience: config.jwt.audience } : {}),
  });
  process.stdout.write(`${token}\n`);
}

try {
  main();
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
