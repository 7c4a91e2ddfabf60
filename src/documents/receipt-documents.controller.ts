import { Controller, Get, Headers, Param, Query, Res } from '@nestjs/common';
import { ApiProduces, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { uuidPipe } from '@/http/errors/uuid.pipe';
import { Route } from '@/http/route.decorator';
import { ApiIdParam } from '@/http/swagger';
import { TenantContext } from '@/common/tenant-context';
import { Tenant } from '@/http/tenancy/tenant.decorator';
import { RECEIPT_NOT_FOUND } from '@/receipts/receipts.errors';
import { VALIDATION_FAILED } from '@/http/errors/validation';
import { DocumentQuery, ReceiptDocumentsService } from './receipt-documents.service';

@ApiTags('receipts')
@Controller('receipts')
export class ReceiptDocumentsController {
  constructor(private readonly documents: ReceiptDocumentsService) {}

  @Get(':id/document')
  @Route({
    summary: 'The printed receipt, as an A4 PDF.',
    description:
      "What a buyer is handed: the tenant's name, RECEIPT, the number, received date, who paid, " +
      'unit, demand number and type, payment mode and reference, the amount in figures (with ' +
      "the currency symbol) and in words in the tenant's locale (en-IN: the Indian system, " +
      "'Rupees One Lakh Fifty Thousand and Fifty Paise Only'; other locales: 'One Hundred Fifty " +
      "Thousand and 50/100'). A CANCELLED or BOUNCED receipt carries that word prominently with " +
      'the reason. Real text (extractable), DejaVu Sans embedded. ETag with If-None-Match ' +
      "(304), Cache-Control: private, no-cache. Another tenant's receipt is 404.",
    scopes: ['receipts:read'],
    problems: [VALIDATION_FAILED, RECEIPT_NOT_FOUND],
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
