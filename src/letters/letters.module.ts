import { Module } from '@nestjs/common';
import { BankModule } from '@/bank/bank.module';
import { BookingsModule } from '@/bookings/bookings.module';
import { DemandsModule } from '@/demands/demands.module';
import { DocumentsModule } from '@/documents/documents.module';
import { InterestModule } from '@/interest/interest.module';
import { ReceivablesModule } from '@/receivables/receivables.module';
import { LettersController } from './letters.controller';
import { LettersService } from './letters.service';
import { HoldsService } from './holds.service';
import { RemindersController } from './reminders.controller';
import { RemindersService } from './reminders.service';

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
  controllers: [LettersController, RemindersController],
  providers: [LettersService, RemindersService, HoldsService],
  exports: [LettersService],
})
export class LettersModule {}
