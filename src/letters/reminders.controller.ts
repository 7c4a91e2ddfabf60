import {
  Body,
  Controller,
  Delete,
  Get,
  Headers,
  HttpCode,
  Param,
  Post,
  Put,
  Query,
  Res,
} from '@nestjs/common';
import { ApiIfMatch, etagHeader, sendEtag } from '@/http/etag';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiParam,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { TenantContext } from '@/common/tenant-context';
import { BOOKING_NOT_FOUND } from '@/bookings/bookings.errors';
import { DEMAND_NOT_FOUND } from '@/demands/demands.errors';
import { uuidPipe } from '@/http/errors/uuid.pipe';
import { Route } from '@/http/route.decorator';
import { ApiIdParam } from '@/http/swagger';
import { Tenant } from '@/http/tenancy/tenant.decorator';
import { CollectionHoldRequest } from './dto/collection-hold.request';
import { CollectionHoldsView, CollectionHoldView } from './dto/collection-hold.view';
import { ReminderPolicyRequest } from './dto/reminder-policy.request';
import { ReminderRunRequest } from './dto/reminder-run.request';
import {
  DemandRemindersView,
  DueRemindersPage,
  ReminderPolicyView,
  ReminderRunView,
} from './dto/reminders.view';
import { HoldsService } from './holds.service';
import { HOLD_ACTIVE, HOLD_ENDED, HOLD_NOT_FOUND, REMINDER_POLICY_CHANGED } from './letters.errors';
import { DUE_PAGE, RemindersService } from './reminders.service';
import { VALIDATION_FAILED } from '@/http/errors/validation';

const ETAG_HEADER = etagHeader('policy');

const DUE_RULE =
  "A reminder is due for a split on asOf when the split is not cancelled at asOf, owes more than 0 at asOf (the ageing's definition), its booking has no collection hold covering asOf, and asOf >= dueDate + offsetDays of a step neither sent nor skipped for that split; only the latest such step is due (sending it marks the earlier unsent steps skipped: a split that missed steps gets one reminder, not a burst).";

@ApiTags('letters')
@Controller()
export class RemindersController {
  constructor(
    private readonly reminders: RemindersService,
    private readonly holds: HoldsService,
  ) {}

  @Get('tenant/reminder-policy')
  @Route({
    summary: "The tenant's reminder policy (with an ETag).",
    description:
      'Until the first PUT: enabled, with the steps UPCOMING -7, DUE 0, OVERDUE_1 7, OVERDUE_2 15, FINAL_NOTICE 30 (days from the due date). Send the ETag back as If-Match on PUT.',
    scopes: ['tenant-config:read'],
  })
  @ApiOkResponse({ type: ReminderPolicyView, headers: ETAG_HEADER })
  getPolicy(@Tenant() tenant: TenantContext, @Res({ passthrough: true }) res: Response) {
    return this.reminders.policy(tenant).then(sendEtag(res));
  }

  @Put('tenant/reminder-policy')
  @Route({
    summary: 'Replace the reminder policy.',
    description:
      'Both fields required; unknown fields refused. At most 10 steps, names unique (upper-case letters, digits, _), offsetDays -60..365; else 400 VALIDATION_FAILED. Steps are kept in offset order. Send If-Match with the ETag of a GET (412 on mismatch). A change is written as a reminder-policy.updated event; a PUT that changes nothing stores nothing.',
    scopes: ['tenant-config:write'],
    problems: [REMINDER_POLICY_CHANGED],
  })
  @ApiIfMatch()
  @ApiBody({ type: ReminderPolicyRequest })
  @ApiOkResponse({ type: ReminderPolicyView, headers: ETAG_HEADER })
  replacePolicy(
    @Tenant() tenant: TenantContext,
    @Body() body: ReminderPolicyRequest,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ) {
    return this.reminders.replacePolicy(tenant, body, ifMatch).then(sendEtag(res));
  }

  @Get('reminders/due')
  @Route({
    summary: 'The reminders due on asOf, for the whole tenant, by due date.',
    description: `${DUE_RULE} pending is what the split owes at asOf; interestDue the payer's interest due on the booking (GET /bookings/{id}/interest). A bad asOf, page or size is 400 VALIDATION_FAILED naming it.`,
    scopes: ['receipts:read'],
    problems: [VALIDATION_FAILED],
  })
  @ApiQuery({
    name: 'asOf',
    required: false,
    description: "YYYY-MM-DD; default today in the tenant's zone.",
    schema: { type: 'string', format: 'date', example: '2026-11-26' },
  })
  @ApiQuery({
    name: 'page',
    required: false,
    description: '0-based page.',
    schema: { type: 'integer', minimum: 0, default: 0 },
  })
  @ApiQuery({
    name: 'size',
    required: false,
    description: 'Page size.',
    schema: {
      type: 'integer',
      minimum: 1,
      maximum: DUE_PAGE.maxSize,
      default: DUE_PAGE.defaultSize,
    },
  })
  @ApiOkResponse({ type: DueRemindersPage })
  due(
    @Tenant() tenant: TenantContext,
    @Query() query: { asOf?: unknown; page?: unknown; size?: unknown },
  ): Promise<DueRemindersPage> {
    return this.reminders.due(tenant, query);
  }

  @Post('reminders/run')
  @HttpCode(200)
  @Route({
    summary: 'Send every reminder due on asOf: record each once and write a reminder.due event.',
    description: `${DUE_RULE} One statement finds and records the due reminders of the whole tenant; a unique key per split and step means no step is ever sent twice, also when two runs race or a run is repeated (a repeat sends nothing). Each reminder sent is one reminder.due event, data { reminder, letter }: the due-list entry and the demand letter's JSON for that payer (deliver them with a webhook). skippedHeld counts reminders that would be due but for a collection hold. asOf defaults to today and, if sent, must be today (a reminder goes out now for what is owed now; another date is 400 VALIDATION_FAILED naming asOf, and nothing is recorded); GET /reminders/due?asOf= previews any date.`,
    scopes: ['receipts:write'],
    problems: [VALIDATION_FAILED],
    idempotent: true,
  })
  @ApiBody({ type: ReminderRunRequest, required: false })
  @ApiOkResponse({ type: ReminderRunView })
  run(@Tenant() tenant: TenantContext, @Body() body: ReminderRunRequest): Promise<ReminderRunView> {
    return this.reminders.run(tenant, body ?? {});
  }

  @Get('demands/:id/reminders')
  @Route({
    summary: 'The reminders sent for a demand, oldest first.',
    description:
      "Every step sent for each of its splits, with the run. Another tenant's demand is 404.",
    scopes: ['receipts:read'],
    problems: [DEMAND_NOT_FOUND],
  })
  @ApiIdParam('Demand id.')
  @ApiOkResponse({ type: DemandRemindersView })
  ofDemand(
    @Tenant() tenant: TenantContext,
    @Param('id', uuidPipe('id')) id: string,
  ): Promise<DemandRemindersView> {
    return this.reminders.ofDemand(tenant, id);
  }

  @Get('bookings/:id/collection-holds')
  @Route({
    summary: "A booking's collection holds, newest first.",
    description:
      "Every hold of the booking, active or ended: from (the day it was created), until (the last day it covers; null: until ended), endedOn (the day it was ended in the tenant's time zone; null while not ended). Another tenant's booking is 404.",
    scopes: ['receipts:read'],
    problems: [BOOKING_NOT_FOUND],
  })
  @ApiIdParam('Booking id.')
  @ApiOkResponse({ type: CollectionHoldsView })
  listHolds(
    @Tenant() tenant: TenantContext,
    @Param('id', uuidPipe('id')) id: string,
  ): Promise<CollectionHoldsView> {
    return this.holds.list(tenant, id);
  }

  @Post('bookings/:id/collection-holds')
  @HttpCode(201)
  @Route({
    summary: "Hold a booking's reminders (a dispute).",
    description:
      'From today until until (inclusive; none: until ended), no reminder of the booking is due: runs count them in skippedHeld. A booking has one active hold at a time: 409 HOLD_ACTIVE. until before today is 400 VALIDATION_FAILED. Writes collection-hold.created.',
    scopes: ['receipts:write'],
    problems: [BOOKING_NOT_FOUND, HOLD_ACTIVE],
    idempotent: true,
  })
  @ApiIdParam('Booking id.')
  @ApiBody({ type: CollectionHoldRequest })
  @ApiCreatedResponse({ type: CollectionHoldView })
  createHold(
    @Tenant() tenant: TenantContext,
    @Param('id', uuidPipe('id')) id: string,
    @Body() body: CollectionHoldRequest,
  ): Promise<CollectionHoldView> {
    return this.holds.create(tenant, id, body);
  }

  @Delete('bookings/:id/collection-holds/:holdId')
  @Route({
    summary: 'End a collection hold.',
    description:
      'It still covers today, not tomorrow (until becomes today), and a new hold may be created at once. A hold already ended (or past its until) is 409 HOLD_ENDED. Writes collection-hold.ended.',
    scopes: ['receipts:write'],
    problems: [BOOKING_NOT_FOUND, HOLD_NOT_FOUND, HOLD_ENDED],
  })
  @ApiIdParam('Booking id.')
  @ApiParam({
    name: 'holdId',
    description: 'Collection hold id.',
    schema: { type: 'string', format: 'uuid', example: '7e6d5c4b-3a2f-4e1d-8c9b-0a1f2e3d4c5b' },
  })
  @ApiOkResponse({ type: CollectionHoldView })
  endHold(
    @Tenant() tenant: TenantContext,
    @Param('id', uuidPipe('id')) id: string,
    @Param('holdId', uuidPipe('holdId')) holdId: string,
  ): Promise<CollectionHoldView> {
    return this.holds.end(tenant, id, holdId);
  }
}
