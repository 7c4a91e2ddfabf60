import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiExtraModels,
  ApiOkResponse,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import { TenantContext } from '@/common/tenant-context';
import { BOOKING_NOT_FOUND } from '@/bookings/bookings.errors';
import { uuidPipe } from '@/http/errors/uuid.pipe';
import { VALIDATION_FAILED } from '@/http/errors/validation';
import { Route } from '@/http/route.decorator';
import { ApiIdParam } from '@/http/swagger';
import { Tenant } from '@/http/tenancy/tenant.decorator';
import { BookingCancellationsService } from './booking-cancellations.service';
import {
  AGREEMENT_VALUE_REQUIRED,
  ALREADY_CANCELLED,
  CANCELLATION_NOT_FOUND,
  REFUND_ALREADY_PAID,
  REFUND_MODE_NOT_ALLOWED,
} from './cancellations.errors';
import {
  BOOKING_CANCELLATION_EXAMPLES,
  BookingCancellationRequest,
  INITIATED_BY,
  RefundRequest,
} from './dto/booking-cancellation.request';
import {
  CancellationQuoteView,
  CancellationView,
  CreditNoteFiguresView,
  InvoiceRefView,
  RefundQueuePage,
} from './dto/cancellation.view';

const BOOKING_ALREADY_CANCELLED = {
  ...ALREADY_CANCELLED,
  example: ['Booking', '5b4a3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d'],
};

const FIGURES =
  'Per demand not already cancelled, from its ACTIVE receipts: paid, paidTax = round(paid x tax / grossAmount), paidConsideration. The deduction = min(cap, paid consideration of CONSTRUCTION demands), 0 for PROMOTER_DEFAULT, kept from CONSTRUCTION demands oldest first; INTEREST demands are kept for BUYER and refunded for PROMOTER_DEFAULT; OTHER_CHARGES are refunded. keptTax = the GST of what is retained; each credit = invoiced less kept; an invoice past its section 34 window is timeBarred (no credit: its paid tax less keptTax is taxToClaim). refundDueDate = requestedOn + refundDays; byPayer shares the refund in proportion to what each payer paid (docs/cancellation.md).';

@ApiTags('cancellations')
@ApiExtraModels(InvoiceRefView, CreditNoteFiguresView)
@Controller()
export class BookingCancellationsController {
  constructor(private readonly cancellations: BookingCancellationsService) {}

  @Get('bookings/:id/cancellation-quote')
  @Route({
    summary: 'What cancelling the booking would keep, credit and refund (changes nothing).',
    description: `The figures of a cancellation made today: every ACTIVE receipt counts and section 34 windows are judged on today. requestedOn (default today; not after today nor before the bookingDate) dates the days since allotment and the refund's due date. ${FIGURES} A BUYER cancellation of a booking without agreementValue is 422 AGREEMENT_VALUE_REQUIRED; a cancelled booking is 409.`,
    scopes: ['receipts:read'],
    problems: [
      VALIDATION_FAILED,
      BOOKING_NOT_FOUND,
      BOOKING_ALREADY_CANCELLED,
      AGREEMENT_VALUE_REQUIRED,
    ],
  })
  @ApiIdParam('Booking id.')
  @ApiQuery({
    name: 'requestedOn',
    required: false,
    description: 'When the cancellation is asked for (default today).',
    schema: { type: 'string', format: 'date', example: '2026-06-20' },
  })
  @ApiQuery({
    name: 'initiatedBy',
    required: false,
    description: 'BUYER (default) or PROMOTER_DEFAULT.',
    schema: { type: 'string', enum: [...INITIATED_BY], default: 'BUYER', example: 'BUYER' },
  })
  @ApiOkResponse({ type: CancellationQuoteView })
  quote(
    @Tenant() tenant: TenantContext,
    @Param('id', uuidPipe('id')) id: string,
    @Query() query: { requestedOn?: string; initiatedBy?: string },
  ): Promise<CancellationQuoteView> {
    return this.cancellations.quote(tenant, id, query);
  }

  @Post('bookings/:id/cancellations')
  @HttpCode(201)
  @Route({
    summary: 'Cancel a booking that has been paid for: forfeiture, credit notes, refund due.',
    description: `In one transaction: the quote's figures are frozen (cancelledOn today), the booking, its demands and splits become CANCELLED (receipts stay ACTIVE: they were paid), credit notes are issued (one per financial year of the invoices, crediting the invoiced tax less the tax of what is kept), and the refund falls due on refundDueDate. ${FIGURES} A refund of 0 (nothing paid, or everything kept) is PAID on cancelledOn with no interest and no voucher. Afterwards the booking's receipts cannot be cancelled or bounced (409 BOOKING_CANCELLED); from cancelledOn it owes nothing and accrues no interest. Two cancellations of one booking at once create one (the other is 409 ALREADY_CANCELLED). Events: booking.cancelled (with the cancellation), demand.cancelled per demand, credit-note.issued per note.`,
    scopes: ['receipts:write'],
    problems: [BOOKING_NOT_FOUND, BOOKING_ALREADY_CANCELLED, AGREEMENT_VALUE_REQUIRED],
    idempotent: true,
  })
  @ApiIdParam('Booking id.')
  @ApiBody({ type: BookingCancellationRequest, examples: BOOKING_CANCELLATION_EXAMPLES })
  @ApiCreatedResponse({ type: CancellationView, description: 'The cancellation.' })
  cancel(
    @Tenant() tenant: TenantContext,
    @Param('id', uuidPipe('id')) id: string,
    @Body() body: BookingCancellationRequest,
  ): Promise<CancellationView> {
    return this.cancellations.cancel(tenant, id, body);
  }

  @Get('bookings/:id/cancellation')
  @Route({
    summary: "The booking's cancellation.",
    description:
      "404 CANCELLATION_NOT_FOUND when it has none (not cancelled, or cancelled unpaid by POST /bookings/{id}/cancel). Another tenant's booking has none.",
    scopes: ['receipts:read'],
    problems: [CANCELLATION_NOT_FOUND],
    replicaRead: true,
  })
  @ApiIdParam('Booking id.')
  @ApiOkResponse({ type: CancellationView })
  ofBooking(
    @Tenant() tenant: TenantContext,
    @Param('id', uuidPipe('id')) id: string,
  ): Promise<CancellationView> {
    return this.cancellations.ofBooking(tenant, id);
  }

  @Get('cancellations/:id')
  @Route({
    summary: 'One cancellation, with its credit notes and its refund.',
    description: "Another tenant's cancellation is 404 CANCELLATION_NOT_FOUND.",
    scopes: ['receipts:read'],
    problems: [CANCELLATION_NOT_FOUND],
    replicaRead: true,
  })
  @ApiIdParam('Cancellation id.')
  @ApiOkResponse({ type: CancellationView })
  findOne(
    @Tenant() tenant: TenantContext,
    @Param('id', uuidPipe('id')) id: string,
  ): Promise<CancellationView> {
    return this.cancellations.findOne(tenant, id);
  }

  @Post('cancellations/:id/refund')
  @HttpCode(200)
  @Route({
    summary: 'Pay the refund of a cancellation, with its interest.',
    description:
      "Pays the whole refund at once, numbered from the refund series (RFD). interest: for BUYER, on the refund for each day after dueDate through paidOn (0 when paid by the due date); for PROMOTER_DEFAULT (RERA section 18), on every ACTIVE receipt's whole amount from the day after it was received through paidOn; the interest policy's dated rates per day with no grace days (a disabled policy: none), the exact sum rounded once. paidAmount = amount + interest. paidOn not after today nor before cancelledOn, else 400. CASH or OTHER for a paidAmount of 20,000.00 or more is 422 REFUND_MODE_NOT_ALLOWED (income-tax section 269T). A refund already PAID is 409 REFUND_ALREADY_PAID. The booking's ACTIVE receipts carry refundedOn = paidOn. Event: refund.paid.",
    scopes: ['receipts:write'],
    problems: [CANCELLATION_NOT_FOUND, REFUND_ALREADY_PAID, REFUND_MODE_NOT_ALLOWED],
    idempotent: true,
  })
  @ApiIdParam('Cancellation id.')
  @ApiBody({
    type: RefundRequest,
    examples: {
      neft: {
        summary: 'By NEFT',
        value: { paidOn: '2026-08-14', paymentMode: 'NEFT', transactionRef: 'UTR20260814000321' },
      },
    },
  })
  @ApiOkResponse({ type: CancellationView, description: 'The cancellation, its refund PAID.' })
  payRefund(
    @Tenant() tenant: TenantContext,
    @Param('id', uuidPipe('id')) id: string,
    @Body() body: RefundRequest,
  ): Promise<CancellationView> {
    return this.cancellations.payRefund(tenant, id, body);
  }

  @Get('refunds')
  @Route({
    summary: 'The refunds queue, oldest due first.',
    description:
      'status DUE (default: every unpaid refund), OVERDUE (due before today, unpaid) or PAID; page (default 0) and size (1..500, default 20). interestToday: for an unpaid refund, the interest owed if paid today; for a paid one, what was paid. daysOverdue: days past the due date (today, or the day paid), 0 when not late.',
    scopes: ['receipts:read'],
    problems: [VALIDATION_FAILED],
    replicaRead: true,
  })
  @ApiQuery({
    name: 'status',
    required: false,
    schema: {
      type: 'string',
      enum: ['DUE', 'OVERDUE', 'PAID'],
      default: 'DUE',
      example: 'OVERDUE',
    },
  })
  @ApiQuery({
    name: 'page',
    required: false,
    schema: { type: 'integer', minimum: 0, default: 0, example: 0 },
  })
  @ApiQuery({
    name: 'size',
    required: false,
    schema: { type: 'integer', minimum: 1, maximum: 500, default: 20, example: 20 },
  })
  @ApiOkResponse({ type: RefundQueuePage })
  queue(
    @Tenant() tenant: TenantContext,
    @Query() query: { status?: string; page?: string; size?: string },
  ): Promise<RefundQueuePage> {
    return this.cancellations.queue(tenant, query);
  }
}
