import { Module } from '@nestjs/common';
import { BookingsModule } from '@/bookings/bookings.module';
import { DemandsModule } from '@/demands/demands.module';
import { ReceiptsModule } from '@/receipts/receipts.module';
import { GstSettingsModule } from '@/gst-settings/gst-settings.module';
import { NumberingModule } from '@/numbering/numbering.module';
import { CancellationsController } from './cancellations.controller';
import { CancellationsService } from './cancellations.service';

/** Cancelling demands and bookings: above bookings, demands and receipts, which it changes. */
@Module({
  imports: [BookingsModule, DemandsModule, ReceiptsModule, GstSettingsModule, NumberingModule],
  controllers: [CancellationsController],
  providers: [CancellationsService],
})
export class CancellationsModule {}
