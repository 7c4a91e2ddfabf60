import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequireScopes } from '@/http/auth/auth.decorators';
import { ApiProblems } from '@/http/errors/api-problems';
import { ApiIdParam } from '@/http/swagger';
import { uuidPipe } from '@/http/errors/uuid.pipe';
import { Idempotent } from '@/http/idempotency/idempotency.interceptor';
import { TenantContext } from '@/common/tenant-context';
import { Tenant } from '@/http/tenancy/tenant.decorator';
import { BookingsService } from './bookings.service';
import { ApiSearchQuery } from '@/search/search-swagger';
import type { RawSearchQuery } from '@/search/search-request';
import { BOOKING_SEARCH } from './booking-search';
import { BookingPage, BookingSearchFilterDto } from './dto/booking-search.dto';
import { BookingView } from './dto/booking.view';
import { CreateBookingRequest } from './dto/create-booking.request';
import { ReplicaRead } from '@/platform/replicas/read-replicas';

@ApiTags('bookings')
@Controller('bookings')
export class BookingsController {
  constructor(private readonly bookings: BookingsService) {}

  @Post()
  @HttpCode(201)
  @RequireScopes('receipts:write')
  @Idempotent()
  @ApiOperation({
    summary: 'Create a booking of a unit.',
    description:
      "Issues the next number of the tenant's booking series, dated by bookingDate. Errors: 400 VALIDATION_FAILED (unknown fields are refused too), 409 NUMBERING_EXHAUSTED (the pattern cannot render a free number), 422 IDEMPOTENCY_KEY_REUSED.",
  })
  @ApiBody({
    type: CreateBookingRequest,
    examples: {
      booking: {
        summary: 'A booking with a known buyer id',
        value: {
          unit: 'c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f',
          buyerName: 'Ananya Iyer',
          buyerId: '0d9c8b7a-6f5e-4d3c-9b2a-1f0e9d8c7b6a',
          bookingDate: '2026-11-22',
        },
      },
    },
  })
  @ApiCreatedResponse({ type: BookingView, description: 'The booking, status ACTIVE.' })
  @ApiProblems(409, {
    status: 422,
    code: 'IDEMPOTENCY_KEY_REUSED',
    detail: 'This Idempotency-Key was used with a different request body.',
  })
  create(
    @Tenant() tenant: TenantContext,
    @Body() body: CreateBookingRequest,
  ): Promise<BookingView> {
    return this.bookings.create(tenant, body);
  }

  @Post('search')
  @ReplicaRead()
  @HttpCode(200)
  @RequireScopes('receipts:read')
  @ApiOperation({
    summary: 'Search bookings with filters, sorting and paging.',
    description:
      'The request grammar, limits, page object and 400s of POST /receipts/search, over the booking catalogue. Default sort bookingDate,desc. totalElements is exact. keyword matches the booking number or the buyer name.',
  })
  @ApiSearchQuery(BOOKING_SEARCH)
  @ApiBody({
    type: [BookingSearchFilterDto],
    required: false,
    examples: {
      none: { summary: 'Every booking', value: [] },
      cancelled: {
        summary: 'Cancelled this financial year',
        value: [
          { field: 'status', query: 'CANCELLED', type: 'EQUALS' },
          { field: 'bookingDate', query: '2026-04-01,2027-03-31', type: 'BETWEEN' },
        ],
      },
    },
  })
  @ApiOkResponse({ type: BookingPage })
  search(@Tenant() tenant: TenantContext, @Query() query: RawSearchQuery, @Body() body: unknown) {
    return this.bookings.search(tenant, query, body);
  }

  @Get(':id')
  @RequireScopes('receipts:read')
  @ApiOperation({
    summary: 'One booking.',
    description: "A booking of the caller's tenant by id; another tenant's booking is 404.",
  })
  @ApiIdParam('Booking id.')
  @ApiOkResponse({ type: BookingView })
  @ApiProblems({
    status: 404,
    code: 'BOOKING_NOT_FOUND',
    detail: 'No booking c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f.',
  })
  findOne(
    @Tenant() tenant: TenantContext,
    @Param('id', uuidPipe('id')) id: string,
  ): Promise<BookingView> {
    return this.bookings.findOne(tenant, id);
  }
}
