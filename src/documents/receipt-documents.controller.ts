import { Controller, Get, Headers, Param, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { RequireScopes } from '@/http/auth/auth.decorators';
import { ApiProblems } from '@/http/errors/api-problems';
import { uuidPipe } from '@/http/errors/uuid.pipe';
import { ApiIdParam } from '@/http/swagger';
import { TenantContext } from '@/common/tenant-context';
import { Tenant } from '@/http/tenancy/tenant.decorator';
import { DocumentQuery, ReceiptDocumentsService } from './receipt-documents.service';

@ApiTags('receipts')
@Controller('receipts')
export class ReceiptDocumentsController {
  constructor(private readonly documents: ReceiptDocumentsService) {}

  @Get(':id/document')
  @RequireScopes('receipts:read')
  @ApiOperation({
    summary: 'The printed receipt, as an A4 PDF.',
    description:
      "What a buyer is handed: the tenant's name, RECEIPT, the number, received date, who paid, unit, demand number and type, payment mode and reference, the amount in figures (with the currency symbol) and in words in the tenant's locale (en-IN: the Indian system, 'Rupees One Lakh Fifty Thousand and Fifty Paise Only'; other locales: 'One Hundred Fifty Thousand and 50/100'). A CANCELLED or BOUNCED receipt carries that word prominently with the reason. Real text (extractable), DejaVu Sans embedded. ETag with If-None-Match (304), Cache-Control: private, no-cache. Errors: 404 RECEIPT_NOT_FOUND (also for another tenant's receipt), 400 for a bad download value.",
  })
  @ApiIdParam('Receipt id.')
  @ApiQuery({
    name: 'download',
    required: false,
    description: '1 or true: Content-Disposition attachment (save), else inline (view).',
    schema: { type: 'string', enum: ['1', '0', 'true', 'false'], example: '1' },
  })
  @ApiProduces('application/pdf')
  @ApiResponse({
    status: 200,
    description: 'The PDF.',
    headers: {
      ETag: {
        description: 'Strong; changes whenever anything printed changes.',
        schema: { type: 'string', example: '"kJ3v0cQm1vQyT8m2x7Hq9w4pLr6sZb1N"' },
      },
      'Cache-Control': {
        description:
          'private, no-cache: a browser may keep the file but revalidates it (If-None-Match), since the status can change.',
        schema: { type: 'string', example: 'private, no-cache' },
      },
      'Content-Disposition': {
        description: 'inline; filename="receipt-RCT-26-27-00042.pdf" (attachment with download=1)',
        schema: { type: 'string' },
      },
    },
    content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
  })
  @ApiResponse({ status: 304, description: 'Not modified (If-None-Match matched the ETag).' })
  @ApiProblems({
    status: 404,
    code: 'RECEIPT_NOT_FOUND',
    detail: 'Receipt e7d6c5b4-a3f2-4e1d-9c0b-8a7f6e5d4c3b was not found.',
  })
  document(
    @Tenant() tenant: TenantContext,
    @Param('id', uuidPipe('id')) id: string,
    @Query() query: DocumentQuery,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ) {
    return this.documents.receiptPdf(tenant, id, query, ifNoneMatch, res);
  }
}
