import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequireScopes } from '@/http/auth/auth.decorators';
import { ApiProblems } from '@/http/errors/api-problems';
import { uuidPipe } from '@/http/errors/uuid.pipe';
import { Idempotent } from '@/http/idempotency/idempotency.interceptor';
import { ApiIdParam } from '@/http/swagger';
import { TenantContext } from '@/common/tenant-context';
import { Tenant } from '@/http/tenancy/tenant.decorator';
import { BookingView } from '@/bookings/dto/booking.view';
import { DemandView } from '@/demands/dto/demand-views';
import { CancellationsService } from './cancellations.service';
import { CancelRecordRequest } from './dto/cancel.request';

const REASON_EXAMPLES = {
  withdrawn: { summary: 'Buyer withdrew', value: { reason: 'Buyer withdrew from the booking' } },
};

@ApiTags('cancellations')
@Controller()
export class CancellationsController {
  constructor(private readonly cancellations: CancellationsService) {}

  @Post('demands/:id/cancel')
  @HttpCode(200)
  @RequireScopes('receipts:write')
  @Idempotent()
  @ApiOperation({
    summary: 'Cancel a demand and its splits.',
    description:
      "The demand and every split become CANCELLED in one transaction; they keep their numbers, stay readable, and take no new receipts (409 DEMAND_CANCELLED). Receipt searches filtering on demand or split status see the change at once. Errors: 404 DEMAND_NOT_FOUND (also for another tenant's demand), 409 DEMAND_HAS_RECEIPTS while any of its receipts is ACTIVE (cancelled and bounced receipts do not block), 409 ALREADY_CANCELLED. A refused cancel changes nothing.",
  })
  @ApiIdParam('Demand id.')
  @ApiBody({ type: CancelRecordRequest, examples: REASON_EXAMPLES })
  @ApiOkResponse({ type: DemandView, description: 'The demand with its splits, now CANCELLED.' })
  @ApiProblems(
    {
      status: 404,
      code: 'DEMAND_NOT_FOUND',
      detail: 'Demand 9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d was not found.',
    },
    {
      status: 409,
      code: 'DEMAND_HAS_RECEIPTS',
      detail:
        'Demand 9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d has ACTIVE receipts; cancel or bounce them first.',
    },
  )
  cancelDemand(
    @Tenant() tenant: TenantContext,
    @Param('id', uuidPipe('id')) id: string,
    @Body() body: CancelRecordRequest,
  ): Promise<DemandView> {
    return this.cancellations.cancelDemand(tenant, id, body);
  }

  @Post('bookings/:id/cancel')
  @HttpCode(200)
  @RequireScopes('receipts:write')
  @Idempotent()
  @ApiOperation({
    summary: 'Cancel a booking, its demands and their splits.',
    description:
      "The booking, its demands and their splits become CANCELLED in one transaction; they keep their numbers, stay readable, and the booking takes no new demands (409 BOOKING_CANCELLED). Errors: 404 BOOKING_NOT_FOUND (also for another tenant's booking), 409 BOOKING_HAS_RECEIPTS while any receipt under it is ACTIVE (cancelled and bounced receipts do not block), 409 ALREADY_CANCELLED. A refused cancel changes nothing.",
  })
  @ApiIdParam('Booking id.')
  @ApiBody({ type: CancelRecordRequest, examples: REASON_EXAMPLES })
  @ApiOkResponse({ type: BookingView, description: 'The booking, now CANCELLED.' })
  @ApiProblems(
    {
      status: 404,
      code: 'BOOKING_NOT_FOUND',
      detail: 'Booking 5b4a3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d was not found.',
    },
    {
      status: 409,
      code: 'BOOKING_HAS_RECEIPTS',
      detail:
        'Booking 5b4a3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d has ACTIVE receipts; cancel or bounce them first.',
    },
  )
  cancelBooking(
    @Tenant() tenant: TenantContext,
    @Param('id', uuidPipe('id')) id: string,
    @Body() body: CancelRecordRequest,
  ): Promise<BookingView> {
    return this.cancellations.cancelBooking(tenant, id, body);
  }
}
