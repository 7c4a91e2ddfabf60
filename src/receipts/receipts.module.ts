import { Module } from '@nestjs/common';
import { DemandsModule } from '@/demands/demands.module';
import { ReceiptHooks } from './receipt-hooks';
import { ReceiptWritesService } from './receipt-writes.service';
import { ReceiptsController } from './receipts.controller';
import { ReceiptsService } from './receipts.service';

@Module({
  imports: [DemandsModule],
  controllers: [ReceiptsController],
  providers: [ReceiptsService, ReceiptWritesService, ReceiptHooks],
  exports: [ReceiptsService, ReceiptWritesService, ReceiptHooks],
})
export class ReceiptsModule {}
