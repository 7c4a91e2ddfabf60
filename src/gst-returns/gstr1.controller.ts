import { Controller, Get, Headers, Query, Res } from '@nestjs/common';
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
import { formatFromAccept } from '@/http/accept-format';
import { VALIDATION_FAILED } from '@/http/errors/validation';
import { Route } from '@/http/route.decorator';
import { Tenant } from '@/http/tenancy/tenant.decorator';
import { Gstr1View } from './dto/gstr1.view';
import { GSTR1_INCONSISTENT } from './gst-returns.errors';
import { GSTR1_FORMATS, GSTR1_MEDIA_TYPES, XLSX_MEDIA_TYPE } from './gstr1-query';
import { Gstr1Service } from './gstr1.service';

@ApiTags('gst')
@ApiExtraModels(Gstr1View)
@Controller('gst')
export class Gstr1Controller {
  constructor(private readonly gstr1: Gstr1Service) {}

  @Get('gstr1')
  @Route({
    summary: "GSTR-1 of a month: the period's tax invoices and credit notes, ready to file.",
    description:
      "The tax invoices dated in the period (YYYY-MM, the tenant's dates) and the credit notes dated in it, as the GST portal's offline tool imports them (format=json; keys as India Compliance's GSTR-1 export writes them: b2b, b2cs, cdnr, nil, hsn with hsn_b2b and hsn_b2c, doc_issue; sections with nothing in them left out) or as a workbook (format=xlsx: one sheet per table with the offline tool's column headings, and a reconciliation sheet). " +
      "Every amount is the documents' own, summed, never recomputed. b2b: invoices to a GSTIN, one item per rate; b2cs: the other invoices per (place of supply, rate), net of the credit notes to recipients without a GSTIN (a row may be negative); cdnr: credit notes to a GSTIN; nil: the untaxed demands of EXEMPT bookings (non-GST supplies); doc_issue: one range per numbering series. " +
      "Before answering, the return is checked against its documents: every line's CGST and SGST within 0.01 of its taxable value at its rate; b2b + b2cs - cdnr equal to the invoices less the credit notes, exactly; the HSN summary equal to the same documents' totals, exactly; every document issued under the return's GSTIN. A failure is 422 GSTR1_INCONSISTENT naming the documents, never a partial file. " +
      "A malformed period, one after the current month, or another format is 400 VALIDATION_FAILED. Only the tenant's own documents are read.",
    scopes: ['receipts:read'],
    problems: [VALIDATION_FAILED, GSTR1_INCONSISTENT],
    replicaRead: true,
  })
  @ApiQuery({
    name: 'period',
    required: true,
    description: 'The month of the return, YYYY-MM (not after the current month).',
    schema: { type: 'string', pattern: '^\\d{4}-(0[1-9]|1[0-2])$', example: '2026-10' },
  })
  @ApiQuery({
    name: 'format',
    required: false,
    description:
      'json (default: the offline-tool JSON) or xlsx (the workbook). Without format=, the Accept header chooses (application/json or the XLSX media type); format= wins when both are given.',
    schema: { type: 'string', enum: [...GSTR1_FORMATS], default: 'json', example: 'xlsx' },
  })
  @ApiProduces('application/json', XLSX_MEDIA_TYPE)
  @ApiResponse({
    status: 200,
    description:
      'The return (format=json) or the workbook (format=xlsx, attachment, named GSTR1-<GSTIN>-<MMYYYY>.xlsx).',
    headers: {
      'Content-Disposition': {
        description: 'XLSX only: attachment; filename="GSTR1-27AAPFU0939F1ZV-102026.xlsx".',
        schema: { type: 'string' },
      },
    },
    content: {
      'application/json': { schema: { $ref: getSchemaPath(Gstr1View) } },
      [XLSX_MEDIA_TYPE]: { schema: { type: 'string', format: 'binary' } },
    },
  })
  get(
    @Tenant() tenant: TenantContext,
    @Query() query: { period?: unknown; format?: unknown },
    @Headers('accept') accept: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ) {
    res.vary('Accept');
    const format = query.format ?? formatFromAccept(accept, GSTR1_MEDIA_TYPES, 'json');
    return this.gstr1.gstr1(tenant, { period: query.period, format });
  }
}
