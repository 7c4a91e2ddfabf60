import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { uuidPipe } from '@/http/errors/uuid.pipe';
import { Route } from '@/http/route.decorator';
import { ApiIdParam } from '@/http/swagger';
import { TenantContext } from '@/common/tenant-context';
import { Tenant } from '@/http/tenancy/tenant.decorator';
import { BOOKING_NOT_FOUND } from '@/bookings/bookings.errors';
import { BookingView } from '@/bookings/dto/booking.view';
import { DEMAND_NOT_FOUND } from '@/demands/demands.errors';
import { DemandView } from '@/demands/dto/demand.view';
import {
  ALREADY_CANCELLED,
  BOOKING_HAS_RECEIPTS,
  DEMAND_HAS_RECEIPTS,
} from './cancellations.errors';
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
  @Route({
    summary: 'Cancel a demand and its splits.',
    description:
      "The demand and every split become CANCELLED in one transaction; they keep their numbers, stay readable, and take no new receipts (409 DEMAND_CANCELLED). Receipt searches filtering on demand or split status see the change at once. Another tenant's demand is not found. A demand with any ACTIVE receipt cannot be cancelled (cancelled and bounced receipts do not block). A refused cancel changes nothing.",
    scopes: ['receipts:write'],
    problems: [DEMAND_NOT_FOUND, DEMAND_HAS_RECEIPTS, ALREADY_CANCELLED],
    idempotent: true,
  })
  @ApiIdParam('Demand id.')
  @ApiBody({ type: CancelRecordRequest, examples: REASON_EXAMPLES })
  @ApiOkResponse({ type: DemandView, description: 'The demand with its splits, now CANCELLED.' })
  cancelDemand(
    @Tenant() tenant: TenantContext,
    @Param('id', uuidPipe('id')) id: string,
    @Body() body: CancelRecordRequest,
  ): Promise<DemandView> {
    return this.cancellations.cancelDemand(tenant, id, body);
  }

  @Post('bookings/:id/cancel')
  @HttpCode(200)
  @Route({
    summary: 'Cancel a booking, its demands and their splits.',
    description:
      "The booking, its demands and their splits become CANCELLED in one transaction; they keep their numbers, stay readable, and the booking takes no new demands (409 BOOKING_CANCELLED). Another tenant's booking is not found. A booking with any ACTIVE receipt under it cannot be cancelled (cancelled and bounced receipts do not block). A refused cancel changes nothing.",
    scopes: ['receipts:write'],
    problems: [
      BOOKING_NOT_FOUND,
      BOOKING_HAS_RECEIPTS,
      { ...ALREADY_CANCELLED, example: ['Booking', '5b4a3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d'] },
    ],
    idempotent: true,
  })
  @ApiIdParam('Booking id.')
  @ApiBody({ type: CancelRecordRequest, examples: REASON_EXAMPLES })
  @ApiOkResponse({ type: BookingView, description: 'The booking, now CANCELLED.' })
  cancelBooking(
    @Tenant() tenant: TenantContext,
    @Param('id', uuidPipe('id')) id: string,
    @Body() body: CancelRecordRequest,
  ): Promise<BookingView> {
    return this.cancellations.cancelBooking(tenant, id, body);
  }
}
