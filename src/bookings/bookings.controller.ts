import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiExtraModels,
  ApiOkResponse,
  ApiTags,
} from '@nestjs/swagger';
import { ApiIdParam } from '@/http/swagger';
import { uuidPipe } from '@/http/errors/uuid.pipe';
import { MoneyView } from '@/common/money/money.view';
import { TenantContext } from '@/common/tenant-context';
import { Tenant } from '@/http/tenancy/tenant.decorator';
import { Route } from '@/http/route.decorator';
import { NUMBERING_EXHAUSTED } from '@/numbering/numbering.errors';
import { GSTIN_INVALID } from '@/gst/gst.errors';
import { BOOKING_NOT_FOUND, BOOKING_UPDATE_CANCELLED } from './bookings.errors';
import { BookingsService } from './bookings.service';
import { ApiSearchQuery } from '@/search/search-swagger';
import type { RawSearchQuery } from '@/search/search-request';
import { BOOKING_SEARCH } from './booking-search';
import { BookingPage } from './dto/booking-page.view';
import { BookingSearchFilterDto } from './dto/booking-search.request';
import { BookingView } from './dto/booking.view';
import { CreateBookingRequest } from './dto/create-booking.request';
import { UpdateBookingRequest } from './dto/update-booking.request';

@ApiTags('bookings')
@ApiExtraModels(MoneyView)
@Controller('bookings')
export class BookingsController {
  constructor(private readonly bookings: BookingsService) {}

  @Post()
  @HttpCode(201)
  @Route({
    summary: 'Create a booking of a unit.',
    description:
      "Issues the next number of the tenant's booking series, dated by bookingDate. Unknown fields are refused (400 VALIDATION_FAILED); so is an allotmentDate before bookingDate. A buyerGstin of the wrong form or check character is 400 GSTIN_INVALID. The view carries the derived gstClass. Writes a booking.created event.",
    scopes: ['receipts:write'],
    problems: [GSTIN_INVALID, NUMBERING_EXHAUSTED],
    idempotent: true,
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
  create(
    @Tenant() tenant: TenantContext,
    @Body() body: CreateBookingRequest,
  ): Promise<BookingView> {
    return this.bookings.create(tenant, body);
  }

  @Post('search')
  @HttpCode(200)
  @Route({
    summary: 'Search bookings with filters, sorting and paging.',
    description:
      'The request grammar, limits, page object and 400s of POST /receipts/search, over the booking catalogue. Default sort bookingDate,desc. totalElements is exact. keyword matches the booking number or the buyer name.',
    scopes: ['receipts:read'],
    replicaRead: true,
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
  @Route({
    summary: 'One booking.',
    description: "A booking of the caller's tenant by id; another tenant's booking is 404.",
    scopes: ['receipts:read'],
    problems: [BOOKING_NOT_FOUND],
  })
  @ApiIdParam('Booking id.')
  @ApiOkResponse({ type: BookingView })
  findOne(
    @Tenant() tenant: TenantContext,
    @Param('id', uuidPipe('id')) id: string,
  ): Promise<BookingView> {
    return this.bookings.findOne(tenant, id);
  }

  @Patch(':id')
  @Route({
    summary: "Change a booking's GST fields, agreement value or unit name.",
    description:
      "Changes only unitName, agreementValue, carpetAreaSqm, metroCity, gstExempt, buyerAddress, buyerGstin and allotmentDate: a field left out keeps its value, null clears it (metroCity and gstExempt to false, allotmentDate to bookingDate); any other field is 400 VALIDATION_FAILED (an unknown field), as is an allotmentDate before bookingDate. A buyerGstin of the wrong form or check character is 400 GSTIN_INVALID. A cancelled booking is 409 BOOKING_CANCELLED; another tenant's booking is 404. Changes affect documents issued afterwards only. Writes a booking.updated event (data: the booking) when anything changed.",
    scopes: ['receipts:write'],
    problems: [GSTIN_INVALID, BOOKING_NOT_FOUND, BOOKING_UPDATE_CANCELLED],
  })
  @ApiIdParam('Booking id.')
  @ApiBody({
    type: UpdateBookingRequest,
    examples: {
      affordable: {
        summary: 'The facts of its GST class',
        value: { carpetAreaSqm: 58.5, metroCity: true, agreementValue: 4250000 },
      },
      registeredBuyer: {
        summary: 'A buyer registered for GST',
        value: {
          buyerGstin: '27AAPFU0939F1ZV',
          buyerAddress: 'Flat 7, Sea Breeze, Carter Road, Bandra West, Mumbai 400050',
        },
      },
    },
  })
  @ApiOkResponse({ type: BookingView, description: 'The booking as changed.' })
  update(
    @Tenant() tenant: TenantContext,
    @Param('id', uuidPipe('id')) id: string,
    @Body() body: UpdateBookingRequest,
  ): Promise<BookingView> {
    return this.bookings.update(tenant, id, body);
  }
}
