import { ApiProperty } from '@nestjs/swagger';
import { MoneyView } from '@/common/money/money.view';
import { PAYER_TYPES } from '@/common/domain/enums';
import { InterestWaiverView } from './interest-waiver.view';

export class InterestBookingView {
  @ApiProperty({
    description: 'Booking identifier.',
    format: 'uuid',
    example: '5b4a3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d',
  })
  id: string;
  @ApiProperty({ description: 'The booking number.', example: 'BKG/26-27/00012' })
  bookingNumber: string;
  @ApiProperty({
    description: 'The booked unit.',
    format: 'uuid',
    example: 'c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f',
  })
  unit: string;
  @ApiProperty({ description: 'Name of the buyer.', example: 'Ananya Iyer' }) buyerName: string;
}

/** A maximal run of consecutive days charged with one unpaid amount and one rate. */
export class InterestPeriodView {
  @ApiProperty({ description: 'First charged day.', format: 'date', example: '2026-01-02' })
  from: string;
  @ApiProperty({
    description: 'Last charged day (inclusive).',
    format: 'date',
    example: '2026-01-31',
  })
  to: string;
  @ApiProperty({ description: 'to - from + 1.', type: 'integer', example: 30 })
  days: number;
  @ApiProperty({ description: 'What was unpaid on each of these days.', type: MoneyView })
  unpaid: MoneyView;
  @ApiProperty({ description: 'The rate in force on these days (percent a year).', example: 11.1 })
  annualRatePercent: number;
  @ApiProperty({
    description:
      "unpaid x days x rate / 100 / 365, shown to the paisa for reading; the split's accrued is the exact sum rounded once, so periods may differ from it by rounding.",
    type: MoneyView,
  })
  interest: MoneyView;
}

export class InterestSplitView {
  @ApiProperty({
    description: 'The demand split bearing the interest.',
    format: 'uuid',
    example: '3f1c2a9e-8b7d-4e6f-9a1b-2c3d4e5f6a7b',
  })
  demandSplit: string;
  @ApiProperty({
    description: 'Its demand.',
    format: 'uuid',
    example: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
  })
  demand: string;
  @ApiProperty({ description: "The demand's number.", example: 'DMD/25-26/00007' })
  demandNumber: string;
  @ApiProperty({ description: 'Who pays the split.', enum: PAYER_TYPES, example: 'BUYER' })
  payerType: string;
  @ApiProperty({
    description: 'The payer of the split.',
    format: 'uuid',
    example: '0d9c8b7a-6f5e-4d3c-9b2a-1f0e9d8c7b6a',
  })
  payerId: string;
  @ApiProperty({
    description: "The demand's due date; interest runs from the day after it plus graceDays.",
    format: 'date',
    example: '2026-01-01',
  })
  dueDate: string;
  @ApiProperty({
    description: 'The days charged, oldest first (empty when paid in time).',
    type: [InterestPeriodView],
  })
  periods: InterestPeriodView[];
  @ApiProperty({
    description: 'The exact interest of the split, rounded half-up to paisa once.',
    type: MoneyView,
  })
  accrued: MoneyView;
}

export class PayerInterestView {
  @ApiProperty({
    description: "The payer (a payerId of the booking's splits, demands or waivers).",
    format: 'uuid',
    example: '0d9c8b7a-6f5e-4d3c-9b2a-1f0e9d8c7b6a',
  })
  payerId: string;
  @ApiProperty({ description: "The sum of the payer's splits' accrued.", type: MoneyView })
  accrued: MoneyView;
  @ApiProperty({
    description:
      'Interest demands dated on or before asOf, not cancelled at asOf, whose interestThrough is on or before asOf.',
    type: MoneyView,
  })
  demanded: MoneyView;
  @ApiProperty({ description: 'Waivers dated on or before asOf.', type: MoneyView })
  waived: MoneyView;
  @ApiProperty({ description: 'accrued - demanded - waived, never below 0.', type: MoneyView })
  due: MoneyView;
}

export class InterestTotalsView {
  @ApiProperty({ description: "The sum of the payers' accrued.", type: MoneyView })
  accrued: MoneyView;
  @ApiProperty({ description: "The sum of the payers' demanded.", type: MoneyView })
  demanded: MoneyView;
  @ApiProperty({ description: "The sum of the payers' waived.", type: MoneyView })
  waived: MoneyView;
  @ApiProperty({ description: "The sum of the payers' due.", type: MoneyView }) due: MoneyView;
}

/** GET /bookings/{id}/interest. */
export class BookingInterestView {
  @ApiProperty({ description: 'The booking.', type: InterestBookingView })
  booking: InterestBookingView;
  @ApiProperty({
    description: 'The business date (YYYY-MM-DD).',
    format: 'date',
    example: '2026-06-30',
  })
  asOf: string;
  @ApiProperty({
    description: "Whether the tenant's policy is enabled; when not, accrued and due are 0.",
    example: true,
  })
  enabled: boolean;
  @ApiProperty({
    description:
      "The covered splits existing at asOf (of the policy's demand and payer types, not cancelled at asOf), oldest due first; empty while the policy is disabled.",
    type: [InterestSplitView],
  })
  splits: InterestSplitView[];
  @ApiProperty({
    description: 'Per payer, in order of first appearance.',
    type: [PayerInterestView],
  })
  payers: PayerInterestView[];
  @ApiProperty({
    description: 'Waivers dated on or before asOf, oldest first.',
    type: [InterestWaiverView],
  })
  waivers: InterestWaiverView[];
  @ApiProperty({ description: 'The booking in all, over every payer.', type: InterestTotalsView })
  totals: InterestTotalsView;
}
