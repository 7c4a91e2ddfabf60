import { Module } from '@nestjs/common';
import { ReceiptsModule } from '@/receipts/receipts.module';
import { ReceiptDocumentsController } from './receipt-documents.controller';
import { ReceiptDocumentsService } from './receipt-documents.service';
import { LetterDocumentsService } from './letter-documents.service';
import { StatementDocumentsService } from './statement-documents.service';

/**
 * Printed documents drawn from what the record modules export: the receipt PDF, and the
 * statement of account's and the demand letter's PDFs for the features that serve them.
 */
@Module({
  imports: [ReceiptsModule],
  controllers: [ReceiptDocumentsController],
  providers: [ReceiptDocumentsService, StatementDocumentsService, LetterDocumentsService],
  exports: [StatementDocumentsService, LetterDocumentsService],
})
export class DocumentsModule {}
