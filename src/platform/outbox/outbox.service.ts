import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { RoutingTransactionAdapter } from '@/platform/replicas/routing-transaction-adapter';
import { ClsService } from 'nestjs-cls';
import { TenantContext } from '@/common/tenant-context';
import { IDEMPOTENCY_STORE_SQL } from '@/platform/idempotency/idempotency.sql';
import {
  APPEND_EVENTS_AND_IDEMPOTENCY_SQL,
  APPEND_EVENTS_SQL,
  appendMadeEventsSql,
} from '@/platform/outbox/outbox.sql';

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
  'gst-settings.updated',
  'booking.updated',
  'credit-note.issued',
  'cancellation-policy.updated',
  'refund.paid',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

interface PendingEvent {
  type: EventType;
  /** The data as JSON text, made when recorded: thousands of events hold text, not records. */
  json: string;
}

/** Events whose data an SQL query makes at the flush (recordQuery). */
interface PendingQuery {
  /** The types of the events it makes, one per event, in order. */
  types: EventType[];
  sql: string;
  params: unknown[];
}

type Pending = PendingEvent | PendingQuery;

/**
 * Events per INSERT when a transaction wrote many (a statement import realises thousands of
 * receipts): one statement of them all would hold every event's text again as one parameter.
 */
export const EVENTS_PER_STATEMENT = 500;

/** An Idempotency-Key's stored response (IDEMPOTENCY_STORE_SQL's params after the tenant). */
export interface IdempotencyRecord {
  key: string;
  hash: string;
  status: number;
  body: string;
  /** The response's secret fields, sealed (the body has them as null); null: none. */
  secrets: Buffer | null;
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
    const pending = this.cls.get<Pending[] | undefined>(PENDING);
    if (!pending) throw new Error(`outbox: ${type} recorded outside a tenant transaction`);
    pending.push({ type, json: JSON.stringify(data) });
  }

  /**
   * Records events whose data `sql` makes in the database, in one INSERT ... SELECT at the flush
   * (thousands of them, as bank matching realises, without reading each record into the service
   * and sending its JSON back). `sql` answers rows (ord from 1, type, data: JSON text), binds $1
   * (the tenant) and its `params` from $3; `types` are the types of the rows it will answer, in
   * order (one per event). It runs when the transaction flushes, its last statement: the records
   * it reads must not change after this call in the transaction.
   */
  recordQuery(types: EventType[], sql: string, params: unknown[]): void {
    const pending = this.cls.get<Pending[] | undefined>(PENDING);
    if (!pending) throw new Error(`outbox: ${types[0]} recorded outside a tenant transaction`);
    if (types.length > 0) pending.push({ types, sql, params });
  }

  /**
   * Has the request's Idempotency-Key response written by `flush`, in the events' statement;
   * false outside a tenant transaction (the caller then stores it itself).
   */
  deferIdempotencyRecord(record: IdempotencyRecord): boolean {
    if (!this.cls.get<Pending[] | undefined>(PENDING)) return false;
    this.cls.set(IDEMPOTENCY, record);
    return true;
  }

  /**
   * Writes the recorded events (and a deferred idempotency record): the last statement.
   * Resolves with the types of the events written.
   */
  async flush(tenant: TenantContext): Promise<EventType[]> {
    const pending = this.cls.get<Pending[] | undefined>(PENDING) ?? [];
    const idempotency = this.cls.get<IdempotencyRecord | undefined>(IDEMPOTENCY);
    this.cls.set(PENDING, []);
    this.cls.set(IDEMPOTENCY, undefined);
    const stored = idempotency
      ? [
          idempotency.key,
          idempotency.hash,
          idempotency.status,
          idempotency.body,
          idempotency.secrets,
        ]
      : [];
    if (pending.length === 0) {
      if (idempotency) {
        await this.txHost.tx.query(IDEMPOTENCY_STORE_SQL, [tenant.tenantId, ...stored]);
      }
      return [];
    }
    // In order: runs of recorded events in batches, each query's events in one statement; the
    // tenant's sequence row, locked by the first, is held to the commit.
    const last = pending[pending.length - 1];
    for (let from = 0; from < pending.length;) {
      const item = pending[from];
      if ('sql' in item) {
        await this.txHost.tx.query(appendMadeEventsSql(item.sql), [
          tenant.tenantId,
          tenant.actor,
          ...item.params,
        ]);
        from++;
        continue;
      }
      const batch: PendingEvent[] = [];
      while (from < pending.length && batch.length < EVENTS_PER_STATEMENT) {
        const next = pending[from];
        if ('sql' in next) break;
        batch.push(next);
        from++;
      }
      const withIdempotency = idempotency !== undefined && batch[batch.length - 1] === last;
      await this.txHost.tx.query(
        withIdempotency ? APPEND_EVENTS_AND_IDEMPOTENCY_SQL : APPEND_EVENTS_SQL,
        [
          tenant.tenantId,
          tenant.actor,
          batch.map((e) => e.type),
          batch.map((e) => e.json),
          ...(withIdempotency ? stored : []),
        ],
      );
    }
    if (idempotency && 'sql' in last) {
      await this.txHost.tx.query(IDEMPOTENCY_STORE_SQL, [tenant.tenantId, ...stored]);
    }
    return pending.flatMap((e) => ('sql' in e ? e.types : [e.type]));
  }
}
