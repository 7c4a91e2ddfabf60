import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { RoutingTransactionAdapter } from '@/platform/replicas/routing-transaction-adapter';
import { ClsService } from 'nestjs-cls';
import { TenantContext } from '@/common/tenant-context';
import { IDEMPOTENCY_STORE_SQL } from '@/platform/idempotency/idempotency.sql';
import { APPEND_EVENTS_AND_IDEMPOTENCY_SQL, APPEND_EVENTS_SQL } from '@/platform/outbox/outbox.sql';

export const EVENT_TYPES = [
  'booking.created',
  'booking.cancelled',
  'demand.created',
  'demand.cancelled',
  'receipt.recorded',
  'receipt.cancelled',
  'receipt.bounced',
  'tenant-configuration.updated',
  'interest.waived',
  'interest-policy.updated',
  'bank-account.created',
  'bank-statement.imported',
  'bank-line.matched',
  'bank-line.unmatched',
  'bank-line.ignored',
  'receipt.realised',
  'receipt.unrealised',
  'bank-account.updated',
  'reminder.due',
  'reminder-policy.updated',
  'collection-hold.created',
  'collection-hold.ended',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

interface PendingEvent {
  type: EventType;
  data: unknown;
}

/** An Idempotency-Key's stored response (IDEMPOTENCY_STORE_SQL's params after the tenant). */
export interface IdempotencyRecord {
  key: string;
  hash: string;
  status: number;
  body: string;
}

const PENDING = 'outbox:pending';
const IDEMPOTENCY = 'outbox:idempotency';

/**
 * The transactional outbox (docs/api.md). A service records an event when it changes a record;
 * the events wait in the request's context and are written by `flush` as the transaction's last
 * statement, just before it commits (TenantTransactionInterceptor). A request that fails rolls
 * back and never flushes, so a rolled-back change leaves no event.
 */
@Injectable()
export class OutboxService {
  constructor(
    private readonly cls: ClsService,
    private readonly txHost: TransactionHost<RoutingTransactionAdapter>,
  ) {}

  private readonly commitListeners: ((tenantId: string, types: EventType[]) => void)[] = [];

  /** Called after a tenant transaction that wrote events has committed (dispatch, metrics). */
  onCommit(listener: (tenantId: string, types: EventType[]) => void): void {
    this.commitListeners.push(listener);
  }

  /** The interceptor's report: `tenantId`'s events of `types` are committed and readable. */
  committed(tenantId: string, types: EventType[]): void {
    for (const listener of this.commitListeners) listener(tenantId, types);
  }

  /** Starts collecting the events of a tenant transaction. */
  begin(): void {
    this.cls.set(PENDING, []);
    this.cls.set(IDEMPOTENCY, undefined);
  }

  /** Records a change of the current tenant transaction; `data` is the record as GET shows it. */
  record(type: EventType, data: unknown): void {
    const pending = this.cls.get<PendingEvent[] | undefined>(PENDING);
    if (!pending) throw new Error(`outbox: ${type} recorded outside a tenant transaction`);
    pending.push({ type, data });
  }

  /**
   * Has the request's Idempotency-Key response written by `flush`, in the events' statement;
   * false outside a tenant transaction (the caller then stores it itself).
   */
  deferIdempotencyRecord(record: IdempotencyRecord): boolean {
    if (!this.cls.get<PendingEvent[] | undefined>(PENDING)) return false;
    this.cls.set(IDEMPOTENCY, record);
    return true;
  }

  /**
   * Writes the recorded events (and a deferred idempotency record): the last statement.
   * Resolves with the types of the events written.
   */
  async flush(tenant: TenantContext): Promise<EventType[]> {
    const pending = this.cls.get<PendingEvent[] | undefined>(PENDING) ?? [];
    const idempotency = this.cls.get<IdempotencyRecord | undefined>(IDEMPOTENCY);
    this.cls.set(PENDING, []);
    this.cls.set(IDEMPOTENCY, undefined);
    const stored = idempotency
      ? [idempotency.key, idempotency.hash, idempotency.status, idempotency.body]
      : [];
    if (pending.length === 0) {
      if (idempotency) {
        await this.txHost.tx.query(IDEMPOTENCY_STORE_SQL, [tenant.tenantId, ...stored]);
      }
      return [];
    }
    await this.txHost.tx.query(
      idempotency ? APPEND_EVENTS_AND_IDEMPOTENCY_SQL : APPEND_EVENTS_SQL,
      [
        tenant.tenantId,
        tenant.actor,
        pending.map((e) => e.type),
        pending.map((e) => JSON.stringify(e.data)),
        ...stored,
      ],
    );
    return pending.map((e) => e.type);
  }
}
