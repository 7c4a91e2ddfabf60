import { TransactionHost } from '@nestjs-cls/transactional';
import { INestApplicationContext } from '@nestjs/common';
import { formatLocalDate, localDateInZone } from '@/common/dates/local-date';
import { Tenant } from '@/http/tenancy/tenant.entity';
import { RoutingTransactionAdapter } from '@/platform/replicas/routing-transaction-adapter';
import { AGREEMENT_VALUES_SQL, HOLD_ONE_BOOKING_SQL, holdParams } from './demo-letters.sql';

/**
 * What a newcomer's first demand letter and reminder run show (docs/letters.md): agreement values
 * on the bookings (the TDS note on the larger ones) and a hold on one booking with an overdue
 * demand. The collection account is the demo's bank account (demo-bank.ts); the default reminder
 * policy makes the plan's overdue and soon-due splits due today. Two statements in the seed's
 * transaction; no events (the seed writes none).
 */
export async function seedDemoLetters(app: INestApplicationContext, tenant: Tenant): Promise<void> {
  const em = app.get<TransactionHost<RoutingTransactionAdapter>>(TransactionHost).tx;
  await em.query(AGREEMENT_VALUES_SQL, [tenant.id]);
  const today = formatLocalDate(localDateInZone(new Date(), tenant.timezone));
  await em.query(
    HOLD_ONE_BOOKING_SQL,
    holdParams({ tenantId: tenant.id, today, actor: 'demo-seed' }),
  );
}
