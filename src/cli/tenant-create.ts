import { parseArgs } from 'node:util';
import { ClsService } from 'nestjs-cls';
import { TenantProvisioningService } from '@/tenants/tenant-provisioning.service';
import { fail, withApplication } from './with-database';

/** Creates a tenant and its default numbering configuration; prints JSON. */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      key: { type: 'string' },
      name: { type: 'string' },
      currency: { type: 'string' },
      locale: { type: 'string' },
      timezone: { type: 'string' },
      'fy-start-month': { type: 'string' },
    },
  });
  if (!values.key || !values.name) {
    throw new Error(
      'usage: npm run -s tenant:create -- --key acme --name "Acme Realty" [--currency INR] [--locale en-IN] [--timezone Asia/Kolkata] [--fy-start-month 4]',
    );
  }
  const tenant = await withApplication((app) =>
    app.get(ClsService).run(() =>
      app.get(TenantProvisioningService).create(
        {
          key: values.key!,
          name: values.name!,
          currency: values.currency,
          locale: values.locale,
          timezone: values.timezone,
          fyStartMonth:
            values['fy-start-month'] === undefined ? undefined : Number(values['fy-start-month']),
        },
        'cli',
      ),
    ),
  );
  process.stdout.write(`${JSON.stringify(tenant, null, 2)}\n`);
}

main().catch(fail);
