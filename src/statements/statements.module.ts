import { Module } from '@nestjs/common';
import { DocumentsModule } from '@/documents/documents.module';
import { ExportsModule } from '@/exports/exports.module';
import { InterestModule } from '@/interest/interest.module';
import { LedgerModule } from '@/ledger/ledger.module';
import { StatementsController } from './statements.controller';
import { StatementsService } from './statements.service';

/**
 * The statement of account of a booking (docs/statement.md): its ledger from the ledger's records, the
 * interest figures from interest, printed by documents and written as XLSX by exports. It writes
 * nothing.
 */
@Module({
  imports: [InterestModule, LedgerModule, DocumentsModule, ExportsModule],
  controllers: [StatementsController],
  providers: [StatementsService],
})
export class StatementsModule {}
