import { VALIDATION_FAILED } from '@/http/errors/validation';
import { Body, Controller, Headers, HttpCode, Post, Query, Res } from '@nestjs/common';
import { ApiBody, ApiProduces, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { formatFromAccept, MediaFormat } from '@/http/accept-format';
import { Route } from '@/http/route.decorator';
import { TenantContext } from '@/common/tenant-context';
import { Tenant } from '@/http/tenancy/tenant.decorator';
import { OwnTenantTransaction } from '@/http/tenancy/tenant-transaction.interceptor';
import { SearchFilterDto } from '@/receipts/dto/search-receipts.request';
import { RECEIPT_SEARCH } from '@/receipts/search/search-fields';
import { ApiSortQuery } from '@/search/search-swagger';
import { EXPORT_BUSY, EXPORT_TOO_LARGE } from './exports.errors';
import { EXPORT_COLUMNS } from './receipt-export-rows';
import {
  EXPORT_FORMATS,
  ExportFormat,
  ExportQuery,
  MAX_XLSX_ROWS,
  ReceiptExportService,
} from './receipt-export.service';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** For a request that says Accept instead of format=. */
const EXPORT_MEDIA_TYPES: readonly MediaFormat<ExportFormat>[] = [
  ['text/csv', 'csv'],
  [XLSX, 'xlsx'],
];

@ApiTags('receipts')
@Controller('receipts')
export class ReceiptExportController {
  constructor(private readonly exports: ReceiptExportService) {}

  @Post('export')
  @HttpCode(200)
  @OwnTenantTransaction()
  @Route({
    summary: 'Export every receipt a search finds, as CSV or XLSX.',
    description:
      'The body is exactly the search body (POST /receipts/search); no paging: every match, in ' +
      "the search's sort order (sort as in search). Streamed from one consistent snapshot " +
      '(CSV through a COPY, XLSX through a cursor), so the first bytes leave at once and memory ' +
      `stays flat at any size. Columns: ${EXPORT_COLUMNS.join(', ')} (statusReason, statusChangedOn ` +
      'and statusChangedBy say why a receipt left ACTIVE; realisedOn when the bank credited it; bookingNumber, the number of its booking). CSV: UTF-8 with a byte order mark, RFC 4180 quoting, CRLF, amounts as plain ' +
      'decimals (150000.00). XLSX: one sheet, amounts numeric with two decimals, dates as date ' +
      `cells; at most ${MAX_XLSX_ROWS.toLocaleString('en')} rows (else 422: use CSV). A text ` +
      "cell starting with =, +, -, @, tab or CR is prefixed with ' (formula injection). Exports " +
      'run on a pool of their own (EXPORT_POOL_SIZE): one more is 503 with Retry-After; an ' +
      "export frees its place before its last bytes, so its client's next export finds it free. A " +
      'failure after the headers breaks the connection, so a truncated file is never mistaken ' +
      'for a whole one.',
    scopes: ['receipts:read'],
    problems: [VALIDATION_FAILED, EXPORT_TOO_LARGE, EXPORT_BUSY],
    replicaRead: true,
  })
  @ApiQuery({
    name: 'format',
    required: false,
    description:
      'File format. Without format=, the Accept header chooses (text/csv or the XLSX media type; highest q wins); format= wins when both are given.',
    schema: { type: 'string', enum: [...EXPORT_FORMATS], default: 'csv', example: 'csv' },
  })
  @ApiSortQuery(RECEIPT_SEARCH)
  @ApiBody({
    type: [SearchFilterDto],
    required: false,
    examples: {
      month: {
        summary: "November's money in hand",
        value: [
          { field: 'status', query: 'ACTIVE', type: 'EQUALS' },
          { field: 'receivedDate', query: '2026-11-01,2026-11-30', type: 'BETWEEN' },
        ],
      },
    },
  })
  @ApiProduces('text/csv', XLSX)
  @ApiResponse({
    status: 200,
    description:
      "The file, as an attachment named receipts-<tenant key>-<YYYYMMDD>.<csv|xlsx> (today in the tenant's zone).",
    headers: {
      'Content-Disposition': {
        description: 'attachment; filename="receipts-demo-20261123.csv"',
        schema: { type: 'string' },
      },
    },
    content: {
      'text/csv': { schema: { type: 'string', format: 'binary' } },
      [XLSX]: { schema: { type: 'string', format: 'binary' } },
    },
  })
  export(
    @Tenant() tenant: TenantContext,
    @Query() query: ExportQuery,
    @Body() body: unknown,
    @Headers('accept') accept: string | undefined,
    @Res() res: Response,
  ): Promise<void> {
    res.vary('Accept');
    const format = query.format ?? formatFromAccept(accept, EXPORT_MEDIA_TYPES, 'csv');
    return this.exports.export(tenant, { ...query, format }, body, res);
  }
}
