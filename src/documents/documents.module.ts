import { Module } from '@nestjs/common';
import { DemandsModule } from '@/demands/demands.module';
import { ReceiptsModule } from '@/receipts/receipts.module';
import { BookingsModule } from '@/bookings/bookings.module';
import { CancellationsModule } from '@/cancellations/cancellations.module';
import { CancellationLetterController } from './cancellation-letter.controller';
import { CancellationLetterService } from './cancellation-letter.service';
import { GstDocumentsController } from './gst-documents.controller';
import { GstDocumentsService } from './gst-documents.service';
import { ReceiptDocumentsController } from './receipt-documents.controller';
import { ReceiptDocumentsService } from './receipt-documents.service';
import { LetterDocumentsService } from './letter-documents.service';
import { StatementDocumentsService } from './statement-documents.service';

/**
 * Printed documents drawn from what the record modules export: the receipt PDF, the GST
 * documents, the cancellation letter, and the statement of account's and the demand letter's
 * PDFs for the features that serve them.
 */
@Module({
  imports: [ReceiptsModule, DemandsModule, BookingsModule, CancellationsModule],
  controllers: [ReceiptDocumentsController, GstDocumentsController, CancellationLetterController],
  providers: [
    CancellationLetterService,
    ReceiptDocumentsService,
    StatementDocumentsService,
    LetterDocumentsService,
    GstDocumentsService,
  ],
  exports: [StatementDocumentsService, LetterDocumentsService],
})
export class DocumentsModule {}
