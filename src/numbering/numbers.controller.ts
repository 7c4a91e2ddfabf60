import { Body, Controller, HttpCode, Param, ParseEnumPipe, Post } from '@nestjs/common';
import {
  ApiOperation,
  ApiParam,
  ApiProperty,
  ApiPropertyOptional,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import { IsOptional, Matches } from 'class-validator';
import { RequireScopes } from '@/http/auth/auth.decorators';
import { AppError } from '@/common/app-error';
import { ApiProblems } from '@/http/errors/api-problems';
import { Idempotent } from '@/http/idempotency/idempotency.interceptor';
import { TenantContext } from '@/common/tenant-context';
import { Tenant } from '@/http/tenancy/tenant.decorator';
import { DOCUMENT_TYPES, DocumentType } from './number-pattern';
import { parseLocalDate } from '@/common/dates/local-date';
import { NumberingService } from './numbering.service';

export class IssueNumberRequest {
  @ApiPropertyOptional({
    description: "The document's date (YYYY-MM-DD); defaults to today in the tenant's time zone.",
    format: 'date',
    example: '2026-11-22',
  })
  @IsOptional()
  @Matches(/^\d{4}-\d{2}-\d{2}$/, { message: 'date must be YYYY-MM-DD' })
  date?: string;
}

export class IssuedNumberView {
  @ApiProperty({
    description: 'The document type the number was issued for.',
    enum: DOCUMENT_TYPES,
    example: 'snag',
  })
  documentType: DocumentType;
  @ApiProperty({
    description: 'The number issued; never issued again.',
    example: 'SNG/26-27/00007',
  })
  number: string;
}

@ApiTags('numbers')
@Controller('numbers')
export class NumbersController {
  constructor(private readonly numbering: NumberingService) {}

  @Post(':documentType')
  @HttpCode(201)
  @RequireScopes('receipts:write')
  @Idempotent()
  @ApiOperation({
    summary: 'Issue one number for a document kept elsewhere (for example a snag).',
    description:
      "Consumes the next number of the tenant's configured series for a document kept outside this service (today: `snag`). Numbers of bookings, demands, splits and receipts come only with those documents, so asking for one here is 400 `NUMBER_ISSUED_WITH_DOCUMENT` and their series stay gap-free.",
  })
  @ApiParam({ name: 'documentType', enum: DOCUMENT_TYPES })
  @ApiResponse({ status: 201, type: IssuedNumberView })
  @ApiProblems(
    {
      status: 409,
      code: 'NUMBERING_EXHAUSTED',
      detail: 'The snag series has no number left for its width.',
    },
    {
      status: 422,
      code: 'IDEMPOTENCY_KEY_REUSED',
      detail: 'This Idempotency-Key was used with a different request body.',
    },
  )
  async issue(
    @Tenant() tenant: TenantContext,
    @Param(
      'documentType',
      new ParseEnumPipe(DOCUMENT_TYPES, {
        exceptionFactory: () =>
          AppError.badRequest(
            'UNKNOWN_DOCUMENT_TYPE',
            `documentType must be one of: ${DOCUMENT_TYPES.join(', ')}.`,
          ),
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
    throw AppError.validation([{ field: 'date', message: 'date is not a real calendar date' }]);
  }
}
