import { parseArgs } from 'node:util';
import { SCOPES } from '@/http/auth/auth.decorators';
import { loadConfig } from '@/platform/config/app-config';
import { checkScopes, checkTtl, signDevelopmentToken } from './dev-token';
import { checkTenants } from './token-checks';

/** Prints one signed development JWT (HS256) on stdout and nothing else. */
async function main(): Promise<void> {
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
  // What needs no database first, so a typo is reported at once.
  checkScopes(values.scope);
  checkTtl(values.ttl);
  // The same configuration loading as the server (environment: DATA_DIR, JWT_SECRET, ...).
  const config = loadConfig();
  const token = signDevelopmentToken(config, {
    tenants: values.tenant,
    sub: values.sub,
    scope: values.scope,
    ttl: values.ttl,
  });
  await checkTenants(config, values.tenant);
  process.stdout.write(`${token}\n`);
}

main().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  // parseArgs explains itself over several lines (`--ttl -5m`): one line, like every refusal.
  const parseError = String((error as { code?: unknown }).code).startsWith('ERR_PARSE_ARGS');
  process.stderr.write(`${parseError ? message.replace(/\s*\n\s*/g, ' ') : message}\n`);
  process.exit(1);
});
