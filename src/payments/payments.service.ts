import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import Decimal from 'decimal.js';
import { RoutingTransactionAdapter } from '@/platform/replicas/routing-transaction-adapter';
import { TenantContext } from '@/common/tenant-context';
import { Clock } from '@/platform/clock/clock';
import { decimalFromJson } from '@/common/field-validators';
import { toMoney } from '@/common/money/money';
import { BOOKING_NOT_FOUND } from '@/bookings/bookings.errors';
import { BOOKING_CANCELLED } from '@/demands/demands.errors';
import { ReceiptView } from '@/receipts/dto/receipt.view';
import { RECEIPT_BEFORE_INVOICE } from '@/receipts/receipts.errors';
import {
  assertReceivedDatePlausible,
  ReceiptWritesService,
} from '@/receipts/receipt-writes.service';
import { PaymentView } from './dto/payment.view';
import {
  OLDEST_DUE_FIRST,
  PaymentAllocationEntry,
  RecordPaymentRequest,
} from './dto/record-payment.request';
import {
  allocateOldestFirst,
  firstRepeated,
  ListedSplit,
  OpenSplit,
  outstanding,
  Part,
  refuseListed,
  total,
} from './payment-allocation';
import {
  ALLOCATION_INVALID,
  ALLOCATION_MISMATCH,
  PAYMENT_EXCEEDS_OUTSTANDING,
} from './payments.errors';
import {
  bookingParams,
  LOCK_LISTED_SPLITS_SQL,
  LOCK_PAYER_SPLITS_SQL,
  LOCK_SPLIT_DEMANDS_SQL,
  LockedIdRow,
  PAYMENT_SPLITS_SQL,
  PaymentBookingRow,
  payerSplitsParams,
  PaymentSplitRow,
  SHARE_BOOKING_SQL,
  splitIdsParams,
} from './payments.sql';

/**
 * One payment over many dues (docs/receivables.md): one receipt per split paid, all in
 * the request's transaction, each recorded by ReceiptWritesService exactly as POST /receipts
 * records one (number, split and demand amounts and statuses, search version, event).
 *
 * Lock order, the one every writer shares: the booking (FOR SHARE), then every split the payment
 * may touch (by id), then their demands (by id); only then the receipts, which take the number
 * counter and the search version. Pending amounts are read under the split locks, so concurrent
 * payments and receipts queue and never overpay a split; every refusal is thrown before the first
 * receipt, and in any case rolls the whole transaction back.
 */
@Injectable()
export class PaymentsService {
  constructor(
    private readonly clock: Clock,
    private readonly txHost: TransactionHost<RoutingTransactionAdapter>,
    private readonly receiptWrites: ReceiptWritesService,
  ) {}

  async record(
    tenant: TenantContext,
    bookingId: string,
    body: RecordPaymentRequest,
  ): Promise<PaymentView> {
    // Before the allocation's 422s: a date nobody meant is the first thing to correct.
    assertReceivedDatePlausible(this.clock.today(tenant), body.receivedDate);
    const amount = decimalFromJson(body.amount);
    const em = this.txHost.tx;
    const [booking] = await em.query<PaymentBookingRow[]>(
      SHARE_BOOKING_SQL,
      bookingParams({ tenantId: tenant.tenantId, bookingId }),
    );
    if (!booking) throw BOOKING_NOT_FOUND.error(bookingId);
    if (booking.status === 'CANCELLED') throw BOOKING_CANCELLED.error(bookingId);

    const parts =
      body.allocation === OLDEST_DUE_FIRST
        ? await this.oldestDueFirst(tenant, bookingId, body.payerId, amount, body.receivedDate)
        : await this.asListed(
            tenant,
            bookingId,
            { payerId: body.payerId, receivedDate: body.receivedDate },
            amount,
            body.allocation,
          );

    const recorded: ReceiptView[] = [];
    for (const part of parts) {
      recorded.push(
        await this.receiptWrites.record(
          tenant,
          {
            demandSplit: part.splitId,
            // At most 15 significant digits with 2 decimals: the number prints back exactly.
            amount: part.amount.toNumber(),
            paymentMode: body.paymentMode,
            transactionRef: body.transactionRef,
            receivedDate: body.receivedDate,
          },
          { runHooks: false },
        ),
      );
    }
    // Once over the whole payment: one bank credit may pay all its receipts (rule GROUP).
    const receipts = await this.receiptWrites.afterRecorded(tenant, recorded);
    return { amount: toMoney(amount, tenant.currency, tenant.locale), receipts };
  }

  private async oldestDueFirst(
    tenant: TenantContext,
    bookingId: string,
    payerId: string,
    amount: Decimal,
    receivedDate: string,
  ): Promise<Part[]> {
    const locked = await this.txHost.tx.query<LockedIdRow[]>(
      LOCK_PAYER_SPLITS_SQL,
      payerSplitsParams({ tenantId: tenant.tenantId, bookingId, payerId }),
    );
    const rows = await this.lockDemandsAndRead(
      tenant,
      locked.map((r) => r.id),
    );
    // A taxed demand invoiced after the payment's date cannot take it (RECEIPT_BEFORE_INVOICE):
    // it is skipped, and what the payer owes counts only the splits the payment may pay.
    const open: OpenSplit[] = rows
      .filter((r) => r.status !== 'CANCELLED' && r.demand_status !== 'CANCELLED')
      .filter((r) => !(r.taxed && receivedDate < r.demand_date))
      .map(toOpenSplit);
    const parts = allocateOldestFirst(amount, open);
    if (parts === null) {
      throw PAYMENT_EXCEEDS_OUTSTANDING.errorWith(
        { errors: [{ field: 'amount', message: 'exceeds what the payer owes on the booking' }] },
        amount.toFixed(2),
        outstanding(open).toFixed(2),
        'the booking for this payer',
      );
    }
    return parts;
  }

  private async asListed(
    tenant: TenantContext,
    bookingId: string,
    payer: { payerId: string; receivedDate: string },
    amount: Decimal,
    entries: PaymentAllocationEntry[],
  ): Promise<Part[]> {
    const parts: Part[] = entries.map((e) => ({
      splitId: e.demandSplit.toLowerCase(),
      amount: decimalFromJson(e.amount),
    }));
    const sum = total(parts);
    if (!sum.eq(amount)) {
      throw ALLOCATION_MISMATCH.errorWith(
        { errors: [{ field: 'allocation', message: 'amounts must add up to amount' }] },
        sum.toFixed(2),
        amount.toFixed(2),
      );
    }
    const repeated = firstRepeated(parts.map((p) => p.splitId));
    if (repeated !== null) throw invalid(repeated, 'it is listed more than once');

    const ids = parts.map((p) => p.splitId);
    await this.txHost.tx.query<LockedIdRow[]>(
      LOCK_LISTED_SPLITS_SQL,
      splitIdsParams({ tenantId: tenant.tenantId, splitIds: ids }),
    );
    const rows = await this.lockDemandsAndRead(tenant, ids);
    const splits = new Map(rows.map((r) => [r.id.toLowerCase(), toListedSplit(r)]));
    const refusal = refuseListed(parts, splits, { bookingId, ...payer });
    if (refusal?.kind === 'INVALID') throw invalid(refusal.splitId, refusal.why);
    if (refusal?.kind === 'BEFORE_INVOICE') {
      throw RECEIPT_BEFORE_INVOICE.errorWith(
        {
          errors: [
            {
              field: 'receivedDate',
              message: `receivedDate must not be before the tax invoice's date ${refusal.invoiceDate}`,
            },
          ],
        },
        payer.receivedDate,
        refusal.invoiceDate,
        refusal.splitId,
      );
    }
    if (refusal?.kind === 'EXCEEDS') {
      throw PAYMENT_EXCEEDS_OUTSTANDING.errorWith(
        {
          errors: [
            { field: 'allocation', message: `exceeds the pending amount of ${refusal.splitId}` },
          ],
        },
        refusal.amount.toFixed(2),
        refusal.pending.toFixed(2),
        `demand split ${refusal.splitId}`,
      );
    }
    return parts;
  }

  /** Locks the demands of the (locked) splits, then reads the splits oldest due first. */
  private async lockDemandsAndRead(
    tenant: TenantContext,
    splitIds: string[],
  ): Promise<PaymentSplitRow[]> {
    if (splitIds.length === 0) return [];
    const params = splitIdsParams({ tenantId: tenant.tenantId, splitIds });
    await this.txHost.tx.query<LockedIdRow[]>(LOCK_SPLIT_DEMANDS_SQL, params);
    return this.txHost.tx.query<PaymentSplitRow[]>(PAYMENT_SPLITS_SQL, params);
  }
}

function toListedSplit(row: PaymentSplitRow): ListedSplit {
  return {
    id: row.id,
    bookingId: row.booking_id,
    payerId: row.payer_id,
    cancelled: row.status === 'CANCELLED' || row.demand_status === 'CANCELLED',
    pending: new Decimal(row.amount).minus(row.paid_amount),
    invoiceDate: row.taxed ? row.demand_date : null,
  };
}

function toOpenSplit(row: PaymentSplitRow): OpenSplit {
  return { id: row.id, pending: new Decimal(row.amount).minus(row.paid_amount) };
}

function invalid(splitId: string, why: string) {
  return ALLOCATION_INVALID.errorWith(
    { errors: [{ field: 'allocation', message: `${splitId}: ${why}` }] },
    splitId,
    why,
  );
}
