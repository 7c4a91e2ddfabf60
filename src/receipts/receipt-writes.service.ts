import { Injectable } from '@nestjs/common';
import { canBounce } from '@/common/domain/payment-modes';
import { Clock } from '@/platform/clock/clock';
import { TransactionHost } from '@nestjs-cls/transactional';
import { RoutingTransactionAdapter } from '@/platform/replicas/routing-transaction-adapter';
import Decimal from 'decimal.js';
import { PayerType } from '@/common/domain/enums';
import { OutboxService } from '@/platform/outbox/outbox.service';
import { TenantContext } from '@/common/tenant-context';
import { decimalFromJson } from '@/common/field-validators';
import { AppError } from '@/common/app-error';
import { formatLocalDate, parseLocalDate } from '@/common/dates/local-date';
import { pastDateProblems } from '@/common/dates/plausible-dates';
import { DemandsService } from '@/demands/demands.service';
import { NumberingService } from '@/numbering/numbering.service';
import { BouncedReceiptView, ReceiptView, toReceiptView } from './dto/receipt.view';
import {
  INSERT_RECEIPT_SQL,
  insertReceiptParams,
  LEAVE_ACTIVE_SQL,
  leaveActiveParams,
  LOCK_RECEIPT_REF_SQL,
  LOCK_SPLIT_AND_DEMAND_SQL,
  lockSplitAndDemandParams,
  LockedSplitRow as LockedSplit,
  RECEIPT_REF_SQL,
  receiptRefParams,
  ReceiptRefRow as ReceiptRef,
  SHARE_BOOKING_SQL,
  shareBookingParams,
  splitAndDemandPayment,
  UPDATE_SPLIT_AND_DEMAND_SQL,
} from './receipt-writes.sql';
import {
  BounceReceiptRequest,
  CancelReceiptRequest,
  RecordReceiptRequest,
} from './dto/receipt-writes.request';
import { BOOKING_UPDATE_CANCELLED } from '@/bookings/bookings.errors';
import { pendingAmount } from './payment-status';
import {
  BOUNCE_BEFORE_RECEIPT,
  DEMAND_CANCELLED,
  DEMAND_SPLIT_CANCELLED,
  DEMAND_SPLIT_NOT_FOUND,
  RECEIPT_AMOUNT_NOT_POSITIVE,
  RECEIPT_BEFORE_INVOICE,
  RECEIPT_EXCEEDS_PENDING,
  RECEIPT_NOT_ACTIVE,
  RECEIPT_NOT_BOUNCEABLE,
  RECEIPT_NOT_FOUND,
  RECEIPT_REALISED,
} from './receipts.errors';
import { ReceiptHooks } from './receipt-hooks';
import { ReceiptRow } from './receipts.sql';
import { ReceiptsService } from './receipts.service';

/** How a receipt leaves ACTIVE. */
interface StatusChange {
  status: 'CANCELLED' | 'BOUNCED';
  reason: string;
  /** The business date of the change (YYYY-MM-DD). */
  on: string;
}

/**
 * Records and cancels receipts. Each runs in the request's tenant transaction and locks rows in
 * one fixed order - demand split, then its demand, then (recording) the receipt number counter
 * or (cancelling) the receipt, then last the tenant's search version row - so concurrent writers
 * queue instead of deadlocking, and a split is never overpaid: the pending amount is read under
 * the split's row lock. The number is allocated as late as possible, because its counter row is
 * the hottest lock of the tenant, and after it only the number claim and one statement (bump the
 * version, insert and read back the receipt) run, then the idempotency record if any, then
 * commit; a failed receipt rolls back and
 * consumes no number. The search version is bumped before the receipt row is written so the row
 * carries it (`inserted_version`): held until commit, that lock makes commit order equal version
 * order, which incremental exact counts rely on (search/exact-counts.ts).
 */
@Injectable()
export class ReceiptWritesService {
  constructor(
    private readonly clock: Clock,
    private readonly txHost: TransactionHost<RoutingTransactionAdapter>,
    private readonly numbering: NumberingService,
    private readonly receipts: ReceiptsService,
    private readonly demands: DemandsService,
    private readonly outbox: OutboxService,
    private readonly hooks: ReceiptHooks,
  ) {}

  /**
   * Records one receipt. `runHooks: false` leaves the recorded-receipts hooks (receipt-hooks.ts)
   * to the caller, which runs them once over several receipts (a payment: one transfer).
   */
  async record(
    tenant: TenantContext,
    body: RecordReceiptRequest,
    { runHooks = true } = {},
  ): Promise<ReceiptView> {
    const amount = decimalFromJson(body.amount);
    if (amount.lte(0)) {
      throw RECEIPT_AMOUNT_NOT_POSITIVE.errorWith(
        { errors: [{ field: 'amount', message: 'must be greater than 0' }] },
        amount.toFixed(2),
      );
    }
    assertReceivedDatePlausible(this.clock.today(tenant), body.receivedDate);
    const date = parseLocalDate(body.receivedDate);
    const split = await this.lockSplitAndDemand(tenant, body.demandSplit);
    if (!split) throw DEMAND_SPLIT_NOT_FOUND.error(body.demandSplit);
    if (split.d_status === 'CANCELLED') throw DEMAND_CANCELLED.error(split.id, split.demand_id);
    if (split.status === 'CANCELLED') throw DEMAND_SPLIT_CANCELLED.error(split.id);
    if (split.d_taxed && body.receivedDate < split.d_demand_date) {
      throw RECEIPT_BEFORE_INVOICE.errorWith(
        {
          errors: [
            {
              field: 'receivedDate',
              message: `receivedDate must not be before the tax invoice's date ${split.d_demand_date}`,
            },
          ],
        },
        body.receivedDate,
        split.d_demand_date,
        split.id,
      );
    }
    const pending = pendingAmount({ total: split.amount, paid: split.paid_amount });
    if (amount.gt(pending)) {
      const message = `amount ${amount.toFixed(2)} exceeds the pending amount ${pending.toFixed(2)} of the demand split`;
      throw RECEIPT_EXCEEDS_PENDING.errorWith(
        { errors: [{ field: 'amount', message }] },
        amount.toFixed(2),
        pending.toFixed(2),
        split.id,
      );
    }
    const demandStatusChanged = await this.applyToSplitAndDemand(tenant, split, amount);

    // Last: the counter row and then the version row stay locked until commit.
    const receiptNumber = await this.numbering.allocate(tenant, 'receipt', { date });
    const [row] = await this.txHost.tx.query<ReceiptRow[]>(
      INSERT_RECEIPT_SQL,
      insertReceiptParams({
        tenant,
        split,
        receiptNumber,
        amount,
        receipt: body,
        demandStatusChanged,
      }),
    );
    const receipt = toReceiptView(row, tenant);
    this.outbox.record('receipt.recorded', receipt);
    return runHooks ? (await this.afterRecorded(tenant, [receipt]))[0] : receipt;
  }

  /**
   * Runs the recorded-receipts hooks over receipts this transaction recorded (bank matching may
   * realise them), and answers their views as they are now.
   */
  async afterRecorded(tenant: TenantContext, receipts: ReceiptView[]): Promise<ReceiptView[]> {
    const changed = await this.hooks.afterRecorded(
      tenant,
      receipts.map((r) => ({
        id: r.id,
        amount: new Decimal(r.amount.amount).toFixed(2),
        paymentMode: r.paymentMode,
        transactionRef: r.transactionRef,
      })),
    );
    if (changed.size === 0) return receipts;
    const fresh = new Map(
      (await this.receipts.loadByIds(tenant, [...changed])).map((r) => [r.id, r]),
    );
    return receipts.map((r) => fresh.get(r.id) ?? r);
  }

  async cancel(
    tenant: TenantContext,
    id: string,
    body: CancelReceiptRequest,
  ): Promise<ReceiptView> {
    const today = this.clock.today(tenant);
    await this.leaveActive(tenant, id, { lockBooking: false }, (receipt) => {
      assertActive(receipt);
      // Read under the receipt's lock, which matching also takes: never cancelled once realised.
      if (receipt.bank_line_id !== null) throw RECEIPT_REALISED.error(id, receipt.bank_line_id);
      return { status: 'CANCELLED', reason: body.reason, on: today };
    });
    const receipt = await this.load(tenant, id);
    this.outbox.record('receipt.cancelled', receipt);
    return receipt;
  }

  /**
   * A cheque or draft that did not clear: the receipt becomes BOUNCED and its
   * amount leaves the split and demand exactly as on cancel; charges raise a MANUAL demand on
   * the same booking, for the same payer, in the same transaction.
   */
  async bounce(
    tenant: TenantContext,
    id: string,
    body: BounceReceiptRequest,
  ): Promise<BouncedReceiptView> {
    const bouncedOn = formatLocalDate(parseLocalDate(body.bouncedOn));
    const charges =
      body.charges === undefined || body.charges === null ? null : decimalFromJson(body.charges);
    // Raising the charges demand takes the booking (FOR SHARE, like any new demand): take it
    // first, as cancelling a booking does, so the two never lock in opposite orders.
    const lockBooking = charges !== null;
    const bankLine = body.bankLine ?? null;
    if (bankLine !== null) await this.hooks.returnHook().lockReturnLine(tenant, id, bankLine);
    const receipt = await this.leaveActive(tenant, id, { lockBooking }, (found) => {
      if (!canBounce(found.payment_mode)) {
        throw RECEIPT_NOT_BOUNCEABLE.error(id, found.payment_mode);
      }
      assertActive(found);
      if (bouncedOn < found.received_date) {
        const message = `must not be before receivedDate ${found.received_date}`;
        throw BOUNCE_BEFORE_RECEIPT.errorWith(
          { errors: [{ field: 'bouncedOn', message }] },
          id,
          found.received_date,
          bouncedOn,
        );
      }
      return { status: 'BOUNCED', reason: body.reason, on: bouncedOn };
    });
    if (bankLine !== null) await this.hooks.returnHook().matchReturnLine(tenant, id, bankLine);
    const view = await this.load(tenant, id);
    this.outbox.record('receipt.bounced', view);
    const chargesDemand =
      charges === null
        ? null
        : await this.demands.create(
            tenant,
            {
              booking: receipt.booking_id,
              milestone: null,
              demandType: 'MANUAL',
              // A penalty for a dishonoured cheque is no consideration: never taxed.
              chargeType: 'OTHER_CHARGES',
              totalAmount: charges.toFixed(2),
              dueDate: bouncedOn,
              remarks:
                `Charges for bounced receipt ${receipt.receipt_number}: ${body.reason}`.slice(
                  0,
                  500,
                ),
              splits: [
                {
                  payerType: receipt.payer.type,
                  payerId: receipt.payer.id,
                  amount: charges.toFixed(2),
                },
              ],
            },
            { dueBeforeDemandDate: true, untaxed: true },
          );
    return { ...view, chargesDemand };
  }

  /**
   * Takes an ACTIVE receipt out of the money received, in the lock order of recording (split,
   * demand, then the receipt itself, then the search version): `decide` sees the locked receipt
   * and either throws (nothing changed) or says what it becomes. `lockBooking`: take the
   * receipt's booking first (FOR SHARE), for a write that goes on to raise a demand on it.
   */
  private async leaveActive(
    tenant: TenantContext,
    id: string,
    options: { lockBooking: boolean },
    decide: (receipt: ReceiptRef) => StatusChange,
  ): Promise<ReceiptRef & { payer: { type: PayerType; id: string } }> {
    const em = this.txHost.tx;
    const ref = receiptRefParams({ tenantId: tenant.tenantId, id });
    const [found] = await em.query<ReceiptRef[]>(RECEIPT_REF_SQL, ref);
    if (!found) throw RECEIPT_NOT_FOUND.error(id);
    if (options.lockBooking) {
      await em.query(
        SHARE_BOOKING_SQL,
        shareBookingParams({ tenantId: tenant.tenantId, bookingId: found.booking_id }),
      );
    }

    const split = (await this.lockSplitAndDemand(tenant, found.demand_split_id)) as LockedSplit;
    // Only a booking's cancellation leaves ACTIVE receipts on a cancelled demand: they were paid,
    // its refund counts them, and they stay as they are.
    if (split.d_status === 'CANCELLED') throw BOOKING_UPDATE_CANCELLED.error(found.booking_id);
    const [receipt] = await em.query<ReceiptRef[]>(LOCK_RECEIPT_REF_SQL, ref);
    const change = decide(receipt);

    const amount = new Decimal(receipt.amount).negated();
    const demandStatusChanged = await this.applyToSplitAndDemand(tenant, split, amount);
    await this.receipts.markChanged(tenant, {
      receiptStatus: true,
      demandStatus: demandStatusChanged,
    });
    await em.query(
      LEAVE_ACTIVE_SQL,
      leaveActiveParams({ tenantId: tenant.tenantId, id, ...change, actor: tenant.actor }),
    );
    return { ...receipt, payer: { type: split.payer_type as PayerType, id: split.payer_id } };
  }

  private async lockSplitAndDemand(
    tenant: TenantContext,
    splitId: string,
  ): Promise<LockedSplit | undefined> {
    const [split] = await this.txHost.tx.query<LockedSplit[]>(
      LOCK_SPLIT_AND_DEMAND_SQL,
      lockSplitAndDemandParams({ tenantId: tenant.tenantId, splitId }),
    );
    return split;
  }

  /**
   * Adds `amount` (negative: takes it back) to what the split and its demand have been paid, in
   * one statement; says whether either status changed (a filter on them must recount).
   */
  private async applyToSplitAndDemand(
    tenant: TenantContext,
    split: LockedSplit,
    amount: Decimal,
  ): Promise<boolean> {
    const payment = splitAndDemandPayment(tenant.tenantId, split, amount);
    await this.txHost.tx.query(UPDATE_SPLIT_AND_DEMAND_SQL, payment.params);
    return payment.statusChanged;
  }

  private async load(tenant: TenantContext, id: string): Promise<ReceiptView> {
    const [view] = await this.receipts.loadByIds(tenant, [id]);
    if (!view) throw RECEIPT_NOT_FOUND.error(id);
    return view;
  }
}

/** A receipt is never dated after today (the tenant's zone) nor before 2000. */
export function assertReceivedDatePlausible(today: string, receivedDate: string): void {
  const problems = pastDateProblems('receivedDate', receivedDate, today);
  if (problems.length > 0) throw AppError.validation(problems);
}

function assertActive(receipt: ReceiptRef): void {
  if (receipt.status !== 'ACTIVE') {
    throw RECEIPT_NOT_ACTIVE.error(receipt.id, receipt.status);
  }
}
