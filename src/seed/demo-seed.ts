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
import { seedDemoInterest } from './demo-interest';
import { seedDemoLetters } from './demo-letters';
import { seedDemoBank } from './demo-bank';
import { seedDemoGst } from './demo-gst';
import { seedDemoStatement } from './demo-statement';
import { DemoPlanChunk, DemoPlanSummary, PlanInput, planDemoChunks } from './demo-plan';
import {
  ADVANCE_SEARCH_VERSION_SQL,
  ANALYZE_SEEDED_SQL,
  advanceSearchVersionParams,
  DEFER_SEED_INDEXES_SQL,
  DEMO_CHUNK_SQL,
  demoChunkParams,
  RESTORE_SEED_INDEXES_SQL,
  INSERT_COUNTERS_SQL,
  insertCountersParams,
  SEARCH_VERSION_SQL,
  SearchVersionRow,
} from './demo-seed.sql';

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

/** A progress line this often on a large seed (the service listens only once it is done). */
const PROGRESS_EVERY = 100_000;

/**
 * Demo data for local use: two tenants with a realistic history over the last 18 months, exactly
 * DEMO_RECEIPTS_PER_TENANT receipts each. The history is planned in memory (`planDemoChunks`,
 * same rules as the API) chunk by chunk and written set-based - one statement per chunk of
 * 10,000 receipts, an INSERT ... SELECT FROM unnest(...) per table - in one transaction, as the
 * application role under row-level security. Runs only when the tenant `demo` does not exist
 * yet; a failed seed leaves nothing behind.
 */
export async function seedDemoData(app: INestApplicationContext, config: AppConfig): Promise<void> {
  const logger = new Logger('DemoSeed');
  if (await app.get(TenantsService).findActiveByKey('demo')) return;
  const started = Date.now();
  const target = config.demoReceiptsPerTenant;
  // The service listens once the seed is done: say what is happening now, not then (Nest holds
  // start-up logs back until the application is initialised).
  app.flushLogs();
  logger.log(`Seeding ${DEMO_TENANTS.length} demo tenants, ${target} receipts each`);
  const logged = new Map<string, number>();
  const counts = await seedDemoTenants(
    app,
    DEMO_TENANTS,
    target,
    (key, receipts) => {
      const step = Math.floor(receipts / PROGRESS_EVERY);
      if (step > (logged.get(key) ?? 0) && receipts < target) {
        logged.set(key, step);
        logger.log(`Seeding tenant ${key}: ${receipts} of ${target} receipts`);
      }
    },
    { deferIndexes: true },
  );
  for (const [key, count] of Object.entries(counts)) {
    logger.log(`Seeded tenant ${key}: ${count} receipts`);
  }
  logger.log(`Demo data ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/**
 * Creates the tenants and their histories (exactly `receiptsPerTenant` receipts each) in one
 * transaction, and with `demo` the GST tenant `demo-gst` (demo-gst.ts); the first (`demo`) also
 * gets an interest policy and an interest demand
 * (demo-interest.ts) on a booking whose statement of account shows interest, TDS and a bounced
 * cheque (demo-statement.ts). Returns receipts per tenant. `progress` hears of every chunk written.
 * `deferIndexes` (the first start's seed): on a database with no bookings, demands or receipts
 * yet, their indexes and foreign keys are built after the rows (DEFER_SEED_INDEXES_SQL); the four
 * tables are then locked to the commit, so only where nothing else uses the database yet.
 */
export async function seedDemoTenants(
  app: INestApplicationContext,
  specs: DemoTenantSpec[],
  receiptsPerTenant: number,
  progress?: (key: string, receipts: number) => void,
  options: { deferIndexes?: boolean } = {},
): Promise<Record<string, number>> {
  const txHost = app.get<TransactionHost<RoutingTransactionAdapter>>(TransactionHost);
  const provisioning = app.get(TenantProvisioningService);
  const counts: Record<string, number> = {};
  await app.get(ClsService).run(() =>
    txHost.withTransaction(async () => {
      // On a database with no bookings, demands or receipts yet, their indexes and foreign keys
      // are built once the rows are in (demo-seed.sql.ts DEFER_SEED_INDEXES_SQL); else kept.
      const [{ deferred }] = options.deferIndexes
        ? await txHost.tx.query<{ deferred: number }[]>(DEFER_SEED_INDEXES_SQL)
        : [{ deferred: 0 }];
      const tenants: Tenant[] = [];
      for (const spec of specs) {
        // Joins this transaction (default propagation): tenant + default configuration.
        const tenant = await provisioning.create({ key: spec.key, name: spec.name }, ACTOR);
        tenants.push(tenant);
        const em = txHost.tx;
        await bindTenant(em, tenant.id);
        const input = await planInput(em, tenant, spec.seed, receiptsPerTenant);
        counts[spec.key] = await writePlan(em, tenant.id, planDemoChunks(input), (receipts) =>
          progress?.(spec.key, receipts),
        );
      }
      if (deferred > 0) await txHost.tx.query(RESTORE_SEED_INDEXES_SQL);
      await txHost.tx.query(ANALYZE_SEEDED_SQL);
      for (const tenant of tenants) {
        await bindTenant(txHost.tx, tenant.id);
        await seedDemoBank(app, tenant);
        await seedDemoLetters(app, tenant);
      }
      if (specs.length > 0) await seedDemoInterest(app, specs[0].key);
      if (specs.length > 0) await seedDemoStatement(app, specs[0].key);
      // The GST tenant comes with the demo (its own small history, not the planned one).
      if (specs.some((s) => s.key === 'demo')) await seedDemoGst(app);
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

/** Writes one chunk of the plan (one round trip). */
function writeChunk(
  em: EntityManager,
  tenantId: string,
  baseVersion: string,
  chunk: DemoPlanChunk,
): Promise<unknown> {
  return em.query(DEMO_CHUNK_SQL, demoChunkParams({ tenantId, baseVersion, actor: ACTOR, chunk }));
}

/**
 * Writes a tenant's plan chunk by chunk, planning the next chunk while PostgreSQL writes the
 * previous one; then the search version and the counters. Returns the receipts written.
 */
async function writePlan(
  em: EntityManager,
  tenantId: string,
  chunks: Generator<DemoPlanChunk, DemoPlanSummary, void>,
  progress?: (receipts: number) => void,
): Promise<number> {
  const [{ version: baseVersion }] = await em.query<SearchVersionRow[]>(SEARCH_VERSION_SQL, [
    tenantId,
  ]);
  let writing: Promise<unknown> | undefined;
  let written = 0;
  let summary: DemoPlanSummary;
  try {
    for (;;) {
      const next = chunks.next();
      await writing;
      if (next.done) {
        summary = next.value;
        break;
      }
      const receipts = next.value.receipts.length;
      writing = writeChunk(em, tenantId, baseVersion, next.value).then(() =>
        progress?.((written += receipts)),
      );
      // Settled even if planning the next chunk throws (no unhandled rejection); awaited above.
      writing.catch(() => undefined);
    }
  } finally {
    await writing?.catch(() => undefined);
  }
  // The search version as the writes would have left it: every receipt write counted, and no
  // count cached before survives it.
  await em.query(
    ADVANCE_SEARCH_VERSION_SQL,
    advanceSearchVersionParams({ tenantId, receiptWrites: summary.receiptWrites }),
  );
  // What the allocator leaves behind: each counter at its next value.
  await em.query(
    INSERT_COUNTERS_SQL,
    insertCountersParams({ tenantId, counters: summary.counters }),
  );
  return summary.receipts;
}
