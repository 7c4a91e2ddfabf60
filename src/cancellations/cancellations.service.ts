import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { RoutingTransactionAdapter } from '@/platform/replicas/routing-transaction-adapter';
import { OutboxService } from '@/platform/outbox/outbox.service';
import { TenantContext } from '@/common/tenant-context';
import { BOOKING_NOT_FOUND } from '@/bookings/bookings.errors';
import { BookingsService } from '@/bookings/bookings.service';
import { BookingView } from '@/bookings/dto/booking.view';
import { DEMAND_NOT_FOUND } from '@/demands/demands.errors';
import { DemandsService } from '@/demands/demands.service';
import { DemandView } from '@/demands/dto/demand.view';
import { ReceiptsService } from '@/receipts/receipts.service';
import {
  ALREADY_CANCELLED,
  BOOKING_HAS_RECEIPTS,
  DEMAND_HAS_RECEIPTS,
} from './cancellations.errors';
import { parseLocalDate } from '@/common/dates/local-date';
import { GstSettingsService } from '@/gst-settings/gst-settings.service';
import { NumberingService } from '@/numbering/numbering.service';
import { Clock } from '@/platform/clock/clock';
import { CreditedInvoice, planCreditNotes } from './credit-notes';
import {
  ACTIVE_RECEIPT_SQL,
  BOOKING_OF_DEMAND_SQL,
  BookingOfDemandRow,
  demandIdsParams,
  INSERT_CREDIT_NOTE_SQL,
  insertCreditNoteParams,
  INVOICES_OF_DEMANDS_SQL,
  InvoiceOfDemandRow,
  MARK_TIME_BARRED_SQL,
  CANCEL_BOOKING_SQL,
  CANCEL_DEMANDS_SQL,
  CancelledDemandsRow,
  cancelParams,
  CancelTarget,
  LOCK_BOOKING_SQL,
  LOCK_DEMANDS_SQL,
  LOCK_SPLITS_SQL,
  LockedBookingRow,
  LockedDemandRow,
  targetParams,
} from './cancellations.sql';
import { CancelRecordRequest } from './dto/cancel.request';

/** The 409 of a target that still has ACTIVE receipts. */
const HAS_RECEIPTS = { demand: DEMAND_HAS_RECEIPTS, booking: BOOKING_HAS_RECEIPTS };

/**
 * Cancels demands and bookings, cascading down in one transaction: a cancelled record keeps its
 * number, stays readable and takes nothing new; a cancel is refused while ACTIVE receipts remain
 * (docs/api.md). It sits above bookings, demands and receipts because a cancel
 * reads and changes all three.
 *
 * Lock order, shared with every other writer: booking, then the demand splits (by id), then the
 * demands (by id), then the tenant's receipt search version. Recording, cancelling or bouncing a
 * receipt locks its split and then its demand, so a receipt racing a cancel either commits
 * first (and the cancel, which checks for ACTIVE receipts under the locks, answers 409) or waits
 * and then finds the demand cancelled (409 DEMAND_CANCELLED). A new demand takes its booking
 * FOR SHARE, so it and a booking cancel are ordered the same way.
 */
@Injectable()
export class CancellationsService {
  constructor(
    private readonly txHost: TransactionHost<RoutingTransactionAdapter>,
    private readonly bookings: BookingsService,
    private readonly demands: DemandsService,
    private readonly receipts: ReceiptsService,
    private readonly outbox: OutboxService,
    private readonly clock: Clock,
    private readonly numbering: NumberingService,
    private readonly gst: GstSettingsService,
  ) {}

  async cancelDemand(
    tenant: TenantContext,
    id: string,
    body: CancelRecordRequest,
  ): Promise<DemandView> {
    const [locked] = await this.lockDemands(tenant, 'demand', id);
    if (!locked) throw DEMAND_NOT_FOUND.error(id);
    if (locked.status === 'CANCELLED') throw ALREADY_CANCELLED.error('Demand', id);
    await this.refuseActiveReceipts(tenant, 'demand', id);
    await this.cancelDemandRows(tenant, 'demand', id, body.reason);
    const [owner] = await this.txHost.tx.query<BookingOfDemandRow[]>(
      BOOKING_OF_DEMAND_SQL,
      targetParams({ tenantId: tenant.tenantId, id }),
    );
    await this.issueCreditNotes(tenant, owner.booking_id, [id], body.reason);
    const cancelled = await this.demands.findOne(tenant, id);
    this.outbox.record('demand.cancelled', cancelled);
    return cancelled;
  }

  async cancelBooking(
    tenant: TenantContext,
    id: string,
    body: CancelRecordRequest,
  ): Promise<BookingView> {
    const em = this.txHost.tx;
    const [booking] = await em.query<LockedBookingRow[]>(
      LOCK_BOOKING_SQL,
      targetParams({ tenantId: tenant.tenantId, id }),
    );
    if (!booking) throw BOOKING_NOT_FOUND.error(id);
    if (booking.status === 'CANCELLED') throw ALREADY_CANCELLED.error('Booking', id);
    await this.lockDemands(tenant, 'booking', id);
    await this.refuseActiveReceipts(tenant, 'booking', id);
    const demandIds = await this.cancelDemandRows(tenant, 'booking', id, body.reason);
    await this.issueCreditNotes(tenant, id, demandIds, body.reason);
    await this.cancelBookingRow(tenant, id, body.reason);
    const cancelled = await this.bookings.findOne(tenant, id);
    // One event per record the cascade changed: the booking and each demand it cancelled.
    this.outbox.record('booking.cancelled', cancelled);
    for (const demandId of demandIds) {
      this.outbox.record('demand.cancelled', await this.demands.findOne(tenant, demandId));
    }
    return cancelled;
  }

  /** Marks the booking CANCELLED (after its demands: last in the cancel's writes). */
  async cancelBookingRow(tenant: TenantContext, id: string, reason: string): Promise<void> {
    await this.txHost.tx.query(
      CANCEL_BOOKING_SQL,
      cancelParams({
        tenantId: tenant.tenantId,
        id,
        reason,
        cancelledBy: tenant.actor,
        at: this.clock.now(),
      }),
    );
  }

  /**
   * The credit notes of taxed demands just cancelled (docs/gst.md): their whole tax, or what a
   * booking's cancellation credits of each (`credited`, by demand id), one note per financial year of
   * their invoices, dated today, numbered from the `credit-note` series in this transaction; an
   * invoice past its section 34 window gets none and its demand is marked `gstCreditTimeBarred`.
   * Answers the notes issued.
   */
  async issueCreditNotes(
    tenant: TenantContext,
    bookingId: string,
    demandIds: readonly string[],
    reason: string,
    options: {
      credited?: ReadonlyMap<string, CreditedInvoice['credited']>;
      cancellationId?: string;
    } = {},
  ): Promise<{ id: string; number: string }[]> {
    if (demandIds.length === 0) return [];
    const em = this.txHost.tx;
    const invoices = await em.query<InvoiceOfDemandRow[]>(
      INVOICES_OF_DEMANDS_SQL,
      demandIdsParams({ tenantId: tenant.tenantId, demandIds }),
    );
    if (invoices.length === 0) return [];
    const today = this.clock.today(tenant);
    const { annualReturns } = await this.gst.settings(tenant);
    const plan = planCreditNotes(
      invoices.map((i) => ({
        demandId: i.demand_id,
        document: i.document,
        credited: options.credited?.get(i.demand_id),
      })),
      today,
      annualReturns,
    );
    if (plan.timeBarred.length > 0) {
      await em.query(
        MARK_TIME_BARRED_SQL,
        demandIdsParams({ tenantId: tenant.tenantId, demandIds: plan.timeBarred }),
      );
    }
    const issued: { id: string; number: string }[] = [];
    for (const note of plan.notes) {
      const number = await this.numbering.allocate(tenant, 'credit-note', {
        date: parseLocalDate(today),
      });
      // eslint-disable-next-line @typescript-eslint/no-unused-vars
      const { financialYear, demandIds: credited, ...printed } = note;
      const document = { number, date: today, reason, ...printed };
      const [row] = await em.query<{ id: string }[]>(
        INSERT_CREDIT_NOTE_SQL,
        insertCreditNoteParams({
          tenantId: tenant.tenantId,
          bookingId,
          number,
          date: today,
          recipientGstin: note.recipient.gstin,
          document,
          createdBy: tenant.actor,
          cancellationId: options.cancellationId ?? null,
        }),
      );
      this.outbox.record('credit-note.issued', { id: row.id, ...document });
      issued.push({ id: row.id, number });
    }
    return issued;
  }

  /** Locks the splits and then the demands of the target, each in id order. */
  async lockDemands(
    tenant: TenantContext,
    target: CancelTarget,
    id: string,
  ): Promise<LockedDemandRow[]> {
    const em = this.txHost.tx;
    const params = targetParams({ tenantId: tenant.tenantId, id });
    await em.query(LOCK_SPLITS_SQL[target], params);
    return em.query<LockedDemandRow[]>(LOCK_DEMANDS_SQL[target], params);
  }

  private async refuseActiveReceipts(
    tenant: TenantContext,
    target: CancelTarget,
    id: string,
  ): Promise<void> {
    const [active] = await this.txHost.tx.query<unknown[]>(
      ACTIVE_RECEIPT_SQL[target],
      targetParams({ tenantId: tenant.tenantId, id }),
    );
    if (active) throw HAS_RECEIPTS[target].error(id);
  }

  /** Cancels the target's demands and their splits; receipt searches on them recount. */
  async cancelDemandRows(
    tenant: TenantContext,
    target: CancelTarget,
    id: string,
    reason: string,
  ): Promise<string[]> {
    const [cancelled] = await this.txHost.tx.query<CancelledDemandsRow[]>(
      CANCEL_DEMANDS_SQL[target],
      cancelParams({
        tenantId: tenant.tenantId,
        id,
        reason,
        cancelledBy: tenant.actor,
        at: this.clock.now(),
      }),
    );
    if (cancelled.ids.length === 0) return [];
    // Last in the lock order: receipt searches filtering on demand or split status recount.
    await this.receipts.markChanged(tenant, { receiptStatus: false, demandStatus: true });
    return cancelled.ids;
  }
}
