import { Body, Controller, Get, Headers, Put, Query, Res } from '@nestjs/common';
import {
  ApiBody,
  ApiOkResponse,
  ApiProduces,
  ApiQuery,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { TenantContext } from '@/common/tenant-context';
import { EXPORT_BUSY } from '@/exports/exports.errors';
import { ApiIfMatch, etagHeader, sendEtag } from '@/http/etag';
import { VALIDATION_FAILED } from '@/http/errors/validation';
import { Route } from '@/http/route.decorator';
import { Tenant } from '@/http/tenancy/tenant.decorator';
import { OwnTenantTransaction } from '@/http/tenancy/tenant-transaction.interceptor';
import { BOOKS_SETTINGS_CHANGED } from './books.errors';
import { BooksService, MAX_PERIOD_DAYS, VOUCHER_FORMATS, VouchersQuery } from './books.service';
import { BooksSettingsService } from './books-settings.service';
import { BOOKS_SETTINGS_EXAMPLES, BooksSettingsRequest } from './dto/books-settings.request';
import { BooksSettingsView } from './dto/books-settings.view';
import { CSV_COLUMNS } from './voucher-files';

const ETAG_HEADER = etagHeader('books settings');

@ApiTags('books')
@Controller('tenant/books')
export class BooksSettingsController {
  constructor(private readonly settings: BooksSettingsService) {}

  @Get()
  @Route({
    summary: "The tenant's books settings: the ledgers vouchers post to (with an ETag).",
    description:
      'Until the first PUT: the defaults (company: the tenant\'s name; party ledger "{buyerName} ({bookingNumber})" under Sundry Debtors; Sales - Construction, Other Charges, Interest on Delayed Payment, Output CGST, Output SGST, TDS Receivable u/s 194-IA, Interest on Refunds, GST Written Off, Bank, Cash). The response carries an ETag; send it back as If-Match on PUT.',
    scopes: ['tenant-config:read'],
  })
  @ApiOkResponse({ type: BooksSettingsView, headers: ETAG_HEADER })
  get(@Tenant() tenant: TenantContext, @Res({ passthrough: true }) res: Response) {
    return this.settings.get(tenant).then(sendEtag(res));
  }

  @Put()
  @Route({
    summary: 'Replace the books settings.',
    description:
      'Replaces the settings: a field left out (or null), and a ledger left out of ledgers, takes its default; unknown fields are refused (400 VALIDATION_FAILED, as is a blank name, one over its length, or a partyLedger template without {bookingNumber} or with an unknown token). Send If-Match with the ETag of a GET (412 on mismatch). The settings apply to every file made afterwards, whatever its period.',
    scopes: ['tenant-config:write'],
    problems: [BOOKS_SETTINGS_CHANGED],
  })
  @ApiIfMatch()
  @ApiBody({ type: BooksSettingsRequest, examples: BOOKS_SETTINGS_EXAMPLES })
  @ApiOkResponse({ type: BooksSettingsView, headers: ETAG_HEADER })
  replace(
    @Tenant() tenant: TenantContext,
    @Body() body: BooksSettingsRequest,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ) {
    return this.settings.replace(tenant, body, ifMatch).then(sendEtag(res));
  }
}

@ApiTags('books')
@Controller('books')
export class BooksController {
  constructor(private readonly books: BooksService) {}

  @Get('vouchers')
  @OwnTenantTransaction()
  @Route({
    summary: 'Accounting vouchers of a period, for TallyPrime or as CSV.',
    description:
      "One voucher per business event dated in [from, to]: Sales per demand (party debit gross; income by charge type, CGST, SGST credit), Receipt per receipt (bank account it is realised into, else the bank ledger; cash; or TDS debit, party credit), a Journal reversing a receipt on the day it was cancelled or bounced, a Credit Note per credit note, a Credit Note (untaxed) or Journal (GST credit time-barred, to GST Written Off) per demand cancelled without one, a Journal per booking cancellation for its untaxed and time-barred demands, and a Payment per refund paid. Every voucher balances to the paisa, and for every booking the party ledger's balance from the vouchers up to a day equals its statement of account's closing balance that day. VOUCHERNUMBER is the invoice number of a taxed demand, else the demand, credit note, receipt or refund number; REMOTEID (Tally) and documentId (CSV) are <id>:<SALE|RECEIPT|REVERSAL|CREDIT|WRITEOFF|REFUND>, so a re-import is recognisable. " +
      "format=tally: a TallyPrime XML import (ENVELOPE / HEADER / TALLYREQUEST Import Data, REPORTNAME Vouchers, SVCURRENTCOMPANY the settings' company; a debit is ISDEEMEDPOSITIVE Yes with a negative AMOUNT). format=tally-masters: the same envelope with REPORTNAME All Masters and one LEDGER for every ledger the period's vouchers use (party ledgers under the settings' partyGroup); import it first. " +
      `format=csv (default): UTF-8 with a byte order mark, CRLF, one row per ledger line with the columns ${CSV_COLUMNS.join(', ')} (booking: the booking's id); a line of 0.00 is never written. ` +
      'Streamed from one consistent snapshot on the export pool (503 EXPORT_BUSY with Retry-After when it is full); a failure after the headers breaks the connection.',
    scopes: ['receipts:read'],
    problems: [VALIDATION_FAILED, EXPORT_BUSY],
  })
  @ApiQuery({
    name: 'from',
    required: true,
    description: 'The first day (YYYY-MM-DD).',
    schema: { type: 'string', format: 'date', example: '2026-04-01' },
  })
  @ApiQuery({
    name: 'to',
    required: true,
    description: `The last day (YYYY-MM-DD): not before from, at most ${MAX_PERIOD_DAYS} days after it.`,
    schema: { type: 'string', format: 'date', example: '2027-03-31' },
  })
  @ApiQuery({
    name: 'format',
    required: false,
    description: 'csv (default), tally (vouchers) or tally-masters (the ledgers they use).',
    schema: { type: 'string', enum: [...VOUCHER_FORMATS], default: 'csv', example: 'tally' },
  })
  @ApiProduces('text/csv', 'application/xml')
  @ApiResponse({
    status: 200,
    description:
      'The file, as an attachment named vouchers-<tenant key>-<from>-<to>.csv|xml (masters-… for tally-masters).',
    headers: {
      'Content-Disposition': {
        description: 'attachment; filename="vouchers-demo-20260401-20270331.xml"',
        schema: { type: 'string' },
      },
    },
    content: {
      'text/csv': { schema: { type: 'string', format: 'binary' } },
      'application/xml': { schema: { type: 'string', format: 'binary' } },
    },
  })
  vouchers(
    @Tenant() tenant: TenantContext,
    @Query() query: VouchersQuery,
    @Res() res: Response,
  ): Promise<void> {
    return this.books.vouchers(tenant, query, res);
  }
}
