import { randomUUID } from 'node:crypto';
import { INestApplicationContext } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { formatLocalDate, localDateInZone } from '@/common/dates/local-date';
import { BookingsService } from '@/bookings/bookings.service';
import { BookingCancellationsService } from '@/cancellations/booking-cancellations.service';
import { CancellationsService } from '@/cancellations/cancellations.service';
import { TenantContext } from '@/common/tenant-context';
import { DemandsService } from '@/demands/demands.service';
import { CreateDemandRequest } from '@/demands/dto/create-demand.request';
import { GstSettingsService } from '@/gst-settings/gst-settings.service';
import { bindTenant } from '@/http/tenancy/bind-tenant';
import { tenantContextOf } from '@/http/tenancy/tenant.decorator';
import { dayNumber, dayText } from '@/interest/interest-rule';
import { InterestPolicyService } from '@/interest/interest-policy.service';
import { InterestService } from '@/interest/interest.service';
import { OutboxService } from '@/platform/outbox/outbox.service';
import { RoutingTransactionAdapter } from '@/platform/replicas/routing-transaction-adapter';
import { ReceiptWritesService } from '@/receipts/receipt-writes.service';
import { TenantProvisioningService } from '@/tenants/tenant-provisioning.service';
import { DEMO_INTEREST_POLICY } from './demo-interest';

const ACTOR = 'demo-seed';
export const DEMO_GST_TENANT = { key: 'demo-gst', name: 'Lakeshore Estates LLP' };

/**
 * The third demo tenant, registered for GST (docs/gst.md): three bookings, one of each class
 * (STANDARD, AFFORDABLE, EXEMPT), taxed construction instalments with their tax invoices, an
 * OTHER_CHARGES demand, part payments, an interest demand taxed as its principal, and a demand
 * cancelled with its credit note, and two bookings cancelled after payment (one refund due, one
 * refunded late). Written by the API's own services in the seed's transaction,
 * so numbers, invoices, events and history are what the API would have made. `demo` and `demo-b`
 * stay untaxed.
 */
export async function seedDemoGst(
  app: INestApplicationContext,
  key: string = DEMO_GST_TENANT.key,
): Promise<void> {
  const txHost = app.get<TransactionHost<RoutingTransactionAdapter>>(TransactionHost);
  const tenant = await app
    .get(TenantProvisioningService)
    .create({ key, name: DEMO_GST_TENANT.name }, ACTOR);
  await bindTenant(txHost.tx, tenant.id);
  const context = tenantContextOf(tenant, ACTOR);
  const outbox = app.get(OutboxService);
  outbox.begin();
  const today = formatLocalDate(localDateInZone(new Date(), tenant.timezone));
  const day = (offset: number) => dayText(dayNumber(today) + offset);

  await app.get(GstSettingsService).replace(context, {
    enabled: true,
    gstin: '27AAPFU0939F1ZV',
    legalName: 'Lakeshore Estates LLP',
    address: 'Lakeshore Towers, LBS Marg, Powai, Mumbai 400076',
  });
  await app.get(InterestPolicyService).replace(context, DEMO_INTEREST_POLICY);

  const bookings = app.get(BookingsService);
  const book = (buyerName: string, extra: Record<string, unknown>) =>
    bookings.create(context, {
      unit: randomUUID(),
      buyerName,
      buyerId: randomUUID(),
      bookingDate: day(-300),
      buyerAddress: 'Flat 4, Hiranandani Gardens, Powai, Mumbai 400076',
      ...extra,
    });
  const standard = await book('Meera Krishnan', {
    unitName: 'Tower A – 1502',
    agreementValue: 12_500_000,
    carpetAreaSqm: 98.5,
  });
  const affordable = await book('Sandeep Patil', {
    unitName: 'Tower C – 0304',
    agreementValue: 4_200_000,
    carpetAreaSqm: 55.2,
    metroCity: true,
  });
  const exempt = await book('Farah Sheikh', {
    unitName: 'Tower B – 0801 (ready)',
    agreementValue: 9_000_000,
    gstExempt: true,
  });

  const demands = app.get(DemandsService);
  const payer = { standard: randomUUID(), affordable: randomUUID(), exempt: randomUUID() };
  const raise = (
    booking: string,
    payerId: string,
    amount: number,
    extra: Partial<CreateDemandRequest> & { demandDate: string; dueDate: string },
  ) =>
    demands.create(context, {
      booking,
      milestone: null,
      demandType: 'MANUAL',
      totalAmount: amount,
      remarks: 'Instalment',
      splits: [{ payerType: 'BUYER', payerId, amount }],
      ...extra,
    });
  const plinth = await raise(standard.id, payer.standard, 1_000_000, {
    demandDate: day(-120),
    dueDate: day(-90),
    remarks: 'Plinth completion',
  });
  await raise(standard.id, payer.standard, 250_000, {
    chargeType: 'OTHER_CHARGES',
    demandDate: day(-60),
    dueDate: day(-45),
    remarks: 'Club house and legal charges',
  });
  await raise(standard.id, payer.standard, 1_500_000, {
    demandDate: day(-10),
    dueDate: day(20),
    remarks: 'Fourth slab',
  });
  const affordableSlab = await raise(affordable.id, payer.affordable, 400_000, {
    demandDate: day(-90),
    dueDate: day(-60),
    remarks: 'First slab',
  });
  await raise(exempt.id, payer.exempt, 2_000_000, {
    demandDate: day(-30),
    dueDate: day(-15),
    remarks: 'Balance on possession',
  });
  const wrong = await raise(standard.id, payer.standard, 75_000, {
    demandDate: day(-20),
    dueDate: day(-5),
    remarks: 'Parking (raised in error)',
  });

  const receipts = app.get(ReceiptWritesService);
  // The plinth paid late and in part: interest accrues on the unpaid gross.
  await receipts.record(context, {
    demandSplit: plinth.splits[0].id,
    amount: 600_000,
    paymentMode: 'NEFT',
    transactionRef: 'HDFCN52026071500001',
    receivedDate: day(-50),
  });
  await receipts.record(context, {
    demandSplit: affordableSlab.splits[0].id,
    amount: 404_000,
    paymentMode: 'RTGS',
    transactionRef: 'SBINR52026082000002',
    receivedDate: day(-62),
  });
  await app
    .get(CancellationsService)
    .cancelDemand(context, wrong.id, { reason: 'Parking is included in the agreement value' });
  await app
    .get(InterestService)
    .raiseDemand(context, standard.id, { asOf: day(-1), dueDate: day(15) });
  await seedCancellations(app, context, day, raise, book);
  await outbox.flush(context);
}

/**
 * Two buyers who walked away (docs/cancellation.md): one cancelled today on a request of ten
 * days ago, its refund due in 35 days; one whose request is 80 days old, so its refund (due 45
 * days after the request) is paid today, 35 days late, with interest.
 */
async function seedCancellations(
  app: INestApplicationContext,
  context: TenantContext,
  day: (offset: number) => string,
  raise: (
    booking: string,
    payerId: string,
    amount: number,
    extra: Partial<CreateDemandRequest> & { demandDate: string; dueDate: string },
  ) => Promise<{ splits: { id: string }[] }>,
  book: (buyerName: string, extra: Record<string, unknown>) => Promise<{ id: string }>,
): Promise<void> {
  const receipts = app.get(ReceiptWritesService);
  const cancellations = app.get(BookingCancellationsService);
  const walkAway = async (buyerName: string, unitName: string, requestedAgo: number) => {
    const payerId = randomUUID();
    const booking = await book(buyerName, {
      unitName,
      agreementValue: 8_000_000,
      carpetAreaSqm: 92,
      allotmentDate: day(-200),
    });
    const slab = await raise(booking.id, payerId, 800_000, {
      demandDate: day(-180),
      dueDate: day(-165),
      remarks: 'Booking amount',
    });
    await receipts.record(context, {
      demandSplit: slab.splits[0].id,
      amount: 840_000,
      paymentMode: 'NEFT',
      transactionRef: `ICICN${randomUUID().slice(0, 12).toUpperCase()}`,
      receivedDate: day(-170),
    });
    return cancellations.cancel(context, booking.id, {
      requestedOn: day(-requestedAgo),
      initiatedBy: 'BUYER',
      reason: 'Buyer withdrew: relocating',
    });
  };
  await walkAway('Rohan Mehta', 'Tower D – 1101', 10);
  const late = await walkAway('Kavya Reddy', 'Tower D – 1204', 80);
  await cancellations.payRefund(context, late.id, {
    paidOn: day(0),
    paymentMode: 'NEFT',
    transactionRef: 'HDFCR52026112800001',
  });
}
