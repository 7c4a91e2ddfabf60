import { Module } from '@nestjs/common';
import { ReceiptsModule } from '@/receipts/receipts.module';
import { ReceiptDocumentsController } from './receipt-documents.controller';
import { ReceiptDocumentsService } from './receipt-documents.service';
import { StatementDocumentsService } from './statement-documents.service';

/**
 * Printed documents drawn from what the record modules export: the receipt PDF, and the
 * statement of account's PDF for the feature that serves it.
 */
@Module({
  imports: [ReceiptsModule],
  controllers: [ReceiptDocumentsController],
  providers: [ReceiptDocumentsService, StatementDocumentsService],
  exports: [StatementDocumentsService],
})
export class DocumentsModule {}
