import { validationFailed } from '@/http/errors/validation';
import { Body, Controller, HttpCode, Param, ParseEnumPipe, Post } from '@nestjs/common';
import { ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Route } from '@/http/route.decorator';
import { TenantContext } from '@/common/tenant-context';
import { Tenant } from '@/http/tenancy/tenant.decorator';
import { DOCUMENT_TYPES, DocumentType } from './number-pattern';
import { parseLocalDate } from '@/common/dates/local-date';
import { NumberingService } from './numbering.service';
import {
  NUMBER_ISSUED_WITH_DOCUMENT,
  NUMBERING_EXHAUSTED,
  UNKNOWN_DOCUMENT_TYPE,
} from './numbering.errors';
import { IssueNumberRequest } from './dto/issue-number.request';
import { IssuedNumberView } from './dto/issued-number.view';

@ApiTags('numbers')
@Controller('numbers')
export class NumbersController {
  constructor(private readonly numbering: NumberingService) {}

  @Post(':documentType')
  @HttpCode(201)
  @Route({
    summary: 'Issue one number for a document kept elsewhere (for example a snag).',
    description:
      "Consumes the next number of the tenant's configured series for a document kept outside this service (today: `snag`). Numbers of bookings, demands, splits, receipts, tax invoices, credit notes and refunds come only with those documents, so asking for one here is 400 `NUMBER_ISSUED_WITH_DOCUMENT` and their series stay gap-free.",
    scopes: ['receipts:write'],
    problems: [400, UNKNOWN_DOCUMENT_TYPE, NUMBER_ISSUED_WITH_DOCUMENT, NUMBERING_EXHAUSTED],
    idempotent: true,
  })
  @ApiParam({ name: 'documentType', enum: DOCUMENT_TYPES })
  @ApiResponse({ status: 201, type: IssuedNumberView })
  async issue(
    @Tenant() tenant: TenantContext,
    @Param(
      'documentType',
      new ParseEnumPipe(DOCUMENT_TYPES, {
        exceptionFactory: () => UNKNOWN_DOCUMENT_TYPE.error(DOCUMENT_TYPES),
      }),
    )
    documentType: DocumentType,
    @Body() body: IssueNumberRequest,
  ): Promise<IssuedNumberView> {
    const date = body.date ? parseDate(body.date) : undefined;
    return {
      documentType,
      number: await this.numbering.issueForExternalDocument(tenant, documentType, { date }),
    };
  }
}

function parseDate(value: string) {
  try {
    return parseLocalDate(value);
  } catch {
    throw validationFailed([{ field: 'date', message: 'date is not a real calendar date' }]);
  }
}
