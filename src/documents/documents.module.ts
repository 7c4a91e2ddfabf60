import { Module } from '@nestjs/common';
import { DemandsModule } from '@/demands/demands.module';
import { ReceiptsModule } from '@/receipts/receipts.module';
import { GstDocumentsController } from './gst-documents.controller';
import { GstDocumentsService } from './gst-documents.service';
import { ReceiptDocumentsController } from './receipt-documents.controller';
import { ReceiptDocumentsService } from './receipt-documents.service';
import { LetterDocumentsService } from './letter-documents.service';
import { StatementDocumentsService } from './statement-documents.service';

/**
 * Printed documents drawn from what the record modules export: the receipt PDF, and the
 * statement of account's and the demand letter's PDFs for the features that serve them.
 */
@Module({
  imports: [ReceiptsModule, DemandsModule],
  controllers: [ReceiptDocumentsController, GstDocumentsController],
  providers: [
    ReceiptDocumentsService,
    StatementDocumentsService,
    LetterDocumentsService,
    GstDocumentsService,
  ],
  exports: [StatementDocumentsService, LetterDocumentsService],
})
export class DocumentsModule {}
