import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { TenantContext } from '@/common/tenant-context';
import { uuidPipe } from '@/http/errors/uuid.pipe';
import { Route } from '@/http/route.decorator';
import { ApiIdParam } from '@/http/swagger';
import { Tenant } from '@/http/tenancy/tenant.decorator';
import { RECEIPT_NOT_FOUND } from '@/receipts/receipts.errors';
import {
  BANK_LINE_NOT_FOUND,
  LINE_NOT_MATCHABLE,
  LINE_NOT_MATCHED,
  MATCH_AMOUNT_MISMATCH,
  RECEIPT_ALREADY_MATCHED,
  RECEIPT_NOT_MATCHABLE,
} from './bank.errors';
import { BankService } from './bank.service';
import { BankMatchingService } from './bank-matching.service';
import { BankLineReasonRequest, MatchBankLineRequest } from './dto/bank-line-actions.request';
import { BankLineDetailView } from './dto/bank-line.view';

@ApiTags('bank')
@Controller('bank-lines')
export class BankLinesController {
  constructor(
    private readonly bank: BankService,
    private readonly matching: BankMatchingService,
  ) {}

  @Get(':id')
  @Route({
    summary: 'One statement line, with where it came from and its history.',
    description:
      "The line as GET /bank-accounts/{id}/lines shows it, plus its import (statement), account, 1-based line in the file, the raw text the file held for it, and its history of matches, unmatches and ignores (actor, rule, time, reason, receipts), oldest first. Another tenant's line is 404.",
    scopes: ['bank:read'],
    problems: [BANK_LINE_NOT_FOUND],
  })
  @ApiIdParam('Line id.')
  @ApiOkResponse({ type: BankLineDetailView })
  findOne(
    @Tenant() tenant: TenantContext,
    @Param('id', uuidPipe('id')) id: string,
  ): Promise<BankLineDetailView> {
    return this.bank.line(tenant, id);
  }

  @Post(':id/match')
  @HttpCode(200)
  @Route({
    summary: 'Match a credit line to receipts by hand (rule MANUAL).',
    description:
      "The receipts' amounts must add up to the line's. Each receipt becomes realised (realisedOn = the line's value date, bankLine = the line) and the line MATCHED; events bank-line.matched and receipt.realised. A debit line, or one MATCHED or IGNORED, is 409 LINE_NOT_MATCHABLE; a CASH, TDS or non-ACTIVE receipt 409 RECEIPT_NOT_MATCHABLE; a receipt matched to a line already 409 RECEIPT_ALREADY_MATCHED. Another tenant's line or receipt is 404.",
    scopes: ['bank:write'],
    problems: [
      BANK_LINE_NOT_FOUND,
      RECEIPT_NOT_FOUND,
      LINE_NOT_MATCHABLE,
      RECEIPT_NOT_MATCHABLE,
      RECEIPT_ALREADY_MATCHED,
      MATCH_AMOUNT_MISMATCH,
    ],
    idempotent: true,
  })
  @ApiIdParam('Line id.')
  @ApiBody({ type: MatchBankLineRequest })
  @ApiOkResponse({ type: BankLineDetailView, description: 'The line, now MATCHED.' })
  match(
    @Tenant() tenant: TenantContext,
    @Param('id', uuidPipe('id')) id: string,
    @Body() body: MatchBankLineRequest,
  ): Promise<BankLineDetailView> {
    return this.matching.match(tenant, id, body);
  }

  @Post(':id/unmatch')
  @HttpCode(200)
  @Route({
    summary: 'Undo the match of a line.',
    description:
      'The line becomes UNMATCHED and its receipts are no longer realised (realisedOn and bankLine null); the pairs are kept in the history and never matched automatically again. Events bank-line.unmatched and receipt.unrealised. A line that is not MATCHED is 409 LINE_NOT_MATCHED.',
    scopes: ['bank:write'],
    problems: [BANK_LINE_NOT_FOUND, LINE_NOT_MATCHED],
    idempotent: true,
  })
  @ApiIdParam('Line id.')
  @ApiBody({ type: BankLineReasonRequest })
  @ApiOkResponse({ type: BankLineDetailView, description: 'The line, now UNMATCHED.' })
  unmatch(
    @Tenant() tenant: TenantContext,
    @Param('id', uuidPipe('id')) id: string,
    @Body() body: BankLineReasonRequest,
  ): Promise<BankLineDetailView> {
    return this.matching.unmatch(tenant, id, body);
  }

  @Post(':id/ignore')
  @HttpCode(200)
  @Route({
    summary: 'Set a line aside (bank interest, charges): IGNORED, never matched.',
    description:
      'The reason is kept in the history; event bank-line.ignored. A MATCHED line (unmatch it first) or one already IGNORED is 409 LINE_NOT_MATCHABLE.',
    scopes: ['bank:write'],
    problems: [BANK_LINE_NOT_FOUND, LINE_NOT_MATCHABLE],
    idempotent: true,
  })
  @ApiIdParam('Line id.')
  @ApiBody({ type: BankLineReasonRequest })
  @ApiOkResponse({ type: BankLineDetailView, description: 'The line, now IGNORED.' })
  ignore(
    @Tenant() tenant: TenantContext,
    @Param('id', uuidPipe('id')) id: string,
    @Body() body: BankLineReasonRequest,
  ): Promise<BankLineDetailView> {
    return this.matching.ignore(tenant, id, body);
  }
}
