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
import { CANCELLATION_NOT_FOUND } from '@/cancellations/cancellations.errors';
import { TenantContext } from '@/common/tenant-context';
import { pdfOrJson, PDF_OR_JSON_QUERY } from '@/http/accept-format';
import { uuidPipe } from '@/http/errors/uuid.pipe';
import { VALIDATION_FAILED } from '@/http/errors/validation';
import { Route } from '@/http/route.decorator';
import { ApiIdParam } from '@/http/swagger';
import { Tenant } from '@/http/tenancy/tenant.decorator';
import { CancellationLetterService } from './cancellation-letter.service';
import { CancellationLetterView } from './dto/cancellation-letter.view';

@ApiTags('cancellations')
@ApiExtraModels(CancellationLetterView)
@Controller()
export class CancellationLetterController {
  constructor(private readonly letters: CancellationLetterService) {}

  @Get('cancellations/:id/letter')
  @Route({
    summary: 'The cancellation letter (PDF or JSON).',
    description:
      "A4 CANCELLATION OF ALLOTMENT, dated the cancellation: the booking, the computation (paid, of which GST, the cap and its rule, the deduction and its GST, the GST credited with the credit note numbers, the refund) and the refund due date, or when and how it was paid. When GST paid can no longer be credited (taxToClaim > 0) and the buyer has no GSTIN, the sentence that they may claim it from the GST authorities under Circular 188/20/2022-GST with this letter. Another tenant's cancellation is 404.",
    scopes: ['receipts:read'],
    problems: [VALIDATION_FAILED, CANCELLATION_NOT_FOUND],
    replicaRead: true,
  })
  @ApiIdParam('Cancellation id.')
  @ApiQuery(PDF_OR_JSON_QUERY)
  @ApiProduces('application/pdf', 'application/json')
  @ApiResponse({
    status: 200,
    description: 'The PDF (inline) or the letter (format=json).',
    content: {
      'application/pdf': { schema: { type: 'string', format: 'binary' } },
      'application/json': { schema: { $ref: getSchemaPath(CancellationLetterView) } },
    },
  })
  letter(
    @Tenant() tenant: TenantContext,
    @Param('id', uuidPipe('id')) id: string,
    @Query('format') format: unknown,
    @Headers('accept') accept: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ) {
    res.vary('Accept');
    return this.letters.letter(tenant, id, pdfOrJson(format, accept));
  }
}
