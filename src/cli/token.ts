import { parseArgs } from 'node:util';
import { SCOPES } from '@/http/auth/auth.decorators';
import { loadConfig } from '@/platform/config/app-config';
import { signDevelopmentToken } from './dev-token';

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
  // The same configuration loading as the server (environment: DATA_DIR, JWT_SECRET, ...).
  const token = signDevelopmentToken(loadConfig(), {
    tenants: values.tenant,
    sub: values.sub,
    scope: values.scope,
    ttl: values.ttl,
  });
  process.stdout.write(`${token}\n`);
}

try {
  main();
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
