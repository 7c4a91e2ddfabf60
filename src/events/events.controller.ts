import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { RequireScopes } from '@/http/auth/auth.decorators';
import { ApiProblems } from '@/http/errors/api-problems';
import { EVENT_TYPES } from '@/platform/outbox/outbox.service';
import { TenantContext } from '@/common/tenant-context';
import { Tenant } from '@/http/tenancy/tenant.decorator';
import { ApiCursorQuery } from '@/http/cursor-query';
import { EventPage } from './dto/event.view';
import { EVENTS_LIMITS, EventsQuery, EventsService } from './events.service';
import { PrimaryOnly } from '@/platform/replicas/read-replicas';

@ApiTags('events')
@Controller('events')
export class EventsController {
  constructor(private readonly events: EventsService) {}

  @Get()
  @PrimaryOnly()
  @RequireScopes('events:read')
  @ApiOperation({
    summary: "The tenant's events, in sequence order (a pull feed).",
    description:
      'Every change (booking.created, booking.cancelled, demand.created, demand.cancelled, receipt.recorded, receipt.cancelled, receipt.bounced, tenant-configuration.updated) is written as an event in the same transaction as the change, with data = the record as its GET returns it. Store nextAfter and send it back as after: you never miss or repeat an event, even while writes commit concurrently (sequences are assigned at commit, in commit order, so an event is readable only once every lower sequence is). Events older than EVENTS_RETENTION_DAYS (default 90) are purged: an after below the oldest kept event is 410 EVENTS_EXPIRED. Errors: 400 VALIDATION_FAILED naming after, limit or type.',
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
  @ApiProblems(
    {
      status: 400,
      code: 'VALIDATION_FAILED',
      detail: 'The query is not valid: limit must be an integer from 1 to 500.',
    },
    {
      status: 410,
      code: 'EVENTS_EXPIRED',
      detail:
        'Events up to 1200 were purged (EVENTS_RETENTION_DAYS); the oldest kept is 1201. Resynchronise from search, then follow the feed from after=1200.',
    },
  )
  list(@Tenant() tenant: TenantContext, @Query() query: EventsQuery) {
    return this.events.list(tenant, query);
  }
}
