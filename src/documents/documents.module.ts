import { Module } from '@nestjs/common';
import { ReceiptsModule } from '@/receipts/receipts.module';
import { ReceiptDocumentsController } from './receipt-documents.controller';
import { ReceiptDocumentsService } from './receipt-documents.service';

/** Printed documents (the receipt PDF), drawn from what the record modules export. */
@Module({
  imports: [ReceiptsModule],
  controllers: [ReceiptDocumentsController],
  providers: [ReceiptDocumentsService],
})
export class DocumentsModule {}
