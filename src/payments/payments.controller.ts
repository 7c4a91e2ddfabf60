import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiExtraModels, ApiTags } from '@nestjs/swagger';
import { ApiIdParam } from '@/http/swagger';
import { uuidPipe } from '@/http/errors/uuid.pipe';
import { Route } from '@/http/route.decorator';
import { TenantContext } from '@/common/tenant-context';
import { Tenant } from '@/http/tenancy/tenant.decorator';
import { NUMBERING_EXHAUSTED } from '@/numbering/numbering.errors';
import { BOOKING_NOT_FOUND } from '@/bookings/bookings.errors';
import { BOOKING_CANCELLED } from '@/demands/demands.errors';
import { PaymentView } from './dto/payment.view';
import {
  MAX_ALLOCATION_ENTRIES,
  PaymentAllocationEntry,
  RECORD_PAYMENT_EXAMPLES,
  RecordPaymentRequest,
} from './dto/record-payment.request';
import {
  ALLOCATION_INVALID,
  ALLOCATION_MISMATCH,
  PAYMENT_EXCEEDS_OUTSTANDING,
} from './payments.errors';
import { PaymentsService } from './payments.service';
import { RECEIPT_BEFORE_INVOICE } from '@/receipts/receipts.errors';

@ApiTags('bookings')
@ApiExtraModels(PaymentAllocationEntry)
@Controller('bookings')
export class PaymentsController {
  constructor(private readonly payments: PaymentsService) {}

  @Post(':id/payments')
  @HttpCode(201)
  @Route({
    summary: 'Record one payment over many dues of a booking.',
    description:
      'A buyer pays one cheque or transfer for several instalments: records, in one ' +
      'transaction, one normal receipt (numbered, updating its split and demand) per split ' +
      "paid, either over the payer's open splits on the booking oldest due date first (then " +
      'demand number; interest demands included) or exactly as listed (at most ' +
      `${MAX_ALLOCATION_ENTRIES} entries, else 400). All receipts share the transactionRef. ` +
      'Refused, with nothing recorded: 422 PAYMENT_EXCEEDS_OUTSTANDING (more than the payer ' +
      "owes on the booking, or a listed amount above its split's pending amount), 422 " +
      'ALLOCATION_MISMATCH (listed amounts do not add up to amount), 422 ALLOCATION_INVALID (a ' +
      'listed split unknown, of another payer or booking, or cancelled), 422 ' +
      'RECEIPT_BEFORE_INVOICE (a listed split of a taxed demand dated after receivedDate; ' +
      'OLDEST_DUE_FIRST skips such splits), 409 BOOKING_CANCELLED, ' +
      "404 BOOKING_NOT_FOUND (also another tenant's booking). Concurrent payments never overpay " +
      'a split.',
    scopes: ['receipts:write'],
    problems: [
      BOOKING_NOT_FOUND,
      BOOKING_CANCELLED,
      PAYMENT_EXCEEDS_OUTSTANDING,
      ALLOCATION_MISMATCH,
      ALLOCATION_INVALID,
      RECEIPT_BEFORE_INVOICE,
      NUMBERING_EXHAUSTED,
    ],
    idempotent: true,
  })
  @ApiIdParam('Booking id.')
  @ApiBody({ type: RecordPaymentRequest, examples: RECORD_PAYMENT_EXAMPLES })
  @ApiCreatedResponse({
    type: PaymentView,
    description: 'The payment and its receipts, each ACTIVE, with its split and demand as updated.',
  })
  record(
    @Tenant() tenant: TenantContext,
    @Param('id', uuidPipe('id')) id: string,
    @Body() body: RecordPaymentRequest,
  ): Promise<PaymentView> {
    return this.payments.record(tenant, id, body);
  }
}
