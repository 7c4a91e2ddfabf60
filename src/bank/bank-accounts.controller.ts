import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiQuery, ApiTags } from '@nestjs/swagger';
import { TenantContext } from '@/common/tenant-context';
import { ApiCursorQuery } from '@/http/cursor-query';
import { uuidPipe } from '@/http/errors/uuid.pipe';
import { Route } from '@/http/route.decorator';
import { ApiIdParam } from '@/http/swagger';
import { Tenant } from '@/http/tenancy/tenant.decorator';
import { BANK_ACCOUNT_EXISTS, BANK_ACCOUNT_NOT_FOUND } from './bank.errors';
import { BankMatchingService } from './bank-matching.service';
import { RematchView } from './dto/statement-import.view';
import { BankService, LINES_LIMITS, LinesQuery } from './bank.service';
import { BankAccountList, BankAccountView } from './dto/bank-account.view';
import { BankLinePage, LINE_STATUSES } from './dto/bank-line.view';
import { CreateBankAccountRequest } from './dto/create-bank-account.request';
import { UpdateBankAccountRequest } from './dto/update-bank-account.request';

@ApiTags('bank')
@Controller('bank-accounts')
export class BankAccountsController {
  constructor(
    private readonly bank: BankService,
    private readonly matching: BankMatchingService,
  ) {}

  @Post()
  @HttpCode(201)
  @Route({
    summary: 'Add a bank account of the tenant.',
    description:
      'Its statements are then imported with POST /bank-accounts/{id}/statements. accountNumber is stored without spaces and hyphens and is shown, in every view and log, masked but its last four characters (a demand letter prints the collection account in full). The same accountNumber twice in a tenant is 409 BANK_ACCOUNT_EXISTS. collection: true makes it the account buyers pay into, clearing the flag on the other account in the currency (bank-account.updated). Writes the event bank-account.created.',
    scopes: ['bank:write'],
    problems: [BANK_ACCOUNT_EXISTS],
    idempotent: true,
  })
  @ApiBody({
    type: CreateBankAccountRequest,
    examples: {
      hdfc: {
        summary: 'An HDFC current account',
        value: {
          name: 'HDFC collections (Skyline Heights)',
          accountNumber: '50200012345678',
          ifsc: 'HDFC0001234',
          currency: 'INR',
        },
      },
    },
  })
  @ApiCreatedResponse({ type: BankAccountView })
  create(
    @Tenant() tenant: TenantContext,
    @Body() body: CreateBankAccountRequest,
  ): Promise<BankAccountView> {
    return this.bank.create(tenant, body);
  }

  @Get()
  @Route({
    summary: "The tenant's bank accounts.",
    description: 'Oldest first; account numbers masked.',
    scopes: ['bank:read'],
  })
  @ApiOkResponse({ type: BankAccountList })
  list(@Tenant() tenant: TenantContext): Promise<BankAccountList> {
    return this.bank.list(tenant);
  }

  @Get(':id')
  @Route({
    summary: 'One bank account.',
    description: "Another tenant's account is 404.",
    scopes: ['bank:read'],
    problems: [BANK_ACCOUNT_NOT_FOUND],
  })
  @ApiIdParam('Bank account id.')
  @ApiOkResponse({ type: BankAccountView })
  findOne(
    @Tenant() tenant: TenantContext,
    @Param('id', uuidPipe('id')) id: string,
  ): Promise<BankAccountView> {
    return this.bank.findOne(tenant, id);
  }

  @Patch(':id')
  @Route({
    summary: 'Rename a bank account, or make it (or stop it being) the collection account.',
    description:
      "Body: name and/or collection. A tenant has at most one collection account per currency: setting collection on this account clears it on the other (each change is a bank-account.updated event). The account number and currency never change. Another tenant's account is 404.",
    scopes: ['bank:write'],
    problems: [BANK_ACCOUNT_NOT_FOUND],
  })
  @ApiIdParam('Bank account id.')
  @ApiBody({
    type: UpdateBankAccountRequest,
    examples: {
      collection: { summary: 'Make it the collection account', value: { collection: true } },
    },
  })
  @ApiOkResponse({ type: BankAccountView })
  update(
    @Tenant() tenant: TenantContext,
    @Param('id', uuidPipe('id')) id: string,
    @Body() body: UpdateBankAccountRequest,
  ): Promise<BankAccountView> {
    return this.bank.update(tenant, id, body);
  }

  @Get(':id/lines')
  @Route({
    summary: "The account's statement lines, in import order (a cursor feed).",
    description:
      "Lines in sequence order (per account, in the order imports committed). Store nextAfter and send it back as after: you never miss or repeat a line. status filters (UNMATCHED, SUGGESTED, MATCHED, IGNORED). Amounts and balances are Money in the account's currency. A bad status, after or limit is 400 VALIDATION_FAILED naming it; another tenant's account is 404.",
    scopes: ['bank:read'],
    problems: [BANK_ACCOUNT_NOT_FOUND],
  })
  @ApiIdParam('Bank account id.')
  @ApiCursorQuery('Return lines with a higher sequence (default 0: from the start).', LINES_LIMITS)
  @ApiQuery({
    name: 'status',
    required: false,
    description: 'Only lines of this status.',
    schema: { type: 'string', enum: [...LINE_STATUSES], example: 'UNMATCHED' },
  })
  @ApiOkResponse({ type: BankLinePage })
  lines(
    @Tenant() tenant: TenantContext,
    @Param('id', uuidPipe('id')) id: string,
    @Query() query: LinesQuery,
  ): Promise<BankLinePage> {
    return this.bank.lines(tenant, id, query);
  }

  @Post(':id/rematch')
  @HttpCode(200)
  @Route({
    summary: "Match the account's open lines again (every rule).",
    description:
      "Runs REFERENCE, GROUP and AMOUNT_DATE again over the account's UNMATCHED and SUGGESTED credit lines, against the tenant's ACTIVE receipts not yet realised (never CASH or TDS): after receipts were recorded or a line unmatched. A pair once unmatched by hand is never matched again; ties are suggested, never matched. Lines of an account in another currency than the tenant's are not matched. Another tenant's account is 404.",
    scopes: ['bank:write'],
    problems: [BANK_ACCOUNT_NOT_FOUND],
    idempotent: true,
  })
  @ApiIdParam('Bank account id.')
  @ApiOkResponse({ type: RematchView })
  async rematch(
    @Tenant() tenant: TenantContext,
    @Param('id', uuidPipe('id')) id: string,
  ): Promise<RematchView> {
    return { matched: await this.matching.rematch(tenant, id) };
  }
}
