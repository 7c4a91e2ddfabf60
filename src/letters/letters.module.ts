import { Module } from '@nestjs/common';
import { BankModule } from '@/bank/bank.module';
import { BookingsModule } from '@/bookings/bookings.module';
import { DemandsModule } from '@/demands/demands.module';
import { DocumentsModule } from '@/documents/documents.module';
import { InterestModule } from '@/interest/interest.module';
import { ReceivablesModule } from '@/receivables/receivables.module';
import { LettersController } from './letters.controller';
import { LettersService } from './letters.service';

/**
 * What the buyer receives (docs/letters.md): demand letters from the figures of receivables and
 * interest, printed by documents, with the collection account of bank; reminders and holds.
 */
@Module({
  imports: [
    DemandsModule,
    BookingsModule,
    ReceivablesModule,
    InterestModule,
    BankModule,
    DocumentsModule,
  ],
  controllers: [LettersController],
  providers: [LettersService],
  exports: [LettersService],
})
export class LettersModule {}
