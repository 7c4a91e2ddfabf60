import { BOOKING_UPDATE_CANCELLED } from '@/bookings/bookings.errors';
import { VALIDATION_FAILED } from '@/http/errors/validation';
import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiQuery, ApiTags } from '@nestjs/swagger';
import { ApiSearchQuery } from '@/search/search-swagger';
import { ApiIdParam } from '@/http/swagger';
import { uuidPipe } from '@/http/errors/uuid.pipe';
import { Route } from '@/http/route.decorator';
import { TenantContext } from '@/common/tenant-context';
import { Tenant } from '@/http/tenancy/tenant.decorator';
import { NUMBERING_EXHAUSTED } from '@/numbering/numbering.errors';
import { BouncedReceiptView, ReceiptPage, ReceiptView } from './dto/receipt.view';
import { ReceiptSummaryView } from './dto/receipt-summary.view';
import {
  BOUNCE_RECEIPT_EXAMPLES,
  BounceReceiptRequest,
  CANCEL_RECEIPT_EXAMPLES,
  CancelReceiptRequest,
  RECORD_RECEIPT_EXAMPLES,
  RecordReceiptRequest,
} from './dto/receipt-writes.request';
import {
  SEARCH_RECEIPTS_EXAMPLES,
  SearchFilterDto,
  SUMMARY_RECEIPTS_EXAMPLES,
} from './dto/search-receipts.request';
import {
  BOUNCE_BEFORE_RECEIPT,
  DEMAND_CANCELLED,
  DEMAND_SPLIT_CANCELLED,
  DEMAND_SPLIT_NOT_FOUND,
  RECEIPT_AMOUNT_NOT_POSITIVE,
  RECEIPT_BEFORE_INVOICE,
  RECEIPT_EXCEEDS_PENDING,
  RECEIPT_NOT_ACTIVE,
  RECEIPT_NOT_BOUNCEABLE,
  RECEIPT_NOT_FOUND,
  RECEIPT_REALISED,
  RETURN_LINE_NOT_FOUND,
  RETURN_LINE_NOT_MATCHABLE,
} from './receipts.errors';
import { ReceiptWritesService } from './receipt-writes.service';
import { ReceiptsService } from './receipts.service';
import { RECEIPT_SEARCH } from './search/search-fields';
import { type RawSearchQuery } from '@/search/search-request';
import { SUMMARY_GROUPS } from './summary/receipt-summary';

@ApiTags('receipts')
@Controller('receipts')
export class ReceiptsController {
  constructor(
    private readonly receipts: ReceiptsService,
    private readonly writes: ReceiptWritesService,
  ) {}

  @Post()
  @HttpCode(201)
  @Route({
    summary: 'Record a receipt against a demand split.',
    description:
      'Issues the next receipt number (gap-free: a failed request consumes none) dated by ' +
      "receivedDate, and in the same transaction adds the amount to the split's paidAmount and " +
      "the demand's receivedAmount and moves their status PENDING -> PARTIALLY_PAID -> PAID. " +
      "payerType, demand and booking come from the split; another tenant's split is 404. The " +
      'amount may not exceed what the split still owes (concurrent receipts never overpay a ' +
      'split). Returns the receipt in exactly the shape search returns.',
    scopes: ['receipts:write'],
    problems: [
      DEMAND_SPLIT_NOT_FOUND,
      DEMAND_CANCELLED,
      DEMAND_SPLIT_CANCELLED,
      NUMBERING_EXHAUSTED,
      RECEIPT_AMOUNT_NOT_POSITIVE,
      RECEIPT_BEFORE_INVOICE,
      RECEIPT_EXCEEDS_PENDING,
    ],
    idempotent: true,
  })
  @ApiBody({ type: RecordReceiptRequest, examples: RECORD_RECEIPT_EXAMPLES })
  @ApiCreatedResponse({
    type: ReceiptView,
    description: 'The receipt, status ACTIVE, with its split and demand as updated.',
  })
  record(
    @Tenant() tenant: TenantContext,
    @Body() body: RecordReceiptRequest,
  ): Promise<ReceiptView> {
    return this.writes.record(tenant, body);
  }

  @Post('search')
  @HttpCode(200)
  @Route({
    summary: 'Search receipts with filters, sorting and paging.',
    description:
      'The body is a JSON array of filters (AND-ed; empty or absent = all, at most 50). Sort ' +
      'fields: receivedDate, receiptNumber, amount, paymentMode, payerType, status, ' +
      'transactionRef, created, id; default receivedDate,desc then receiptNumber,desc, with an ' +
      'id tie-breaker always appended. A page past the end is 200 with empty content and the ' +
      'true totals.',
    scopes: ['receipts:read'],
    replicaRead: true,
  })
  @ApiSearchQuery(RECEIPT_SEARCH)
  @ApiBody({ type: [SearchFilterDto], required: false, examples: SEARCH_RECEIPTS_EXAMPLES })
  @ApiOkResponse({ type: ReceiptPage })
  search(@Tenant() tenant: TenantContext, @Query() query: RawSearchQuery, @Body() body: unknown) {
    return this.receipts.search(tenant, query, body);
  }

  @Post('summary')
  @HttpCode(200)
  @Route({
    summary: 'Totals (count and exact sum) of the receipts a search with these filters finds.',
    description:
      'The body is exactly the search body (POST /receipts/search: same fields, operators and ' +
      "400s); there is no paging. count equals search's totalElements for the same filters. " +
      'Cancelled and bounced receipts count only if the filters let them through: filter ' +
      'status EQUALS ACTIVE for money in hand. With groupBy, one group per distinct value among ' +
      'the matches, ordered by key ascending (byte order); the groups add up to the totals. A ' +
      '400 names groupBy (listing the allowed values) or the offending filter.',
    scopes: ['receipts:read'],
    problems: [VALIDATION_FAILED],
    replicaRead: true,
  })
  @ApiQuery({
    name: 'groupBy',
    required: false,
    description: 'Group the totals by this field (receivedMonth keys are YYYY-MM).',
    schema: { type: 'string', enum: [...SUMMARY_GROUPS], example: 'paymentMode' },
  })
  @ApiBody({ type: [SearchFilterDto], required: false, examples: SUMMARY_RECEIPTS_EXAMPLES })
  @ApiOkResponse({ type: ReceiptSummaryView })
  summary(
    @Tenant() tenant: TenantContext,
    @Query('groupBy') groupBy: unknown,
    @Body() body: unknown,
  ) {
    return this.receipts.summary(tenant, groupBy, body);
  }

  @Get(':id')
  @Route({
    summary: 'One receipt, in the shape search returns.',
    description: "A receipt of the caller's tenant by id; another tenant's receipt is 404.",
    scopes: ['receipts:read'],
    problems: [RECEIPT_NOT_FOUND],
  })
  @ApiIdParam('Receipt id.')
  @ApiOkResponse({ type: ReceiptView })
  findOne(@Tenant() tenant: TenantContext, @Param('id', uuidPipe('id')) id: string) {
    return this.receipts.findOne(tenant, id);
  }

  @Post(':id/cancel')
  @HttpCode(200)
  @Route({
    summary: 'Cancel a receipt.',
    description:
      'The receipt keeps its number and stays searchable with status CANCELLED; statusReason, ' +
      "statusChangedOn (today in the tenant's zone) and statusChangedBy record the cancel. Its " +
      "amount is taken off the split's paidAmount and the demand's receivedAmount and their " +
      "statuses move back. Another tenant's receipt is 404; one already cancelled, or bounced, " +
      'is 409; one realised (matched to a bank statement line) is 409 RECEIPT_REALISED: unmatch ' +
      'the line first. A receipt of a cancelled booking (its refund counts it) is 409 ' +
      'BOOKING_CANCELLED.',
    scopes: ['receipts:write'],
    problems: [RECEIPT_NOT_FOUND, RECEIPT_NOT_ACTIVE, RECEIPT_REALISED, BOOKING_UPDATE_CANCELLED],
    idempotent: true,
  })
  @ApiIdParam('Receipt id.')
  @ApiBody({ type: CancelReceiptRequest, examples: CANCEL_RECEIPT_EXAMPLES })
  @ApiOkResponse({ type: ReceiptView, description: 'The receipt, now CANCELLED.' })
  cancel(
    @Tenant() tenant: TenantContext,
    @Param('id', uuidPipe('id')) id: string,
    @Body() body: CancelReceiptRequest,
  ): Promise<ReceiptView> {
    return this.writes.cancel(tenant, id, body);
  }

  @Post(':id/bounce')
  @HttpCode(200)
  @Route({
    summary: 'Record that a cheque or demand draft bounced.',
    description:
      'The receipt becomes BOUNCED, keeps its number and stays searchable; statusReason, ' +
      'statusChangedOn (= bouncedOn) and statusChangedBy record it. Its amount leaves the split ' +
      'and the demand exactly as on cancel. With charges, a MANUAL demand for them is raised in ' +
      'the same transaction on the same booking (one split to the same payer, due bouncedOn, ' +
      'numbered like any demand) and returned as chargesDemand. Only an ACTIVE receipt paid by ' +
      "CHEQUE or DEMAND_DRAFT can bounce, not before its receivedDate; another tenant's " +
      'receipt is 404. With bankLine (the debit statement line that returned it), that line ' +
      'becomes MATCHED to the receipt with rule RETURN. A receipt of a cancelled booking is 409 ' +
      'BOOKING_CANCELLED. A failed bounce changes nothing.',
    scopes: ['receipts:write'],
    problems: [
      BOOKING_UPDATE_CANCELLED,
      RECEIPT_NOT_FOUND,
      RECEIPT_NOT_BOUNCEABLE,
      RECEIPT_NOT_ACTIVE,
      NUMBERING_EXHAUSTED,
      BOUNCE_BEFORE_RECEIPT,
      RETURN_LINE_NOT_FOUND,
      RETURN_LINE_NOT_MATCHABLE,
    ],
    idempotent: true,
  })
  @ApiIdParam('Receipt id.')
  @ApiBody({ type: BounceReceiptRequest, examples: BOUNCE_RECEIPT_EXAMPLES })
  @ApiOkResponse({ type: BouncedReceiptView, description: 'The receipt, now BOUNCED.' })
  bounce(
    @Tenant() tenant: TenantContext,
    @Param('id', uuidPipe('id')) id: string,
    @Body() body: BounceReceiptRequest,
  ): Promise<BouncedReceiptView> {
    return this.writes.bounce(tenant, id, body);
  }
}
