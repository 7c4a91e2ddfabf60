import { INestApplicationContext } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { formatLocalDate, localDateInZone } from '@/common/dates/local-date';
import { bindTenant } from '@/http/tenancy/bind-tenant';
import { tenantContextOf } from '@/http/tenancy/tenant.decorator';
import { Tenant } from '@/http/tenancy/tenant.entity';
import { dayNumber, dayText } from '@/interest/interest-rule';
import { OutboxService } from '@/platform/outbox/outbox.service';
import { RoutingTransactionAdapter } from '@/platform/replicas/routing-transaction-adapter';
import { ReceiptWritesService } from '@/receipts/receipt-writes.service';
import {
  RESET_SEARCH_VERSION_SQL,
  SHOWCASE_SQL,
  ShowcaseRow,
  showcaseParams,
} from './demo-statement.sql';

const ACTOR = 'demo-seed';
/** Days between a showcase cheque's receipt and its bounce. */
const BOUNCE_AFTER_DAYS = 3;

/**
 * Makes the first statement of account a newcomer opens (docs/statement.md: the booking of the
 * demo's interest demand) show interest, TDS and a bounced cheque. The interest demand is raised
 * on a late booking whose buyer deducts TDS and pays by cheque (demo-interest.ts); when none of
 * that booking's cheques bounced in the planned history, its latest cheque (or draft) bounces a
 * few days after it was received, through the API's own service (statuses, event, same reason as
 * the planner's bounces), without adding a receipt, so every tenant keeps exactly the receipts
 * asked for.
 */
export async function seedDemoStatement(app: INestApplicationContext, key: string): Promise<void> {
  const txHost = app.get<TransactionHost<RoutingTransactionAdapter>>(TransactionHost);
  const outbox = app.get(OutboxService);
  const em = txHost.tx;
  const tenant = await em.getRepository(Tenant).findOneByOrFail({ key });
  await bindTenant(em, tenant.id);
  const today = dayNumber(formatLocalDate(localDateInZone(new Date(), tenant.timezone)));
  const [showcase] = await em.query<ShowcaseRow[]>(
    SHOWCASE_SQL,
    showcaseParams({ tenantId: tenant.id, receivedBy: dayText(today - BOUNCE_AFTER_DAYS) }),
  );
  if (!showcase || showcase.has_bounced || !showcase.cheque_id || !showcase.cheque_received) {
    return;
  }
  const context = tenantContextOf(tenant, ACTOR);
  outbox.begin();
  await app.get(ReceiptWritesService).bounce(context, showcase.cheque_id, {
    reason: 'Insufficient funds',
    bouncedOn: dayText(dayNumber(showcase.cheque_received) + BOUNCE_AFTER_DAYS),
  });
  await outbox.flush(context);
  await em.query(RESET_SEARCH_VERSION_SQL, [tenant.id]);
}
