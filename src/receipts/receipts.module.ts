import { Module } from '@nestjs/common';
import { ReceiptWritesService } from './receipt-writes.service';
import { ReceiptsController } from './receipts.controller';
import { ReceiptsService } from './receipts.service';

@Module({
  controllers: [ReceiptsController],
  providers: [ReceiptsService, ReceiptWritesService],
  exports: [ReceiptsService],
})
export class ReceiptsModule {}
