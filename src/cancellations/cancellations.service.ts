import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { RoutingTransactionAdapter } from '@/platform/replicas/routing-transaction-adapter';
import { AppError } from '@/common/app-error';
import { OutboxService } from '@/platform/outbox/outbox.service';
import { TenantContext } from '@/common/tenant-context';
import { BOOKING_NOT_FOUND } from '@/bookings/bookings.errors';
import { BookingsService } from '@/bookings/bookings.service';
import { BookingView } from '@/bookings/dto/booking.view';
import { DemandsService } from '@/demands/demands.service';
import { DemandView } from '@/demands/dto/demand-views';
import { ReceiptsService } from '@/receipts/receipts.service';
import { CancelRecordRequest } from './dto/cancel.request';

/**
 * Cancels demands and bookings (contract §7.5), cascading down in one transaction. It sits above
 * bookings, demands and receipts because a cancel reads and changes all three.
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
  ) {}

  async cancelDemand(
    tenant: TenantContext,
    id: string,
    body: CancelRecordRequest,
  ): Promise<DemandView> {
    const [locked] = await this.lockDemands(tenant, 'd.id = $2', id);
    if (!locked) throw AppError.notFound('DEMAND_NOT_FOUND', `Demand ${id} was not found.`);
    if (locked.status === 'CANCELLED') {
      throw AppError.conflict('ALREADY_CANCELLED', `Demand ${id} is already cancelled.`);
    }
    await this.refuseActiveReceipts(tenant, 'demand_id = $2', id, () =>
      AppError.conflict(
        'DEMAND_HAS_RECEIPTS',
        `Demand ${id} has ACTIVE receipts; cancel or bounce them first.`,
      ),
    );
    await this.cancelDemandRows(tenant, 'id = $2', id, body.reason);
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
    const [booking] = await em.query<{ status: string }[]>(
      `SELECT status FROM bookings WHERE tenant_id = $1 AND id = $2 FOR UPDATE`,
      [tenant.tenantId, id],
    );
    if (!booking) throw BOOKING_NOT_FOUND.error(id);
    if (booking.status === 'CANCELLED') {
      throw AppError.conflict('ALREADY_CANCELLED', `Booking ${id} is already cancelled.`);
    }
    await this.lockDemands(tenant, 'd.booking_id = $2', id);
    await this.refuseActiveReceipts(tenant, 'booking_id = $2', id, () =>
      AppError.conflict(
        'BOOKING_HAS_RECEIPTS',
        `Booking ${id} has ACTIVE receipts; cancel or bounce them first.`,
      ),
    );
    const demandIds = await this.cancelDemandRows(
      tenant,
      `booking_id = $2 AND status <> 'CANCELLED'`,
      id,
      body.reason,
    );
    await em.query(
      `UPDATE bookings SET status = 'CANCELLED', cancel_reason = $3, cancelled_at = now(),
              cancelled_by = $4
        WHERE tenant_id = $1 AND id = $2`,
      [tenant.tenantId, id, body.reason, tenant.actor],
    );
    const cancelled = await this.bookings.findOne(tenant, id);
    // One event per record the cascade changed (contract §8).
    this.outbox.record('booking.cancelled', cancelled);
    for (const demandId of demandIds) {
      this.outbox.record('demand.cancelled', await this.demands.findOne(tenant, demandId));
    }
    return cancelled;
  }

  /** Locks the splits and then the demands matching `where` (over `d`), each in id order. */
  private async lockDemands(
    tenant: TenantContext,
    where: string,
    id: string,
  ): Promise<{ id: string; status: string }[]> {
    const em = this.txHost.tx;
    await em.query(
      `SELECT s.id FROM demand_splits s
        WHERE s.tenant_id = $1
          AND s.demand_id IN (SELECT d.id FROM demands d WHERE d.tenant_id = $1 AND ${where})
        ORDER BY s.id FOR UPDATE`,
      [tenant.tenantId, id],
    );
    return em.query(
      `SELECT d.id, d.status FROM demands d WHERE d.tenant_id = $1 AND ${where}
        ORDER BY d.id FOR UPDATE`,
      [tenant.tenantId, id],
    );
  }

  private async refuseActiveReceipts(
    tenant: TenantContext,
    where: string,
    id: string,
    conflict: () => AppError,
  ): Promise<void> {
    const [active] = await this.txHost.tx.query<unknown[]>(
      `SELECT 1 FROM receipts WHERE tenant_id = $1 AND ${where} AND status = 'ACTIVE' LIMIT 1`,
      [tenant.tenantId, id],
    );
    if (active) throw conflict();
  }

  /** Cancels the demands matching `where` and their splits; receipt searches on them recount. */
  private async cancelDemandRows(
    tenant: TenantContext,
    where: string,
    id: string,
    reason: string,
  ): Promise<string[]> {
    const [cancelled] = await this.txHost.tx.query<{ ids: string[] }[]>(
      `WITH d AS (
         UPDATE demands SET status = 'CANCELLED', cancel_reason = $3, cancelled_at = now(),
                cancelled_by = $4, modified_at = now()
          WHERE tenant_id = $1 AND ${where}
         RETURNING id),
       s AS (
         UPDATE demand_splits SET status = 'CANCELLED', modified_at = now()
          WHERE tenant_id = $1 AND demand_id IN (SELECT id FROM d))
       SELECT ARRAY(SELECT id FROM d ORDER BY id) AS ids`,
      [tenant.tenantId, id, reason, tenant.actor],
    );
    if (cancelled.ids.length === 0) return [];
    // Last in the lock order: receipt searches filtering on demand or split status recount.
    await this.receipts.markChanged(tenant, { receiptStatus: false, demandStatus: true });
    return cancelled.ids;
  }
}
