import {
  Controller,
  createParamDecorator,
  ExecutionContext,
  HttpCode,
  Param,
  Post,
  Query,
  Res,
} from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { TenantContext } from '@/common/tenant-context';
import { uuidPipe } from '@/http/errors/uuid.pipe';
import { Route } from '@/http/route.decorator';
import { ApiIdParam } from '@/http/swagger';
import { Tenant } from '@/http/tenancy/tenant.decorator';
import {
  BANK_ACCOUNT_NOT_FOUND,
  STATEMENT_ACCOUNT_MISMATCH,
  STATEMENT_CURRENCY_MISMATCH,
  STATEMENT_FORMAT_UNKNOWN,
  STATEMENT_LAYOUT_UNKNOWN,
  STATEMENT_UNREADABLE,
} from './bank.errors';
import { StatementImportView } from './dto/statement-import.view';
import { RawImportQuery } from './import-query';
import { StatementImportService } from './statement-import.service';
import { CSV_LAYOUTS } from './statements/csv-layouts';
import { STATEMENT_FORMATS } from './statements/statement-line';
import { DATE_FORMATS } from './statements/values';
import { VALIDATION_FAILED } from '@/http/errors/validation';

/** The route whose body is the statement file itself (read as bytes by rawUpload, app.factory). */
export const STATEMENT_UPLOAD_PATH = /^\/bank-accounts\/[^/]+\/statements\/?$/;

/** The uploaded file: the raw body (empty when none was sent). */
export const StatementFile = createParamDecorator((_: unknown, ctx: ExecutionContext): Buffer => {
  const body = ctx.switchToHttp().getRequest<Request>().body as unknown;
  return Buffer.isBuffer(body) ? body : Buffer.alloc(0);
});

/** The media types Swagger UI offers for the upload; any Content-Type is accepted. */
const FILE = { schema: { type: 'string', format: 'binary' } };

@ApiTags('bank')
@Controller('bank-accounts')
export class BankStatementsController {
  constructor(private readonly imports: StatementImportService) {}

  @Post(':id/statements')
  @HttpCode(201)
  @Route({
    summary:
      "Import a bank statement file into the account: the bank's own CSV, camt.053 or MT940.",
    description:
      'The body is the file itself (any Content-Type; at most STATEMENT_MAX_BYTES, default 20 MiB, else 413), read as UTF-8, or as Windows-1252 when it is not valid UTF-8. Without format the content decides: an XML Document in a camt.053 namespace (versions 02 to 08), MT940 tags, else CSV. CSV layouts: hdfc, icici, sbi, axis, kotak (account block above the header row and summary after the table skipped), or generic with columns= and dateFormat=; without layout the header row picks it. Several statements in one file import as one, each balance chain checked (balanceCheck, firstMismatchLine). A line the account already has is a duplicate, never a second line, also when two imports run at once; a line that looks like one of another format is imported and flagged. Pending entries (camt PDNG) are counted, not imported. The same file again answers 200 with its first import and imports nothing. A file that names another account (camt Acct/Id, MT940 :25:) is 400 STATEMENT_ACCOUNT_MISMATCH, amounts in another currency 400 STATEMENT_CURRENCY_MISMATCH, an unreadable file (a DTD or entities in XML too) 400 STATEMENT_UNREADABLE naming the line or element; each imports nothing. Writes the event bank-statement.imported (not on a repeat).',
    scopes: ['bank:write'],
    problems: [
      BANK_ACCOUNT_NOT_FOUND,
      STATEMENT_FORMAT_UNKNOWN,
      STATEMENT_LAYOUT_UNKNOWN,
      STATEMENT_UNREADABLE,
      STATEMENT_ACCOUNT_MISMATCH,
      STATEMENT_CURRENCY_MISMATCH,
      VALIDATION_FAILED,
    ],
  })
  @ApiIdParam('Bank account id.')
  @ApiQuery({
    name: 'dateFormat',
    required: false,
    description: 'generic layout: how dates are written.',
    schema: { type: 'string', enum: [...DATE_FORMATS], default: 'YYYY-MM-DD' },
  })
  @ApiQuery({
    name: 'columns',
    required: false,
    description:
      'generic layout: role:header pairs, comma-separated. Roles date, narration, reference, credit, debit, balance, or amount and drcr instead of credit and debit.',
    schema: {
      type: 'string',
      example:
        'date:Txn Date,narration:Details,reference:Ref,credit:Credit,debit:Debit,balance:Balance',
    },
  })
  @ApiQuery({
    name: 'layout',
    required: false,
    description: 'The CSV layout; default: the header row decides (generic needs columns).',
    schema: { type: 'string', enum: [...CSV_LAYOUTS], example: 'hdfc' },
  })
  @ApiQuery({
    name: 'format',
    required: false,
    description: 'The file format; default: the content decides.',
    schema: { type: 'string', enum: [...STATEMENT_FORMATS], example: 'csv' },
  })
  @ApiConsumes('application/octet-stream', 'text/csv', 'text/plain', 'application/xml')
  @ApiBody({
    description: "The statement file as the bank wrote it (choose it in Swagger UI's file picker).",
    required: true,
    schema: FILE.schema,
  })
  @ApiCreatedResponse({ type: StatementImportView, description: 'The file was imported.' })
  @ApiOkResponse({
    type: StatementImportView,
    description: 'This very file was imported before: its first import, nothing new imported.',
  })
  async import(
    @Tenant() tenant: TenantContext,
    @Param('id', uuidPipe('id')) id: string,
    @Query() query: RawImportQuery,
    @StatementFile() file: Buffer,
    @Res({ passthrough: true }) res: Response,
  ): Promise<StatementImportView> {
    const outcome = await this.imports.import(tenant, id, file, query);
    if (!outcome.created) res.status(200);
    return outcome.view;
  }
}
