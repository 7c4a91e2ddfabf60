import { INestApplicationContext, Logger } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { RoutingTransactionAdapter } from '@/platform/replicas/routing-transaction-adapter';
import { ClsService } from 'nestjs-cls';
import { EntityManager } from 'typeorm';
import { AppConfig } from '@/platform/config/app-config';
import { bindTenant } from '@/http/tenancy/bind-tenant';
import { DEFAULT_NUMBERING, DocumentType, parsePattern } from '@/numbering/number-pattern';
import { localDateInZone } from '@/common/dates/local-date';
import { documentNumbering } from '@/numbering/numbering-settings';
import { TenantConfiguration } from '@/tenant-config/tenant-configuration.entity';
import { TenantProvisioningService } from '@/tenants/tenant-provisioning.service';
import { TenantsService } from '@/http/tenancy/tenants.service';
import { Tenant } from '@/http/tenancy/tenant.entity';
import { DemoPlan, PlanInput, planDemoTenant } from './demo-plan';

export interface DemoTenantSpec {
  key: string;
  name: string;
  seed: number;
}

export const DEMO_TENANTS: DemoTenantSpec[] = [
  { key: 'demo', name: 'Skyline Developers Pvt Ltd', seed: 42 },
  { key: 'demo-b', name: 'Harbourview Homes LLP', seed: 7 },
];

const ACTOR = 'demo-seed';

/**
 * Demo data for local use: two tenants with a realistic history over the last 18 months. The
 * history is planned in memory (`planDemoTenant`, same rules as the API) and written with one
 * set-based INSERT per table, in one transaction, as the application role under row-level
 * security - a few hundred milliseconds instead of thousands of HTTP-service calls. Runs only
 * when the tenant `demo` does not exist yet; a failed seed leaves nothing behind.
 */
export async function seedDemoData(app: INestApplicationContext, config: AppConfig): Promise<void> {
  const logger = new Logger('DemoSeed');
  if (await app.get(TenantsService).findActiveByKey('demo')) return;
  const started = Date.now();
  const counts = await seedDemoTenants(app, DEMO_TENANTS, config.demoReceiptsPerTenant);
  for (const [key, count] of Object.entries(counts)) {
    logger.log(`Seeded tenant ${key}: ${count} receipts`);
  }
  logger.log(`Demo data ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/** Creates the tenants and their histories in one transaction; returns receipts per tenant. */
export async function seedDemoTenants(
  app: INestApplicationContext,
  specs: DemoTenantSpec[],
  receiptsPerTenant: number,
): Promise<Record<string, number>> {
  const txHost = app.get<TransactionHost<RoutingTransactionAdapter>>(TransactionHost);
  const provisioning = app.get(TenantProvisioningService);
  const counts: Record<string, number> = {};
  await app.get(ClsService).run(() =>
    txHost.withTransaction(async () => {
      for (const spec of specs) {
        // Joins this transaction (default propagation): tenant + default configuration.
        const tenant = await provisioning.create({ key: spec.key, name: spec.name }, ACTOR);
        const em = txHost.tx;
        await bindTenant(em, tenant.id);
        const plan = planDemoTenant(await planInput(em, tenant, spec.seed, receiptsPerTenant));
        await writePlan(em, tenant.id, plan);
        counts[spec.key] = plan.receipts.length;
      }
    }),
  );
  return counts;
}

/** The numbering the allocator would use for this tenant: its configuration, or the defaults. */
async function planInput(
  em: EntityManager,
  tenant: Tenant,
  seed: number,
  receipts: number,
): Promise<PlanInput> {
  const config = await em.getRepository(TenantConfiguration).findOneBy({ tenantId: tenant.id });
  const scheme = (type: Exclude<DocumentType, 'snag'>) => {
    const numbering =
      config && config.active ? documentNumbering(config, type) : DEFAULT_NUMBERING.documents[type];
    return {
      parsed: parsePattern(numbering.pattern, type),
      prefix: numbering.prefix,
      starting: numbering.starting,
    };
  };
  return {
    seed,
    receipts,
    today: localDateInZone(new Date(), tenant.timezone),
    fyStartMonth: tenant.fyStartMonth,
    separator: config && config.active ? config.separator : DEFAULT_NUMBERING.separator,
    schemes: {
      booking: scheme('booking'),
      demand: scheme('demand'),
      'demand-split': scheme('demand-split'),
      receipt: scheme('receipt'),
    },
  };
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** One INSERT ... SELECT FROM unnest(...) per table; every row carries the tenant id. */
async function writePlan(em: EntityManager, tenantId: string, plan: DemoPlan): Promise<void> {
  const b = plan.bookings;
  await em.query(
    `INSERT INTO bookings (tenant_id, id, booking_number, unit_id, buyer_name, buyer_id,
                           booking_date, status, created_at, created_by, cancel_reason,
                           cancelled_at, cancelled_by)
     SELECT $1, t.id, t.number, t.unit_id, t.buyer_name, t.buyer_id, t.date,
            CASE WHEN t.cancelled_at IS NULL THEN 'ACTIVE' ELSE 'CANCELLED' END, t.at, $2,
            t.reason, t.cancelled_at, CASE WHEN t.cancelled_at IS NULL THEN NULL ELSE $2 END
       FROM unnest($3::uuid[], $4::text[], $5::uuid[], $6::text[], $7::uuid[], $8::date[],
                   $9::timestamptz[], $10::text[], $11::timestamptz[])
         AS t(id, number, unit_id, buyer_name, buyer_id, date, at, reason, cancelled_at)`,
    [
      tenantId,
      ACTOR,
      b.map((x) => x.id),
      b.map((x) => x.number),
      b.map((x) => x.unitId),
      b.map((x) => x.buyerName),
      b.map((x) => x.buyerId),
      b.map((x) => x.date),
      b.map((x) => iso(x.at)),
      b.map((x) => x.cancelReason),
      b.map((x) => iso(x.cancelledAt)),
    ],
  );
  const d = plan.demands;
  await em.query(
    `INSERT INTO demands (tenant_id, id, booking_id, unit_id, buyer_name, milestone_id, demand_type,
                          demand_number, total_amount, received_amount, due_date, demand_date,
                          remarks, status, created_at, created_by, modified_at, cancel_reason,
                          cancelled_at, cancelled_by)
     SELECT $1, t.id, t.booking_id, t.unit_id, t.buyer_name, t.milestone_id, t.demand_type,
            t.number, t.total, t.received, t.due, t.date, t.remarks, t.status, t.at, $2, t.modified,
            t.reason, t.cancelled_at, CASE WHEN t.cancelled_at IS NULL THEN NULL ELSE $2 END
       FROM unnest($3::uuid[], $4::uuid[], $5::uuid[], $6::text[], $7::uuid[], $8::text[],
                   $9::text[], $10::numeric[], $11::numeric[], $12::date[], $13::date[],
                   $14::text[], $15::text[], $16::timestamptz[], $17::timestamptz[],
                   $18::text[], $19::timestamptz[])
         AS t(id, booking_id, unit_id, buyer_name, milestone_id, demand_type, number, total,
              received, due, date, remarks, status, at, modified, reason, cancelled_at)`,
    [
      tenantId,
      ACTOR,
      d.map((x) => x.id),
      d.map((x) => x.bookingId),
      d.map((x) => x.unitId),
      d.map((x) => x.buyerName),
      d.map((x) => x.milestoneId),
      d.map((x) => x.demandType),
      d.map((x) => x.number),
      d.map((x) => x.total.toFixed(2)),
      d.map((x) => x.received.toFixed(2)),
      d.map((x) => x.dueDate),
      d.map((x) => x.date),
      d.map((x) => x.remarks),
      d.map((x) => x.status),
      d.map((x) => iso(x.at)),
      d.map((x) => iso(x.modifiedAt)),
      d.map((x) => x.cancelReason),
      d.map((x) => iso(x.cancelledAt)),
    ],
  );
  const s = plan.splits;
  await em.query(
    `INSERT INTO demand_splits (tenant_id, id, demand_id, payer_type, payer_id,
                                demand_split_number, amount, paid_amount, status, created_at,
                                modified_at)
     SELECT $1, t.id, t.demand_id, t.payer_type, t.payer_id, t.number, t.amount, t.paid,
            t.status, t.at, t.modified
       FROM unnest($2::uuid[], $3::uuid[], $4::text[], $5::uuid[], $6::text[], $7::numeric[],
                   $8::numeric[], $9::text[], $10::timestamptz[], $11::timestamptz[])
         AS t(id, demand_id, payer_type, payer_id, number, amount, paid, status, at, modified)`,
    [
      tenantId,
      s.map((x) => x.id),
      s.map((x) => x.demandId),
      s.map((x) => x.payerType),
      s.map((x) => x.payerId),
      s.map((x) => x.number),
      s.map((x) => x.amount.toFixed(2)),
      s.map((x) => x.paid.toFixed(2)),
      s.map((x) => x.status),
      s.map((x) => iso(x.at)),
      s.map((x) => iso(x.modifiedAt)),
    ],
  );
  // Search versions as the writes would have left them; the receipts carry the last one (their
  // inserts and cancels are one write here) and no count cached before survives it.
  const [{ version }] = await em.query<{ version: string }[]>(
    `INSERT INTO receipt_search_versions AS v (tenant_id, version, receipt_status_version,
                                               demand_status_version, reset_version)
     VALUES ($1, $2, $2, $2, $2)
     ON CONFLICT (tenant_id) DO UPDATE
        SET version = v.version + $2, receipt_status_version = v.version + $2,
            demand_status_version = v.version + $2, reset_version = v.version + $2
     RETURNING version::text AS version`,
    [tenantId, plan.receiptWrites],
  );
  const r = plan.receipts;
  await em.query(
    `INSERT INTO receipts (tenant_id, id, demand_split_id, demand_id, booking_id, payer_type,
                           receipt_number, amount, payment_mode, transaction_ref, received_date,
                           status, status_reason, status_changed_at, status_changed_on,
                           status_changed_by, created_at, created_by, modified_at,
                           inserted_version)
     SELECT $1, t.id, t.split_id, t.demand_id, t.booking_id, t.payer_type, t.number, t.amount,
            t.mode, t.ref, t.date, t.status, t.reason, t.changed_at, t.changed_on,
            CASE WHEN t.changed_at IS NULL THEN NULL ELSE $2 END,
            t.at, $2, coalesce(t.changed_at, t.at), $18
       FROM unnest($3::uuid[], $4::uuid[], $5::uuid[], $6::uuid[], $7::text[], $8::text[],
                   $9::numeric[], $10::text[], $11::text[], $12::date[], $13::text[],
                   $14::text[], $15::timestamptz[], $16::date[], $17::timestamptz[])
         AS t(id, split_id, demand_id, booking_id, payer_type, number, amount, mode, ref, date,
              status, reason, changed_at, changed_on, at)`,
    [
      tenantId,
      ACTOR,
      r.map((x) => x.id),
      r.map((x) => x.splitId),
      r.map((x) => x.demandId),
      r.map((x) => x.bookingId),
      r.map((x) => x.payerType),
      r.map((x) => x.number),
      r.map((x) => x.amount.toFixed(2)),
      r.map((x) => x.paymentMode),
      r.map((x) => x.transactionRef),
      r.map((x) => x.date),
      r.map((x) => x.status),
      r.map((x) => x.statusReason),
      r.map((x) => iso(x.statusChangedAt)),
      r.map((x) => x.statusChangedOn),
      r.map((x) => iso(x.at)),
      version,
    ],
  );
  // What the allocator leaves behind: every number recorded, each counter at its next value.
  await em.query(
    `INSERT INTO issued_numbers (tenant_id, document_type, number)
     SELECT $1, t.type, t.number FROM unnest($2::text[], $3::text[]) AS t(type, number)`,
    [tenantId, plan.issued.map((x) => x.documentType), plan.issued.map((x) => x.number)],
  );
  await em.query(
    `INSERT INTO number_counters (tenant_id, document_type, counter_key, next_value)
     SELECT $1, t.type, t.key, t.next FROM unnest($2::text[], $3::text[], $4::bigint[])
       AS t(type, key, next)`,
    [
      tenantId,
      plan.counters.map((x) => x.documentType),
      plan.counters.map((x) => x.counterKey),
      plan.counters.map((x) => x.nextValue.toString()),
    ],
  );
}
