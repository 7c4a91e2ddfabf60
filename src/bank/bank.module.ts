import { Module } from '@nestjs/common';
import { ReceiptsModule } from '@/receipts/receipts.module';
import { BankAccountsController } from './bank-accounts.controller';
import { BankLinesController } from './bank-lines.controller';
import { BankStatementsController } from './bank-statements.controller';
import { BankService } from './bank.service';
import { BankMatchingService } from './bank-matching.service';
import { StatementImportService } from './statement-import.service';

/** Bank accounts, statement import, the statement lines and matching them (docs/bank.md). */
@Module({
  imports: [ReceiptsModule],
  controllers: [BankAccountsController, BankStatementsController, BankLinesController],
  providers: [BankService, StatementImportService, BankMatchingService],
  exports: [BankService, StatementImportService, BankMatchingService],
})
export class BankModule {}
