import { Module } from '@nestjs/common';
import { BankAccountsController } from './bank-accounts.controller';
import { BankLinesController } from './bank-lines.controller';
import { BankStatementsController } from './bank-statements.controller';
import { BankService } from './bank.service';
import { StatementImportService } from './statement-import.service';

/** Bank accounts, statement import and the statement lines (docs/bank.md). */
@Module({
  controllers: [BankAccountsController, BankStatementsController, BankLinesController],
  providers: [BankService, StatementImportService],
  exports: [BankService, StatementImportService],
})
export class BankModule {}
