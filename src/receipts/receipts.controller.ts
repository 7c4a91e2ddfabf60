import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import { RequireScopes } from '@/http/auth/auth.decorators';
import { ApiProblems } from '@/http/errors/api-problems';
import { ApiSearchQuery } from '@/search/search-swagger';
import { ApiIdParam } from '@/http/swagger';
import { uuidPipe } from '@/http/errors/uuid.pipe';
import { Idempotent } from '@/http/idempotency/idempotency.interceptor';
import { TenantContext } from '@/common/tenant-context';
import { Tenant } from '@/http/tenancy/tenant.decorator';
import { BouncedReceiptView, ReceiptPage, ReceiptView } from './dto/receipt.view';
import { ReceiptSummaryView } from './dto/receipt-summary.view';
import { SUMMARY_GROUPS } from './summary/receipt-summary';
import {
  BounceReceiptRequest,
  CancelReceiptRequest,
  RecordReceiptRequest,
} from './dto/receipt-writes.dto';
import { SearchFilterDto } from './dto/search-receipts.dto';
import { ReceiptWritesService } from './receipt-writes.service';
import { ReceiptsService } from './receipts.service';
import { RECEIPT_SEARCH } from './search/search-fields';
import { type RawSearchQuery } from '@/search/search-request';
import { ReplicaRead } from '@/platform/replicas/read-replicas';

@ApiTags('receipts')
@Controller('receipts')
export class ReceiptsController {
  constructor(
    private readonly receipts: ReceiptsService,
    private readonly writes: ReceiptWritesService,
  ) {}

  @Post()
  @HttpCode(201)
  @RequireScopes('receipts:write')
  @Idempotent()
  @ApiOperation({
    summary: 'Record a receipt against a demand split.',
    description:
      "Issues the next receipt number (gap-free: a failed request consumes none) dated by receivedDate, and in the same transaction adds the amount to the split's paidAmount and the demand's receivedAmount and moves their status PENDING -> PARTIALLY_PAID -> PAID. payerType, demand and booking come from the split. Errors: 404 DEMAND_SPLIT_NOT_FOUND (also for another tenant's split), 409 DEMAND_SPLIT_CANCELLED, 422 RECEIPT_EXCEEDS_PENDING (the amount is above what the split still owes; concurrent receipts never overpay a split). Returns the receipt in exactly the shape search returns.",
  })
  @ApiBody({
    type: RecordReceiptRequest,
    examples: {
      neft: {
        summary: 'NEFT transfer',
        value: {
          demandSplit: '3f1c2a9e-8b7d-4e6f-9a1b-2c3d4e5f6a7b',
          amount: 50000,
          paymentMode: 'NEFT',
          transactionRef: 'UTR20261122001234',
          receivedDate: '2026-11-22',
        },
      },
      cash: {
        summary: 'Cash, no reference',
        value: {
          demandSplit: '3f1c2a9e-8b7d-4e6f-9a1b-2c3d4e5f6a7b',
          amount: 1500.5,
          paymentMode: 'CASH',
          transactionRef: '',
          receivedDate: '2026-11-22',
        },
      },
    },
  })
  @ApiCreatedResponse({
    type: ReceiptView,
    description: 'The receipt, status ACTIVE, with its split and demand as updated.',
  })
  @ApiProblems(
    {
      status: 404,
      code: 'DEMAND_SPLIT_NOT_FOUND',
      detail: 'No demand split 3f2e1d0c-9b8a-4f7e-8d6c-5b4a3f2e1d0c.',
    },
    {
      status: 409,
      code: 'DEMAND_SPLIT_CANCELLED',
      detail: 'The demand split is cancelled; it takes no receipts.',
    },
    {
      status: 422,
      code: 'RECEIPT_EXCEEDS_PENDING',
      detail: 'The amount 200000.00 is more than the pending amount 150000.50 of the split.',
    },
  )
  record(
    @Tenant() tenant: TenantContext,
    @Body() body: RecordReceiptRequest,
  ): Promise<ReceiptView> {
    return this.writes.record(tenant, body);
  }

  @Post('search')
  @ReplicaRead()
  @HttpCode(200)
  @RequireScopes('receipts:read')
  @ApiOperation({
    summary: 'Search receipts with filters, sorting and paging.',
    description:
      'The body is a JSON array of filters (AND-ed; empty or absent = all, at most 50). Sort fields: receivedDate, receiptNumber, amount, paymentMode, payerType, status, transactionRef, created, id; default receivedDate,desc then receiptNumber,desc, with an id tie-breaker always appended. A page past the end is 200 with empty content and the true totals.',
  })
  @ApiSearchQuery(RECEIPT_SEARCH)
  @ApiBody({
    type: [SearchFilterDto],
    required: false,
    examples: {
      none: { summary: 'No filter', value: [] },
      neftThisYear: {
        summary: 'NEFT or RTGS receipts received in FY 2026-27',
        value: [
          { field: 'paymentMode', query: 'NEFT,RTGS', type: 'IN' },
          { field: 'receivedDate', query: '2026-04-01,2027-03-31', type: 'BETWEEN' },
        ],
      },
      buyer: {
        summary: 'Keyword across numbers and buyer name',
        value: [{ field: 'keyword', query: 'iyer', type: 'CONTAINS' }],
      },
    },
  })
  @ApiOkResponse({ type: ReceiptPage })
  search(@Tenant() tenant: TenantContext, @Query() query: RawSearchQuery, @Body() body: unknown) {
    return this.receipts.search(tenant, query, body);
  }

  @Post('summary')
  @ReplicaRead()
  @HttpCode(200)
  @RequireScopes('receipts:read')
  @ApiOperation({
    summary: 'Totals (count and exact sum) of the receipts a search with these filters finds.',
    description:
      "The body is exactly the search body (POST /receipts/search: same fields, operators and 400s); there is no paging. count equals search's totalElements for the same filters. Cancelled and bounced receipts count only if the filters let them through: filter status EQUALS ACTIVE for money in hand. With groupBy, one group per distinct value among the matches, ordered by key ascending (byte order); the groups add up to the totals. Errors: 400 VALIDATION_FAILED naming groupBy (listing the allowed values) or the offending filter.",
  })
  @ApiQuery({
    name: 'groupBy',
    required: false,
    description: 'Group the totals by this field (receivedMonth keys are YYYY-MM).',
    schema: { type: 'string', enum: [...SUMMARY_GROUPS], example: 'paymentMode' },
  })
  @ApiBody({
    type: [SearchFilterDto],
    required: false,
    examples: {
      none: { summary: 'Everything', value: [] },
      collectedThisMonth: {
        summary: 'Money in hand received in November 2026',
        value: [
          { field: 'status', query: 'ACTIVE', type: 'EQUALS' },
          { field: 'receivedDate', query: '2026-11-01,2026-11-30', type: 'BETWEEN' },
        ],
      },
    },
  })
  @ApiOkResponse({ type: ReceiptSummaryView })
  @ApiProblems({
    status: 400,
    code: 'VALIDATION_FAILED',
    detail:
      'groupBy must be one of paymentMode, status, payerType, demandType, receivedMonth, receivedDate.',
  })
  summary(
    @Tenant() tenant: TenantContext,
    @Query('groupBy') groupBy: unknown,
    @Body() body: unknown,
  ) {
    return this.receipts.summary(tenant, groupBy, body);
  }

  @Get(':id')
  @RequireScopes('receipts:read')
  @ApiOperation({
    summary: 'One receipt, in the shape search returns.',
    description: "A receipt of the caller's tenant by id; another tenant's receipt is 404.",
  })
  @ApiIdParam('Receipt id.')
  @ApiOkResponse({ type: ReceiptView })
  @ApiProblems({
    status: 404,
    code: 'RECEIPT_NOT_FOUND',
    detail: 'No receipt e7d6c5b4-a3f2-4e1d-9c0b-8a7f6e5d4c3b.',
  })
  findOne(@Tenant() tenant: TenantContext, @Param('id', uuidPipe('id')) id: string) {
    return this.receipts.findOne(tenant, id);
  }

  @Post(':id/cancel')
  @HttpCode(200)
  @RequireScopes('receipts:write')
  @Idempotent()
  @ApiOperation({
    summary: 'Cancel a receipt.',
    description:
      "The receipt keeps its number and stays searchable with status CANCELLED; statusReason, statusChangedOn (today in the tenant's zone) and statusChangedBy record the cancel. Its amount is taken off the split's paidAmount and the demand's receivedAmount and their statuses move back. Errors: 404 RECEIPT_NOT_FOUND (also for another tenant's receipt), 409 RECEIPT_NOT_ACTIVE (already cancelled, or bounced).",
  })
  @ApiIdParam('Receipt id.')
  @ApiBody({
    type: CancelReceiptRequest,
    examples: { bounced: { summary: 'Bounced cheque', value: { reason: 'Cheque bounced' } } },
  })
  @ApiOkResponse({ type: ReceiptView, description: 'The receipt, now CANCELLED.' })
  @ApiProblems(
    {
      status: 404,
      code: 'RECEIPT_NOT_FOUND',
      detail: 'No receipt e7d6c5b4-a3f2-4e1d-9c0b-8a7f6e5d4c3b.',
    },
    {
      status: 409,
      code: 'RECEIPT_NOT_ACTIVE',
      detail:
        'Receipt e7d6c5b4-a3f2-4e1d-9c0b-8a7f6e5d4c3b is CANCELLED; only an ACTIVE receipt can be cancelled or bounce.',
    },
    {
      status: 422,
      code: 'IDEMPOTENCY_KEY_REUSED',
      detail: 'This Idempotency-Key was used with a different request body.',
    },
  )
  cancel(
    @Tenant() tenant: TenantContext,
    @Param('id', uuidPipe('id')) id: string,
    @Body() body: CancelReceiptRequest,
  ): Promise<ReceiptView> {
    return this.writes.cancel(tenant, id, body);
  }

  @Post(':id/bounce')
  @HttpCode(200)
  @RequireScopes('receipts:write')
  @Idempotent()
  @ApiOperation({
    summary: 'Record that a cheque or demand draft bounced.',
    description:
      "The receipt becomes BOUNCED, keeps its number and stays searchable; statusReason, statusChangedOn (= bouncedOn) and statusChangedBy record it. Its amount leaves the split and the demand exactly as on cancel. With charges, a MANUAL demand for them is raised in the same transaction on the same booking (one split to the same payer, due bouncedOn, numbered like any demand) and returned as chargesDemand. Errors: 404 RECEIPT_NOT_FOUND (also for another tenant's receipt), 409 RECEIPT_NOT_BOUNCEABLE (not paid by CHEQUE or DEMAND_DRAFT), 409 RECEIPT_NOT_ACTIVE (cancelled or already bounced), 422 BOUNCE_BEFORE_RECEIPT (bouncedOn before receivedDate). A failed bounce changes nothing.",
  })
  @ApiIdParam('Receipt id.')
  @ApiBody({
    type: BounceReceiptRequest,
    examples: {
      withCharges: {
        summary: 'Bounced, with charges',
        value: { reason: 'Insufficient funds', bouncedOn: '2026-11-25', charges: 500 },
      },
      noCharges: {
        summary: 'Bounced, no charges',
        value: { reason: 'Signature mismatch', bouncedOn: '2026-11-25' },
      },
    },
  })
  @ApiOkResponse({ type: BouncedReceiptView, description: 'The receipt, now BOUNCED.' })
  @ApiProblems(
    {
      status: 404,
      code: 'RECEIPT_NOT_FOUND',
      detail: 'No receipt e7d6c5b4-a3f2-4e1d-9c0b-8a7f6e5d4c3b.',
    },
    {
      status: 409,
      code: 'RECEIPT_NOT_BOUNCEABLE',
      detail:
        'Receipt e7d6c5b4-a3f2-4e1d-9c0b-8a7f6e5d4c3b was paid by NEFT; only CHEQUE and DEMAND_DRAFT receipts can bounce.',
    },
    {
      status: 422,
      code: 'BOUNCE_BEFORE_RECEIPT',
      detail:
        'Receipt e7d6c5b4-a3f2-4e1d-9c0b-8a7f6e5d4c3b was received on 2026-11-22; it cannot bounce on 2026-11-20.',
    },
  )
  bounce(
    @Tenant() tenant: TenantContext,
    @Param('id', uuidPipe('id')) id: string,
    @Body() body: BounceReceiptRequest,
  ): Promise<BouncedReceiptView> {
    return this.writes.bounce(tenant, id, body);
  }
}
