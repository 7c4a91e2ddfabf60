import { Module } from '@nestjs/common';
import { BankModule } from '@/bank/bank.module';
import { DemandsModule } from '@/demands/demands.module';
import { DocumentsModule } from '@/documents/documents.module';
import { InterestModule } from '@/interest/interest.module';
import { LedgerModule } from '@/ledger/ledger.module';
import { LettersController } from './letters.controller';
import { LettersService } from './letters.service';
import { HoldsService } from './holds.service';
import { RemindersController } from './reminders.controller';
import { RemindersService } from './reminders.service';

/**
 * What the buyer receives (docs/letters.md): demand letters from the figures of the ledger and
 * interest, printed by documents, with the collection account of bank; reminders and holds.
 */
@Module({
  imports: [DemandsModule, LedgerModule, InterestModule, BankModule, DocumentsModule],
  controllers: [LettersController, RemindersController],
  providers: [LettersService, RemindersService, HoldsService],
  exports: [LettersService],
})
export class LettersModule {}
