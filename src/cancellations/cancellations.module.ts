import { Module } from '@nestjs/common';
import { BookingsModule } from '@/bookings/bookings.module';
import { DemandsModule } from '@/demands/demands.module';
import { ReceiptsModule } from '@/receipts/receipts.module';
import { GstSettingsModule } from '@/gst-settings/gst-settings.module';
import { InterestModule } from '@/interest/interest.module';
import { NumberingModule } from '@/numbering/numbering.module';
import { BookingCancellationsController } from './booking-cancellations.controller';
import { BookingCancellationsService } from './booking-cancellations.service';
import { CancellationPolicyController } from './cancellation-policy.controller';
import { CancellationPolicyService } from './cancellation-policy.service';
import { CancellationsController } from './cancellations.controller';
import { CancellationsService } from './cancellations.service';

/**
 * Cancelling demands and bookings (unpaid, or paid for: forfeiture, credit notes, refund), and
 * the tenant's cancellation policy: above bookings, demands, receipts and interest, which it reads
 * and changes.
 */
@Module({
  imports: [
    BookingsModule,
    DemandsModule,
    ReceiptsModule,
    GstSettingsModule,
    NumberingModule,
    InterestModule,
  ],
  controllers: [
    CancellationsController,
    CancellationPolicyController,
    BookingCancellationsController,
  ],
  providers: [CancellationsService, CancellationPolicyService, BookingCancellationsService],
  exports: [BookingCancellationsService],
})
export class CancellationsModule {}
