import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { RequireScopes } from '@/common/auth/auth.decorators';
import { ApiProblems } from '@/common/errors/api-problems';
import { uuidPipe } from '@/common/errors/uuid.pipe';
import { Tenant, TenantContext } from '@/common/tenancy/tenant-context';
import { ReceiptPage, ReceiptView } from './dto/receipt.view';
import { SearchFilterDto } from './dto/search-receipts.dto';
import { ReceiptsService } from './receipts.service';
import type { RawSearchQuery } from './search/search-request';

@ApiTags('receipts')
@Controller('receipts')
export class ReceiptsController {
  constructor(private readonly receipts: ReceiptsService) {}

  @Post('search')
  @HttpCode(200)
  @RequireScopes('receipts:read')
  @ApiOperation({
    summary: 'Search receipts with filters, sorting and paging.',
    description:
      'The body is a JSON array of filters (AND-ed; empty or absent = all, at most 50). Sort fields: receivedDate, receiptNumber, amount, paymentMode, payerType, status, transactionRef, created, id; default receivedDate,desc then receiptNumber,desc, with an id tie-breaker always appended. A page past the end is 200 with empty content and the true totals.',
  })
  @ApiQuery({ name: 'page', required: false, description: '0-based page number.', example: 0 })
  @ApiQuery({ name: 'size', required: false, description: 'Page size, 1..500.', example: 20 })
  @ApiQuery({
    name: 'sort',
    required: false,
    isArray: true,
    description: 'Repeatable: field,asc|desc.',
    example: ['receivedDate,desc', 'amount,asc'],
  })
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
      buyer: { summary: 'Keyword across numbers and buyer name', value: [{ field: 'keyword', query: 'iyer', type: 'CONTAINS' }] },
    },
  })
  @ApiOkResponse({ type: ReceiptPage })
  @ApiProblems(400, 401, 403)
  search(@Tenant() tenant: TenantContext, @Query() query: RawSearchQuery, @Body() body: unknown) {
    return this.receipts.search(tenant, query, body);
  }

  @Get(':id')
  @RequireScopes('receipts:read')
  @ApiOperation({ summary: 'One receipt, in the shape search returns.' })
  @ApiOkResponse({ type: ReceiptView })
  @ApiProblems(400, 401, 403, 404)
  findOne(@Tenant() tenant: TenantContext, @Param('id', uuidPipe('id')) id: string) {
    return this.receipts.findOne(tenant, id);
  }
}
