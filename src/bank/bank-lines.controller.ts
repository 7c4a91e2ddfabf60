import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { TenantContext } from '@/common/tenant-context';
import { uuidPipe } from '@/http/errors/uuid.pipe';
import { Route } from '@/http/route.decorator';
import { ApiIdParam } from '@/http/swagger';
import { Tenant } from '@/http/tenancy/tenant.decorator';
import { BANK_LINE_NOT_FOUND } from './bank.errors';
import { BankService } from './bank.service';
import { BankLineDetailView } from './dto/bank-line.view';

@ApiTags('bank')
@Controller('bank-lines')
export class BankLinesController {
  constructor(private readonly bank: BankService) {}

  @Get(':id')
  @Route({
    summary: 'One statement line, with where it came from and its history.',
    description:
      "The line as GET /bank-accounts/{id}/lines shows it, plus its import (statement), account, 1-based line in the file, the raw text the file held for it, and its history of matches, unmatches and ignores. Another tenant's line is 404.",
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
}
