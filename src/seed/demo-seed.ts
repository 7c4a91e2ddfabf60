import { INestApplicationContext, Logger } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { ClsService } from 'nestjs-cls';
import { randomUUID } from 'node:crypto';
import Decimal from 'decimal.js';
import { BookingsService } from '@/bookings/bookings.service';
import { AppConfig } from '@/common/config/app-config';
import { PAYMENT_MODES, PaymentMode, PayerType } from '@/common/domain/enums';
import { bindTenant } from '@/common/tenancy/bind-tenant';
import { tenantContextOf } from '@/common/tenancy/tenant-context';
import { DemandsService } from '@/demands/demands.service';
import { formatLocalDate, localDateInZone } from '@/numbering/number-pattern';
import { FIRST_NAMES, LAST_NAMES } from './indian-names';
import { ReceiptWritesService } from '@/receipts/receipt-writes.service';
import { TenantProvisioningService } from '@/tenants/tenant-provisioning.service';
import { TenantsService } from '@/tenants/tenants.service';
import { Tenant } from '@/tenants/tenant.entity';

const DEMO_TENANTS = [
  { key: 'demo', name: 'Skyline Developers Pvt Ltd', seed: 42 },
  { key: 'demo-b', name: 'Harbourview Homes LLP', seed: 7 },
];

const MILESTONES = [
  'Booking amount',
  'On agreement',
  'Foundation',
  'Plinth',
  '1st slab',
  '3rd slab',
  '5th slab',
  'Brickwork',
  'Plastering',
  'Flooring',
  'Possession',
];

/** Deterministic PRNG so every fresh start produces the same demo data. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface OpenSplit {
  id: string;
  pending: Decimal;
  payerType: PayerType;
}

/**
 * Demo data for local use: two tenants with a realistic history over the last 18 months, produced
 * through the same services and rules as the API (so numbers follow the default configuration and
 * receipts move split and demand statuses). Runs only when the tenant `demo` does not exist yet.
 */
export async function seedDemoData(app: INestApplicationContext, config: AppConfig): Promise<void> {
  const logger = new Logger('DemoSeed');
  const cls = app.get(ClsService);
  if (await app.get(TenantsService).findActiveByKey('demo')) return;
  const started = Date.now();
  for (const spec of DEMO_TENANTS) {
    const tenant = await cls.run(() =>
      app.get(TenantProvisioningService).create({ key: spec.key, name: spec.name }, 'demo-seed'),
    );
    const count = await seedTenant(app, tenant, spec.seed, config.demoReceiptsPerTenant);
    logger.log(`Seeded tenant ${spec.key}: ${count} receipts`);
  }
  logger.log(`Demo data ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

async function seedTenant(
  app: INestApplicationContext,
  tenant: Tenant,
  seed: number,
  targetReceipts: number,
): Promise<number> {
  const random = mulberry32(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const cls = app.get(ClsService);
  const txHost = app.get<TransactionHost<TransactionalAdapterTypeOrm>>(TransactionHost);
  const bookings = app.get(BookingsService);
  const demands = app.get(DemandsService);
  const receipts = app.get(ReceiptWritesService);
  const ctx = tenantContextOf(tenant, 'demo-seed');

  const today = localDateInZone(new Date(), tenant.timezone);
  const start = new Date(Date.UTC(today.year, today.month - 1 - 18, 1));
  const days = Math.floor(
    (Date.UTC(today.year, today.month - 1, today.day) - start.getTime()) / 86_400_000,
  );
  const dateAt = (day: number) =>
    formatLocalDate(
      localDateInZone(new Date(start.getTime() + day * 86_400_000 + 6 * 3_600_000), 'UTC'),
    );

  const units: { booking: string; price: Decimal; nextMilestone: number; buyerId: string }[] = [];
  const open: OpenSplit[] = [];
  let recorded = 0;
  const receiptsPerDay = Math.max(1, targetReceipts / days);

  // One transaction per simulated week keeps the seed fast while every call runs the real rules.
  for (let week = 0; week * 7 < days && recorded < targetReceipts; week++) {
    await cls.run(() =>
      txHost.withTransaction(async () => {
        await bindTenant(txHost.tx, tenant.id);
        for (
          let day = week * 7;
          day < Math.min(days, week * 7 + 7) && recorded < targetReceipts;
          day++
        ) {
          const date = dateAt(day);
          // New bookings, mostly early on.
          if (random() < (units.length < 40 ? 0.9 : 0.25)) {
            const booking = await bookings.create(ctx, {
              unit: randomUUID(),
              buyerName: `${pick(FIRST_NAMES)} ${pick(LAST_NAMES)}`,
              buyerId: randomUUID(),
              bookingDate: date,
            });
            const lakhs = 40 + Math.floor(random() * 460); // 40 L to 5 Cr
            units.push({
              booking: booking.id,
              price: new Decimal(lakhs).times(100_000),
              nextMilestone: 0,
              buyerId: randomUUID(),
            });
          }
          // Demands raised against milestones (up to two a day).
          for (let k = 0; k < 2 && units.length > 0 && open.length < receiptsPerDay * 25; k++) {
            const unit = pick(units);
            if (unit.nextMilestone < MILESTONES.length) {
              const share = unit.nextMilestone === 0 ? 0.1 : 0.09;
              const total = unit.price.times(share).toDecimalPlaces(2);
              const payers: [PayerType, number][] =
                random() < 0.5
                  ? [
                      ['BUYER', 0.2],
                      ['BANK', 0.8],
                    ]
                  : random() < 0.5
                    ? [
                        ['BUYER', 0.6],
                        ['CO_BUYER', 0.4],
                      ]
                    : [
                        ['BUYER', 0.3],
                        ['CO_BUYER', 0.2],
                        ['BANK', 0.5],
                      ];
              let rest = total;
              const splits = payers.map(([payerType, part], i) => {
                const amount =
                  i === payers.length - 1 ? rest : total.times(part).toDecimalPlaces(2);
                rest = rest.minus(amount);
                return {
                  payerType,
                  payerId: payerType === 'BUYER' ? unit.buyerId : randomUUID(),
                  amount: amount.toNumber(),
                };
              });
              const due = dateAt(Math.min(days, day + 15 + Math.floor(random() * 30)));
              const demand = await demands.create(ctx, {
                booking: unit.booking,
                milestone: unit.nextMilestone === 0 ? null : randomUUID(),
                demandType: unit.nextMilestone === 0 ? 'MANUAL' : 'MILESTONE',
                totalAmount: total.toNumber(),
                dueDate: due,
                demandDate: date,
                remarks: `${MILESTONES[unit.nextMilestone]} - ${unit.nextMilestone === 0 ? 'booking' : 'construction-linked'} instalment`,
                splits,
              });
              unit.nextMilestone++;
              for (const s of demand.splits)
                open.push({
                  id: s.id,
                  pending: new Decimal(s.pendingAmount.amount),
                  payerType: s.payerType as PayerType,
                });
            }
          }
          // Payments received today.
          const todays = Math.floor(receiptsPerDay) + (random() < receiptsPerDay % 1 ? 1 : 0);
          for (let i = 0; i < todays && open.length > 0 && recorded < targetReceipts; i++) {
            const index = Math.floor(random() * open.length);
            const split = open[index];
            const full = random() < 0.55 || split.pending.lessThan(10_000);
            const amount = full
              ? split.pending
              : split.pending.times(0.2 + random() * 0.5).toDecimalPlaces(random() < 0.3 ? 2 : 0);
            const mode: PaymentMode =
              split.payerType === 'BANK' ? pick(['NEFT', 'RTGS'] as const) : pick(PAYMENT_MODES);
            const receipt = await receipts.record(ctx, {
              demandSplit: split.id,
              amount: amount.toNumber(),
              paymentMode: mode,
              transactionRef:
                mode === 'CASH'
                  ? ''
                  : `${mode === 'CHEQUE' ? 'CHQ' : 'UTR'}${Math.floor(random() * 1e12)
                      .toString()
                      .padStart(12, '0')}`,
              receivedDate: date,
            });
            recorded++;
            split.pending = split.pending.minus(amount);
            // A few receipts bounce or are entered by mistake and get cancelled.
            if (random() < 0.03) {
              await receipts.cancel(ctx, receipt.id, {
                reason: mode === 'CHEQUE' ? 'Cheque dishonoured' : 'Entered against the wrong unit',
              });
              split.pending = split.pending.plus(amount);
            }
            if (split.pending.isZero()) open.splice(index, 1);
          }
        }
      }),
    );
  }
  return recorded;
}
