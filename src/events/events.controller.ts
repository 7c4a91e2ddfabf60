import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiQuery, ApiTags } from '@nestjs/swagger';
import { Route } from '@/http/route.decorator';
import { EVENT_TYPES } from '@/platform/outbox/outbox.service';
import { TenantContext } from '@/common/tenant-context';
import { Tenant } from '@/http/tenancy/tenant.decorator';
import { ApiCursorQuery } from '@/http/cursor-query';
import { EventPage } from './dto/event.view';
import { EVENTS_EXPIRED } from './events.errors';
import { EVENTS_LIMITS, EventsQuery, EventsService } from './events.service';
import { PrimaryOnly } from '@/platform/replicas/read-replicas';
import { VALIDATION_FAILED } from '@/http/errors/validation';

@ApiTags('events')
@Controller('events')
export class EventsController {
  constructor(private readonly events: EventsService) {}

  @Get()
  @PrimaryOnly()
  @Route({
    summary: "The tenant's events, in sequence order (a pull feed).",
    description: `Every change (${EVENT_TYPES.join(', ')}) is written as an event in the same transaction as the change, with data = the record as its GET returns it. Store nextAfter and send it back as after: you never miss or repeat an event, even while writes commit concurrently (sequences are assigned at commit, in commit order, so an event is readable only once every lower sequence is). Events older than EVENTS_RETENTION_DAYS (default 90) are purged: an after below the oldest kept event is 410 EVENTS_EXPIRED. A bad after, limit or type is 400 VALIDATION_FAILED naming it.`,
    scopes: ['events:read'],
    problems: [VALIDATION_FAILED, EVENTS_EXPIRED],
  })
  @ApiCursorQuery(
    'Return events with a higher sequence (default 0: from the start).',
    EVENTS_LIMITS,
  )
  @ApiQuery({
    name: 'type',
    required: false,
    description: `Comma-separated event types (${EVENT_TYPES.join(', ')}).`,
    schema: { type: 'string', example: 'receipt.recorded,receipt.bounced' },
  })
  @ApiOkResponse({ type: EventPage })
  list(@Tenant() tenant: TenantContext, @Query() query: EventsQuery) {
    return this.events.list(tenant, query);
  }
}
