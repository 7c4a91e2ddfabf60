import { Injectable } from '@nestjs/common';
import { Clock } from '@/platform/clock/clock';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TenantContext } from '@/common/tenant-context';
import { BOOKING_NOT_FOUND } from '@/bookings/bookings.errors';
import { OutboxService } from '@/platform/outbox/outbox.service';
import { RoutingTransactionAdapter } from '@/platform/replicas/routing-transaction-adapter';
import { CollectionHoldRequest } from './dto/collection-hold.request';
import { CollectionHoldsView, CollectionHoldView } from './dto/collection-hold.view';
import { HOLD_ACTIVE, HOLD_ENDED, HOLD_NOT_FOUND } from './letters.errors';
import { invalid } from './letters.service';
import {
  ACTIVE_HOLD_SQL,
  activeHoldParams,
  BOOKING_EXISTS_SQL,
  BOOKING_HOLDS_SQL,
  bookingHoldsParams,
  bookingParams,
  END_HOLD_SQL,
  endHoldParams,
  HOLD_SQL,
  holdParams,
  HoldRow,
  INSERT_HOLD_SQL,
  insertHoldParams,
  ListedHoldRow,
  LOCK_BOOKING_HOLDS_SQL,
} from './letters.sql';

function holdView(row: HoldRow): CollectionHoldView {
  return {
    id: row.id,
    booking: row.booking_id,
    reason: row.reason,
    from: row.from_date,
    until: row.until_date,
    createdBy: row.created_by,
    endedBy: row.ended_by,
  };
}

/**
 * Collection holds (docs/letters.md): a hold covering asOf keeps a booking's reminders from being
 * due. A booking has at most one active hold; its holds are created and ended one at a time
 * (a lock on the booking's key until commit).
 */
@Injectable()
export class HoldsService {
  constructor(
    private readonly clock: Clock,
    private readonly txHost: TransactionHost<RoutingTransactionAdapter>,
    private readonly outbox: OutboxService,
  ) {}

  async create(
    tenant: TenantContext,
    bookingId: string,
    body: CollectionHoldRequest,
  ): Promise<CollectionHoldView> {
    const now = this.clock.today(tenant);
    const until = body.until ?? null;
    if (until !== null && until < now) {
      throw invalid([{ field: 'until', message: `must not be before today (${now})` }]);
    }
    await this.lock(tenant, bookingId);
    const [active] = await this.txHost.tx.query<HoldRow[]>(
      ACTIVE_HOLD_SQL,
      activeHoldParams({ tenantId: tenant.tenantId, bookingId, today: now }),
    );
    if (active) throw HOLD_ACTIVE.error(bookingId, active.id);
    const [row] = await this.txHost.tx.query<HoldRow[]>(
      INSERT_HOLD_SQL,
      insertHoldParams({
        tenantId: tenant.tenantId,
        bookingId,
        reason: body.reason,
        from: now,
        until,
        actor: tenant.actor,
      }),
    );
    const view = holdView(row);
    this.outbox.record('collection-hold.created', view);
    return view;
  }

  /** DELETE: the hold still covers today, not tomorrow. */
  async end(tenant: TenantContext, bookingId: string, holdId: string): Promise<CollectionHoldView> {
    const now = this.clock.today(tenant);
    await this.lock(tenant, bookingId);
    const [hold] = await this.txHost.tx.query<HoldRow[]>(
      HOLD_SQL,
      holdParams({ tenantId: tenant.tenantId, bookingId, holdId }),
    );
    if (!hold) throw HOLD_NOT_FOUND.error(holdId);
    if (hold.ended_at !== null || (hold.until_date !== null && hold.until_date < now)) {
      throw HOLD_ENDED.error(holdId);
    }
    const [row] = await this.txHost.tx.query<HoldRow[]>(
      END_HOLD_SQL,
      endHoldParams({
        tenantId: tenant.tenantId,
        bookingId,
        holdId,
        today: now,
        actor: tenant.actor,
      }),
    );
    const view = holdView(row);
    this.outbox.record('collection-hold.ended', view);
    return view;
  }

  /** GET: the booking's holds, newest first; another tenant's booking is 404. */
  async list(tenant: TenantContext, bookingId: string): Promise<CollectionHoldsView> {
    const [booking] = await this.txHost.tx.query<{ id: string }[]>(
      BOOKING_EXISTS_SQL,
      bookingParams({ tenantId: tenant.tenantId, bookingId }),
    );
    if (!booking) throw BOOKING_NOT_FOUND.error(bookingId);
    const rows = await this.txHost.tx.query<ListedHoldRow[]>(
      BOOKING_HOLDS_SQL,
      bookingHoldsParams({ tenantId: tenant.tenantId, bookingId, timezone: tenant.timezone }),
    );
    return {
      holds: rows.map((r) => ({
        id: r.id,
        reason: r.reason,
        from: r.from_date,
        until: r.until_date,
        endedOn: r.ended_on,
        createdBy: r.created_by,
      })),
    };
  }

  /** 404 unless the booking is the tenant's; then its holds' lock. */
  private async lock(tenant: TenantContext, bookingId: string): Promise<void> {
    const params = bookingParams({ tenantId: tenant.tenantId, bookingId });
    const [booking] = await this.txHost.tx.query<{ id: string }[]>(BOOKING_EXISTS_SQL, params);
    if (!booking) throw BOOKING_NOT_FOUND.error(bookingId);
    await this.txHost.tx.query(LOCK_BOOKING_HOLDS_SQL, params);
  }
}
