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
import { MoneyView } from '@/common/money/money.view';
import { TenantContext } from '@/common/tenant-context';
import { BOOKING_NOT_FOUND } from '@/bookings/bookings.errors';
import { uuidPipe } from '@/http/errors/uuid.pipe';
import { formatFromAccept } from '@/http/accept-format';
import { Route } from '@/http/route.decorator';
import { ApiIdParam } from '@/http/swagger';
import { Tenant } from '@/http/tenancy/tenant.decorator';
import { StatementView } from './dto/statement.view';
import { RawStatementQuery, STATEMENT_FORMATS, STATEMENT_MEDIA_TYPES } from './statement-query';
import { StatementsService } from './statements.service';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

@ApiTags('statements')
@ApiExtraModels(MoneyView, StatementView)
@Controller('bookings')
export class StatementsController {
  constructor(private readonly statements: StatementsService) {}

  @Get(':id/statement')
  @Route({
    summary: 'The statement of account of a booking: its ledger as it stood on asOf.',
    description:
      'Every entry as it happened, oldest first, on business dates: DEMAND (a debit on the ' +
      'demand date; INTEREST demands too), RECEIPT (a credit on the received date), ' +
      'RECEIPT_REVERSED (a debit on the date the receipt was cancelled or bounced, its ' +
      'particulars saying which and why), DEMAND_CANCELLED (a credit on the cancel date, in the ' +
      "tenant's zone); a cancelled or bounced receipt shows twice. On one date: demands, then " +
      'receipts, then reversals (a receipt, then a demand cancelled), then by document number. ' +
      'Entries dated after to (default asOf; asOf default today) do not exist yet. balance runs ' +
      'debit minus credit; openingBalance sums every entry dated before from (default: the first ' +
      "entry's date, opening 0); closingBalance = openingBalance + debits - credits. With payerId " +
      "only that payer's splits count (a demand's debit is that payer's share). Totals run from " +
      'the first entry through to (outstanding = closingBalance; overdue: on demands due before ' +
      'asOf); the interest figures are those of GET /bookings/{id}/interest at asOf (of the ' +
      'payer, with payerId). format=pdf: the printed A4 statement (real text, DejaVu Sans with ' +
      '₹); format=xlsx: the entries as one worksheet (numeric money cells, date cells). A ' +
      'malformed date, from after to, to after asOf, a payerId that is not a UUID or another ' +
      "format is 400 VALIDATION_FAILED naming it; another tenant's booking is 404.",
    scopes: ['receipts:read'],
    problems: [BOOKING_NOT_FOUND],
    replicaRead: true,
  })
  @ApiIdParam('Booking id.')
  @ApiQuery({
    name: 'format',
    required: false,
    description:
      'json (default), pdf (the printed statement) or xlsx (the entries). Without format=, the Accept header chooses (application/json, application/pdf or the XLSX media type; highest q wins); format= wins when both are given.',
    schema: { type: 'string', enum: [...STATEMENT_FORMATS], default: 'json', example: 'pdf' },
  })
  @ApiQuery({
    name: 'payerId',
    required: false,
    description: "Only this payer's splits (their demands' shares and their receipts).",
    schema: { type: 'string', format: 'uuid', example: '0d9c8b7a-6f5e-4d3c-9b2a-1f0e9d8c7b6a' },
  })
  @ApiQuery({
    name: 'asOf',
    required: false,
    description:
      "The business date the statement stands on (YYYY-MM-DD); default today in the tenant's time zone; a future date projects.",
    schema: { type: 'string', format: 'date', example: '2026-11-30' },
  })
  @ApiQuery({
    name: 'to',
    required: false,
    description: 'The last day of the statement (YYYY-MM-DD, not after asOf); default asOf.',
    schema: { type: 'string', format: 'date', example: '2026-11-30' },
  })
  @ApiQuery({
    name: 'from',
    required: false,
    description:
      "The first day listed (YYYY-MM-DD, not after to); earlier entries make the opening balance. Default: the first entry's date.",
    schema: { type: 'string', format: 'date', example: '2026-04-01' },
  })
  @ApiProduces('application/json', 'application/pdf', XLSX)
  @ApiResponse({
    status: 200,
    description:
      'The statement (format=json), the PDF (format=pdf, inline) or the workbook (format=xlsx, attachment), named statement-<booking number>-<asOf as YYYYMMDD>.',
    headers: {
      'Content-Disposition': {
        description:
          'PDF and XLSX only: inline; filename="statement-BKG-26-27-00012-20261130.pdf" (attachment for xlsx).',
        schema: { type: 'string' },
      },
    },
    content: {
      'application/json': { schema: { $ref: getSchemaPath(StatementView) } },
      'application/pdf': { schema: { type: 'string', format: 'binary' } },
      [XLSX]: { schema: { type: 'string', format: 'binary' } },
    },
  })
  statement(
    @Tenant() tenant: TenantContext,
    @Param('id', uuidPipe('id')) id: string,
    @Query() query: RawStatementQuery,
    @Headers('accept') accept: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ) {
    res.vary('Accept');
    const format = query.format ?? formatFromAccept(accept, STATEMENT_MEDIA_TYPES, 'json');
    return this.statements.statement(tenant, id, { ...query, format });
  }
}
