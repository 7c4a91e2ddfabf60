import { Controller, Get, Headers, Param, Query, Res } from '@nestjs/common';
import {
  ApiExtraModels,
  ApiProduces,
  ApiQuery,
  ApiResponse,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { TenantContext } from '@/common/tenant-context';
import {
  CREDIT_NOTE_NOT_FOUND,
  DEMAND_NOT_FOUND,
  INVOICE_NOT_FOUND,
} from '@/demands/demands.errors';
import { pdfOrJson, PDF_OR_JSON_QUERY } from '@/http/accept-format';
import { uuidPipe } from '@/http/errors/uuid.pipe';
import { VALIDATION_FAILED } from '@/http/errors/validation';
import { Route } from '@/http/route.decorator';
import { ApiIdParam } from '@/http/swagger';
import { Tenant } from '@/http/tenancy/tenant.decorator';
import { CreditNoteView, InvoiceView } from './dto/gst-documents.view';
import { GstDocumentsService } from './gst-documents.service';

@ApiTags('gst')
@ApiExtraModels(InvoiceView, CreditNoteView)
@Controller()
export class GstDocumentsController {
  constructor(private readonly documents: GstDocumentsService) {}

  @Get('demands/:id/invoice')
  @Route({
    summary: 'The tax invoice of a taxed demand (PDF or JSON), as issued.',
    description:
      "Every taxed demand is a tax invoice (CGST Rules, rule 46), numbered from the tax-invoice series in the demand's transaction and dated its demandDate, frozen when issued: supplier, recipient (name, address, GSTIN), rates and amounts never change after a PATCH of the booking or a settings change. " +
      "PDF: A4 TAX INVOICE, ORIGINAL FOR RECIPIENT, every field as real text, the gross in words. An untaxed demand is 404 INVOICE_NOT_FOUND; a cancelled demand's invoice stays readable; another tenant's demand is 404.",
    scopes: ['receipts:read'],
    problems: [VALIDATION_FAILED, DEMAND_NOT_FOUND, INVOICE_NOT_FOUND],
    replicaRead: true,
  })
  @ApiIdParam('Demand id.')
  @ApiQuery(PDF_OR_JSON_QUERY)
  @ApiProduces('application/pdf', 'application/json')
  @ApiResponse({
    status: 200,
    description: 'The PDF (inline, invoice-<number>.pdf) or the invoice (format=json).',
    content: {
      'application/pdf': { schema: { type: 'string', format: 'binary' } },
      'application/json': { schema: { $ref: getSchemaPath(InvoiceView) } },
    },
  })
  invoice(
    @Tenant() tenant: TenantContext,
    @Param('id', uuidPipe('id')) id: string,
    @Query('format') format: unknown,
    @Headers('accept') accept: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ) {
    res.vary('Accept');
    return this.documents.invoice(tenant, id, pdfOrJson(format, accept));
  }

  @Get('credit-notes')
  @Route({
    summary: "The tenant's credit notes, oldest first.",
    description:
      'Credit notes issued when taxed demands are cancelled (a demand, or a booking): one per financial year of the credited invoices, within the section 34 window. Filter by booking and by date (inclusive); page (default 0) and size (1..500, default 20).',
    scopes: ['receipts:read'],
    problems: [VALIDATION_FAILED],
    replicaRead: true,
  })
  @ApiQuery({ name: 'booking', required: false, schema: { type: 'string', format: 'uuid' } })
  @ApiQuery({ name: 'from', required: false, schema: { type: 'string', format: 'date' } })
  @ApiQuery({ name: 'to', required: false, schema: { type: 'string', format: 'date' } })
  @ApiQuery({ name: 'page', required: false, schema: { type: 'integer', minimum: 0, default: 0 } })
  @ApiQuery({
    name: 'size',
    required: false,
    schema: { type: 'integer', minimum: 1, maximum: 500, default: 20 },
  })
  @ApiResponse({
    status: 200,
    description: 'A page of credit notes.',
    schema: {
      type: 'object',
      required: ['content', 'totalElements'],
      properties: {
        content: { type: 'array', items: { $ref: getSchemaPath(CreditNoteView) } },
        totalElements: { type: 'integer', example: 1 },
      },
    },
  })
  creditNotes(
    @Tenant() tenant: TenantContext,
    @Query() query: { booking?: string; from?: string; to?: string; page?: string; size?: string },
  ) {
    return this.documents.creditNotes(tenant, query);
  }

  @Get('credit-notes/:id')
  @Route({
    summary: 'One credit note (PDF or JSON), as issued.',
    description:
      "A4 CREDIT NOTE naming the original invoices with their dates (CGST Rules, rule 53(1A)); JSON with the same fields. Another tenant's credit note is 404.",
    scopes: ['receipts:read'],
    problems: [VALIDATION_FAILED, CREDIT_NOTE_NOT_FOUND],
    replicaRead: true,
  })
  @ApiIdParam('Credit note id.')
  @ApiQuery(PDF_OR_JSON_QUERY)
  @ApiProduces('application/pdf', 'application/json')
  @ApiResponse({
    status: 200,
    description: 'The PDF (inline) or the credit note (format=json).',
    content: {
      'application/pdf': { schema: { type: 'string', format: 'binary' } },
      'application/json': { schema: { $ref: getSchemaPath(CreditNoteView) } },
    },
  })
  creditNote(
    @Tenant() tenant: TenantContext,
    @Param('id', uuidPipe('id')) id: string,
    @Query('format') format: unknown,
    @Headers('accept') accept: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ) {
    res.vary('Accept');
    return this.documents.creditNote(tenant, id, pdfOrJson(format, accept));
  }
}
