import { Controller, Get, Query } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiQuery, ApiTags } from '@nestjs/swagger';
import { MoneyView } from '@/common/money/money.view';
import { TenantContext } from '@/common/tenant-context';
import { Route } from '@/http/route.decorator';
import { Tenant } from '@/http/tenancy/tenant.decorator';
import { AGEING_GROUPS, AGEING_PAGE, MAX_EDGES, RawAgeingQuery } from './ageing-query';
import { AgeingView } from './dto/ageing.view';
import { ReceivablesService } from './receivables.service';
import { VALIDATION_FAILED } from '@/http/errors/validation';

@ApiTags('receivables')
@ApiExtraModels(MoneyView)
@Controller('receivables')
export class ReceivablesController {
  constructor(private readonly receivables: ReceivablesService) {}

  @Get('ageing')
  @Route({
    summary: 'What is outstanding on asOf, by how many days past its due date.',
    description:
      'Per demand split on asOf (business dates): demands dated after asOf do not exist yet; ' +
      'receipts received after asOf have not paid; a receipt cancelled or bounced after asOf ' +
      'still counts as paid; a split whose demand was cancelled after asOf still owes, one ' +
      'cancelled on or before asOf owes nothing. Outstanding = amount - what its receipts paid; ' +
      'NOT_DUE when due on or after asOf, else the bucket of asOf - dueDate days. Every bucket ' +
      'label is in every byBucket (zero where nothing is owed). Groups (those with something ' +
      'outstanding) are ordered by outstanding, largest first, then key, and paged by page/size; ' +
      "totalGroups counts them. When nothing is dated after today, total.outstanding at today is the sum of demand search's " +
      'pendingAmount over non-cancelled demands. A bad asOf, buckets, groupBy, page or size is ' +
      '400 VALIDATION_FAILED naming it.',
    scopes: ['receipts:read'],
    problems: [VALIDATION_FAILED],
    replicaRead: true,
  })
  @ApiQuery({
    name: 'size',
    required: false,
    description: 'Groups per page.',
    schema: {
      type: 'integer',
      minimum: 1,
      maximum: AGEING_PAGE.maxSize,
      default: AGEING_PAGE.defaultSize,
      example: 20,
    },
  })
  @ApiQuery({
    name: 'page',
    required: false,
    description: 'Zero-based page of groups.',
    schema: { type: 'integer', minimum: 0, default: 0, example: 0 },
  })
  @ApiQuery({
    name: 'groupBy',
    required: false,
    description: 'Group by booking (key = booking id), payerType or demandType; none: no groups.',
    schema: { type: 'string', enum: [...AGEING_GROUPS], default: 'none', example: 'booking' },
  })
  @ApiQuery({
    name: 'buckets',
    required: false,
    description: `Bucket edges in days past due: ascending positive integers, comma-separated, at most ${MAX_EDGES}.`,
    schema: { type: 'string', default: '30,60,90', example: '30,60,90' },
  })
  @ApiQuery({
    name: 'asOf',
    required: false,
    description: "The business date (YYYY-MM-DD); default today in the tenant's time zone.",
    schema: { type: 'string', format: 'date', example: '2026-11-25' },
  })
  @ApiOkResponse({ type: AgeingView })
  ageing(@Tenant() tenant: TenantContext, @Query() query: RawAgeingQuery): Promise<AgeingView> {
    return this.receivables.ageing(tenant, query);
  }
}
