import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { ClsService } from 'nestjs-cls';
import { TenantContext } from '@/common/tenancy/tenant-context';
import { APPEND_EVENTS_SQL } from './outbox.sql';

export const EVENT_TYPES = [
  'booking.created',
  'booking.cancelled',
  'demand.created',
  'demand.cancelled',
  'receipt.recorded',
  'receipt.cancelled',
  'receipt.bounced',
  'tenant-configuration.updated',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

interface PendingEvent {
  type: EventType;
  data: unknown;
}

const PENDING = 'outbox:pending';

/**
 * The transactional outbox (contract §8). A service records an event when it changes a record;
 * the events wait in the request's context and are written by `flush` as the transaction's last
 * statement, just before it commits (TenantTransactionInterceptor). A request that fails rolls
 * back and never flushes, so a rolled-back change leaves no event.
 */
@Injectable()
export class OutboxService {
  constructor(
    private readonly cls: ClsService,
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
  ) {}

  /** Starts collecting the events of a tenant transaction. */
  begin(): void {
    this.cls.set(PENDING, []);
  }

  /** Records a change of the current tenant transaction; `data` is the record as GET shows it. */
  record(type: EventType, data: unknown): void {
    const pending = this.cls.get<PendingEvent[] | undefined>(PENDING);
    if (!pending) throw new Error(`outbox: ${type} recorded outside a tenant transaction`);
    pending.push({ type, data });
  }

  /** Writes the recorded events: call as the transaction's last statement. */
  async flush(tenant: TenantContext): Promise<void> {
    const pending = this.cls.get<PendingEvent[] | undefined>(PENDING) ?? [];
    this.cls.set(PENDING, []);
    if (pending.length === 0) return;
    await this.txHost.tx.query(APPEND_EVENTS_SQL, [
      tenant.tenantId,
      tenant.actor,
      pending.map((e) => e.type),
      pending.map((e) => JSON.stringify(e.data)),
    ]);
  }
}
