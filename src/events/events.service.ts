import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { RoutingTransactionAdapter } from '@/platform/replicas/routing-transaction-adapter';
import { FieldError } from '@/common/app-error';
import { EVENT_TYPES, EventType } from '@/platform/outbox/outbox.service';
import { TenantContext } from '@/common/tenant-context';
import { parseCursorQuery, refuseInvalidQuery } from '@/http/cursor-query';
import { EventPage } from './dto/event.view';
import { EVENTS_EXPIRED } from './events.errors';
import { EVENTS_PAGE_SQL, eventsPageParams, EventRow } from './events.sql';

export interface EventsQuery {
  after?: unknown;
  limit?: unknown;
  type?: unknown;
}

export const EVENTS_LIMITS = Object.freeze({ defaultLimit: 100, maxLimit: 500 });

/**
 * GET /events (README.md, Events): the tenant's events after a sequence, in order. The page and the
 * tenant's last sequence come from one statement, so one snapshot: with a `type` filter a short
 * page moves `nextAfter` to the last sequence that snapshot holds, and every event committed
 * later has a higher sequence (the outbox numbers events at commit, in commit order).
 */
@Injectable()
export class EventsService {
  constructor(private readonly txHost: TransactionHost<RoutingTransactionAdapter>) {}

  async list(tenant: TenantContext, query: EventsQuery): Promise<EventPage> {
    const { after, limit, types } = parseEventsQuery(query);
    const rows = await this.txHost.tx.query<EventRow[]>(
      EVENTS_PAGE_SQL,
      eventsPageParams({ tenantId: tenant.tenantId, after, limit, types }),
    );
    // Purged events (retention) leave the counter ahead of what is kept: a cursor below the
    // oldest kept event would silently skip the purged ones.
    const head = rows[0];
    const oldestKept = head.oldest !== null ? Number(head.oldest) : Number(head.counter ?? 0) + 1;
    if (after + 1 < oldestKept) throw EVENTS_EXPIRED.error(oldestKept);
    const events = rows.flatMap((r) =>
      r.id === null
        ? []
        : [
            {
              id: r.id,
              sequence: Number(r.sequence),
              type: r.type as string,
              occurredAt: (r.occurred_at as Date).toISOString(),
              actor: r.actor as string,
              data: r.data as Record<string, unknown>,
            },
          ],
    );
    const lastReturned = events.at(-1)?.sequence;
    const lastVisible = Number(rows[0]?.last ?? 0);
    const nextAfter =
      types !== null && events.length < limit
        ? Math.max(after, lastVisible)
        : (lastReturned ?? after);
    return { events, nextAfter };
  }
}

function parseEventsQuery(query: EventsQuery): {
  after: number;
  limit: number;
  types: EventType[] | null;
} {
  const errors: FieldError[] = [];
  const { after, limit } = parseCursorQuery(query, EVENTS_LIMITS, errors);
  let types: EventType[] | null = null;
  if (query.type !== undefined) {
    const names = typeof query.type === 'string' ? query.type.split(',').map((t) => t.trim()) : [];
    const unknown = names.filter((n) => !EVENT_TYPES.includes(n as EventType));
    if (names.length === 0 || names.some((n) => n === '') || unknown.length > 0) {
      errors.push({
        field: 'type',
        message: `must be a comma-separated list of ${EVENT_TYPES.join(', ')}`,
      });
    } else {
      types = [...new Set(names)] as EventType[];
    }
  }
  refuseInvalidQuery(errors);
  return { after, limit, types };
}
