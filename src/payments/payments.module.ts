import { Module } from '@nestjs/common';
import { ReceiptsModule } from '@/receipts/receipts.module';
import { PaymentsController } from './payments.controller';
import { PaymentsService } from './payments.service';

/** One payment over many dues: above receipts, whose recording it repeats per split paid. */
@Module({
  imports: [ReceiptsModule],
  controllers: [PaymentsController],
  providers: [PaymentsService],
})
export class PaymentsModule {}
