import { INestApplicationContext } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { formatLocalDate, localDateInZone } from '@/common/dates/local-date';
import { bindTenant } from '@/http/tenancy/bind-tenant';
import { tenantContextOf } from '@/http/tenancy/tenant.decorator';
import { Tenant } from '@/http/tenancy/tenant.entity';
import { dayNumber, dayText } from '@/interest/interest-rule';
import { InterestPolicyRequest } from '@/interest/dto/interest-policy.request';
import { InterestPolicyService } from '@/interest/interest-policy.service';
import { InterestService } from '@/interest/interest.service';
import { OutboxService } from '@/platform/outbox/outbox.service';
import { RoutingTransactionAdapter } from '@/platform/replicas/routing-transaction-adapter';
import { LATE_BOOKINGS_SQL, LateBookingRow, lateBookingsParams } from './demo-interest.sql';

/**
 * The demo's interest on late payment (docs/interest.md): SBI's highest MCLR + 2 %, which
 * changed during the demo's history, so the interest view shows a rate change.
 */
export const DEMO_INTEREST_POLICY: InterestPolicyRequest = {
  enabled: true,
  graceDays: 0,
  rates: [
    { effectiveFrom: '2025-04-01', annualRatePercent: 10.85 },
    { effectiveFrom: '2025-11-01', annualRatePercent: 10.65 },
  ],
  demandTypes: ['MILESTONE', 'MANUAL'],
  payerTypes: ['BUYER', 'CO_BUYER'],
};

const ACTOR = 'demo-seed';

/**
 * Gives the demo tenant `key` (seeded in the current transaction) the interest policy above and
 * raises one interest demand, through the end of last month, on the booking paid latest (among
 * those whose buyer deducts TDS and pays by cheque, for the statement of account: see
 * LATE_BOOKINGS_SQL): the planner pays random open splits, so many instalments are paid after
 * their due date and some are still unpaid past it. Written by the API's own services, so the policy has its history and
 * events, and the demand its numbers (the series stay gap-free) and its `demand.created`.
 */
export async function seedDemoInterest(app: INestApplicationContext, key: string): Promise<void> {
  const txHost = app.get<TransactionHost<RoutingTransactionAdapter>>(TransactionHost);
  const outbox = app.get(OutboxService);
  const em = txHost.tx;
  const tenant = await em.getRepository(Tenant).findOneByOrFail({ key });
  await bindTenant(em, tenant.id);
  const context = tenantContextOf(tenant, ACTOR);
  outbox.begin();
  await app.get(InterestPolicyService).replace(context, DEMO_INTEREST_POLICY);

  const today = localDateInZone(new Date(), tenant.timezone);
  const asOf = dayText(dayNumber(formatLocalDate({ ...today, day: 1 })) - 1);
  const late = await em.query<LateBookingRow[]>(
    LATE_BOOKINGS_SQL,
    lateBookingsParams({
      tenantId: tenant.id,
      demandTypes: DEMO_INTEREST_POLICY.demandTypes,
      payerTypes: DEMO_INTEREST_POLICY.payerTypes,
      asOf,
      limit: 5,
    }),
  );
  const interest = app.get(InterestService);
  for (const { booking_id } of late) {
    const figures = await interest.compute(context, booking_id, asOf, 'recorded');
    if (figures.totals.due.lte(0)) continue;
    await interest.raiseDemand(context, booking_id, {
      asOf,
      dueDate: dayText(dayNumber(formatLocalDate(today)) + 15),
    });
    break;
  }
  await outbox.flush(context);
}
