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
import { DEMAND_NOT_FOUND } from '@/demands/demands.errors';
import { uuidPipe } from '@/http/errors/uuid.pipe';
import { formatFromAccept } from '@/http/accept-format';
import { Route } from '@/http/route.decorator';
import { ApiIdParam } from '@/http/swagger';
import { Tenant } from '@/http/tenancy/tenant.decorator';
import { MoneyView } from '@/common/money/money.view';
import { LetterPayerView, LetterGstView, LetterPayToView, LetterView } from './dto/letter.view';
import {
  LETTER_DEMAND_CANCELLED,
  LETTER_NOTHING_PAYABLE,
  LETTER_PAYER_NOT_FOUND,
} from './letters.errors';
import { LETTER_FORMATS, LETTER_MEDIA_TYPES, RawLetterQuery } from './letters-query';
import { LettersService } from './letters.service';
import { VALIDATION_FAILED } from '@/http/errors/validation';

@ApiTags('letters')
@ApiExtraModels(LetterView, LetterPayerView, LetterPayToView, LetterGstView, MoneyView)
@Controller('demands')
export class LettersController {
  constructor(private readonly letters: LettersService) {}

  @Get(':id/letter')
  @Route({
    summary: 'The demand letter of a demand (PDF or JSON), as of a business date.',
    description:
      "thisDemand = what the demand still owes at asOf (with payerId: that payer's split); " +
      "previousDues = what the booking (or that payer) owes at asOf on its other demands due before asOf (the ageing's overdue outstanding, GET /receivables/ageing); " +
      'interestDue = the interest due at asOf (GET /bookings/{id}/interest: the booking, or the payer); totalPayable = their sum. ' +
      "payTo is the tenant's collection account in its currency, number in full (null: the PDF says as agreed). tdsNote when the booking's agreementValue is 50,00,000 or more and the letter is not for a BANK payer. " +
      'format=pdf (default): A4 DEMAND LETTER, or REQUEST FOR DISBURSEMENT for a BANK payer, with amounts in figures and in words (real text). ' +
      "A cancelled demand is 409 DEMAND_CANCELLED; a letter whose totalPayable is 0 (a paid demand with nothing else owed) is 409 NOTHING_PAYABLE; a payerId that pays no split of the demand is 404 PAYER_NOT_FOUND; a bad asOf, payerId or format is 400 VALIDATION_FAILED naming it; another tenant's demand is 404.",
    scopes: ['receipts:read'],
    problems: [
      VALIDATION_FAILED,
      DEMAND_NOT_FOUND,
      LETTER_PAYER_NOT_FOUND,
      LETTER_DEMAND_CANCELLED,
      LETTER_NOTHING_PAYABLE,
    ],
    replicaRead: true,
  })
  @ApiIdParam('Demand id.')
  @ApiQuery({
    name: 'format',
    required: false,
    description:
      'pdf (default, the printed letter) or json. Without format=, the Accept header chooses (application/pdf or application/json; highest q wins); format= wins when both are given.',
    schema: { type: 'string', enum: [...LETTER_FORMATS], default: 'pdf', example: 'json' },
  })
  @ApiQuery({
    name: 'payerId',
    required: false,
    description: 'Address the letter to this payer of the demand (its split, its dues).',
    schema: { type: 'string', format: 'uuid', example: '0d9c8b7a-6f5e-4d3c-9b2a-1f0e9d8c7b6a' },
  })
  @ApiQuery({
    name: 'asOf',
    required: false,
    description:
      "The letter's date and the business date its figures stand on (YYYY-MM-DD); default today in the tenant's time zone.",
    schema: { type: 'string', format: 'date', example: '2026-11-30' },
  })
  @ApiProduces('application/pdf', 'application/json')
  @ApiResponse({
    status: 200,
    description:
      'The PDF (format=pdf, inline, named letter-<demand number>-<asOf as YYYYMMDD>.pdf) or the letter (format=json).',
    headers: {
      'Content-Disposition': {
        description: 'PDF only: inline; filename="letter-DMD-26-27-00012-20261130.pdf".',
        schema: { type: 'string' },
      },
    },
    content: {
      'application/pdf': { schema: { type: 'string', format: 'binary' } },
      'application/json': { schema: { $ref: getSchemaPath(LetterView) } },
    },
  })
  letter(
    @Tenant() tenant: TenantContext,
    @Param('id', uuidPipe('id')) id: string,
    @Query() query: RawLetterQuery,
    @Headers('accept') accept: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ) {
    res.vary('Accept');
    const format = query.format ?? formatFromAccept(accept, LETTER_MEDIA_TYPES, 'pdf');
    return this.letters.letter(tenant, id, { ...query, format });
  }
}
