import {
  Body,
  Controller,
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
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { TenantContext } from '@/common/tenant-context';
import { BOOKING_NOT_FOUND } from '@/bookings/bookings.errors';
import { BOOKING_CANCELLED } from '@/demands/demands.errors';
import { DemandView } from '@/demands/dto/demand.view';
import { uuidPipe } from '@/http/errors/uuid.pipe';
import { Route } from '@/http/route.decorator';
import { ApiIdParam } from '@/http/swagger';
import { Tenant } from '@/http/tenancy/tenant.decorator';
import { NUMBERING_EXHAUSTED } from '@/numbering/numbering.errors';
import { BookingInterestView } from './dto/booking-interest.view';
import { InterestDemandRequest } from './dto/interest-demand.request';
import { INTEREST_POLICY_EXAMPLES, InterestPolicyRequest } from './dto/interest-policy.request';
import { InterestPolicyVersion, InterestPolicyView } from './dto/interest-policy.view';
import { InterestWaiverRequest } from './dto/interest-waiver.request';
import { InterestWaiverView } from './dto/interest-waiver.view';
import {
  INTEREST_ALREADY_DEMANDED,
  INTEREST_DISABLED,
  INTEREST_POLICY_CHANGED,
  NO_INTEREST_DUE,
  WAIVER_EXCEEDS_DUE,
} from './interest.errors';
import { InterestPolicyService } from './interest-policy.service';
import { InterestService } from './interest.service';
import { VALIDATION_FAILED } from '@/http/errors/validation';

const ETAG_HEADER = etagHeader('policy');

const RULE =
  'Per split of a covered demand and payer, with start = dueDate + graceDays: the part paid on ' +
  'date d bears interest for each day t with start < t <= d, the part still unpaid at asOf for ' +
  'each day start < t <= asOf; each day at rate(t) / 100 / 365 (365 in leap years too), rate(t) ' +
  'being the rate in force on t (none before the first rate). Summed exactly per split, rounded ' +
  'half-up to paisa once. Paying receipts are those received on or before asOf that are ACTIVE ' +
  'or were cancelled or bounced after asOf; a split cancelled at asOf bears none; INTEREST ' +
  'demands bear none.';

@ApiTags('interest')
@Controller()
export class InterestController {
  constructor(
    private readonly policies: InterestPolicyService,
    private readonly interest: InterestService,
  ) {}

  @Get('tenant/interest-policy')
  @Route({
    summary: "The tenant's interest policy (with an ETag).",
    description:
      'Until the first PUT: the default, disabled, with no rates. The response carries an ETag; send it back as If-Match on PUT to avoid overwriting a concurrent change.',
    scopes: ['tenant-config:read'],
  })
  @ApiOkResponse({ type: InterestPolicyView, headers: ETAG_HEADER })
  getPolicy(@Tenant() tenant: TenantContext, @Res({ passthrough: true }) res: Response) {
    return this.policies.get(tenant).then(sendEtag(res));
  }

  @Put('tenant/interest-policy')
  @Route({
    summary: 'Replace the interest policy.',
    description:
      'Every field is required; unknown fields are refused. 400 VALIDATION_FAILED for an enabled policy without rates, two rates with one effectiveFrom, INTEREST in demandTypes, graceDays outside 0..90 or a rate outside 0..36 or with more than 4 decimals. The policy in force is the rule for every computation, past periods included (a change is retroactive); interest already demanded stays demanded. Send If-Match with the ETag of a GET (412 on mismatch). Each change is kept in the history and written as an interest-policy.updated event; a PUT that changes nothing stores nothing.',
    scopes: ['tenant-config:write'],
    problems: [INTEREST_POLICY_CHANGED],
  })
  @ApiIfMatch()
  @ApiBody({ type: InterestPolicyRequest, examples: INTEREST_POLICY_EXAMPLES })
  @ApiOkResponse({ type: InterestPolicyView, headers: ETAG_HEADER })
  replacePolicy(
    @Tenant() tenant: TenantContext,
    @Body() body: InterestPolicyRequest,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ) {
    return this.policies.replace(tenant, body, ifMatch).then(sendEtag(res));
  }

  @Get('tenant/interest-policy/history')
  @Route({
    summary: 'Every stored version of the interest policy, newest first, with who and when.',
    description: 'Empty until the first change (the default policy is not a stored version).',
    scopes: ['tenant-config:read'],
  })
  @ApiOkResponse({ type: [InterestPolicyVersion] })
  policyHistory(@Tenant() tenant: TenantContext): Promise<InterestPolicyVersion[]> {
    return this.policies.history(tenant);
  }

  @Get('bookings/:id/interest')
  @Route({
    summary: 'Interest on late payment of a booking at asOf: periods, per payer and in total.',
    description:
      `${RULE} A period is a maximal run of consecutive charged days with one unpaid amount and ` +
      'one rate. Per payer: demanded = interest demands dated on or before asOf, not cancelled ' +
      'at asOf, whose interestThrough is on or before asOf; waived = waivers dated on or before ' +
      'asOf; due = accrued - demanded - waived, never below 0. A disabled policy: accrued and due ' +
      '0, demanded and waived as recorded. A bad asOf is 400 VALIDATION_FAILED naming it.',
    scopes: ['receipts:read'],
    problems: [BOOKING_NOT_FOUND],
    replicaRead: true,
  })
  @ApiIdParam('Booking id.')
  @ApiQuery({
    name: 'asOf',
    required: false,
    description:
      "The business date (YYYY-MM-DD); default today in the tenant's time zone; a future date projects.",
    schema: { type: 'string', format: 'date', example: '2026-06-30' },
  })
  @ApiOkResponse({ type: BookingInterestView })
  bookingInterest(
    @Tenant() tenant: TenantContext,
    @Param('id', uuidPipe('id')) id: string,
    @Query() query: { asOf?: unknown },
  ): Promise<BookingInterestView> {
    return this.interest.view(tenant, id, query);
  }

  @Post('bookings/:id/interest-demands')
  @HttpCode(201)
  @Route({
    summary: 'Demand the interest due on a booking through asOf.',
    description:
      "Raises one demand of demandType INTEREST, dated today, with interestThrough = asOf and one split per payer with interest due (that amount), numbered like any demand, its remarks naming the period. Due is as GET /bookings/{id}/interest shows it at asOf, counting every interest demand not cancelled and every waiver already recorded, so no interest is billed twice. asOf after today is 400; 422 INTEREST_DISABLED while the policy is disabled; 422 INTEREST_ALREADY_DEMANDED when asOf is not after the latest interestThrough of the booking's interest demands that are not cancelled; 422 NO_INTEREST_DUE when nothing is due; 409 BOOKING_CANCELLED. Cancelling the demand (POST /demands/{id}/cancel) makes its amount due again. Writes a demand.created event.",
    scopes: ['receipts:write'],
    problems: [
      VALIDATION_FAILED,
      BOOKING_NOT_FOUND,
      BOOKING_CANCELLED,
      INTEREST_DISABLED,
      INTEREST_ALREADY_DEMANDED,
      NO_INTEREST_DUE,
      NUMBERING_EXHAUSTED,
    ],
    idempotent: true,
  })
  @ApiIdParam('Booking id.')
  @ApiBody({ type: InterestDemandRequest })
  @ApiCreatedResponse({
    type: DemandView,
    description: 'The INTEREST demand (status PENDING) with one split per payer.',
  })
  raiseDemand(
    @Tenant() tenant: TenantContext,
    @Param('id', uuidPipe('id')) id: string,
    @Body() body: InterestDemandRequest,
  ): Promise<DemandView> {
    return this.interest.raiseDemand(tenant, id, body);
  }

  @Post('bookings/:id/interest-waivers')
  @HttpCode(201)
  @Route({
    summary: "Waive part or all of a payer's interest due on a booking.",
    description:
      "Records a waiver dated today by the caller; 422 WAIVER_EXCEEDS_DUE when the amount is more than the payer's interest due today (GET /bookings/{id}/interest). Waivers show in the interest view. Writes an interest.waived event (data: the waiver).",
    scopes: ['receipts:write'],
    problems: [BOOKING_NOT_FOUND, WAIVER_EXCEEDS_DUE],
    idempotent: true,
  })
  @ApiIdParam('Booking id.')
  @ApiBody({ type: InterestWaiverRequest })
  @ApiCreatedResponse({ type: InterestWaiverView, description: 'The waiver.' })
  waive(
    @Tenant() tenant: TenantContext,
    @Param('id', uuidPipe('id')) id: string,
    @Body() body: InterestWaiverRequest,
  ): Promise<InterestWaiverView> {
    return this.interest.waive(tenant, id, body);
  }
}
