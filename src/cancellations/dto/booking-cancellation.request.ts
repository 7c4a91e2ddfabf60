import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { PAYMENT_MODES } from '@/common/domain/enums';
import { IsLocalDate, IsNotBlank } from '@/common/field-validators';

export const INITIATED_BY = ['BUYER', 'PROMOTER_DEFAULT'] as const;

/** Every payment mode a refund may go by: a receipt's, but not TDS (no tax is deducted back). */
export const REFUND_PAYMENT_MODES = PAYMENT_MODES.filter((m) => m !== 'TDS');

export class BookingCancellationRequest {
  @ApiPropertyOptional({
    description:
      "The day the cancellation was asked for (YYYY-MM-DD; default today, not after today nor before the bookingDate, else 400): the days since allotment and the refund's due date count from it.",
    format: 'date',
    example: '2026-06-20',
  })
  @IsOptional()
  @IsLocalDate()
  requestedOn?: string;

  @ApiPropertyOptional({
    description:
      'BUYER (default: the buyer withdraws or defaults; the developer keeps what the policy caps) or PROMOTER_DEFAULT (RERA section 18: the developer fails to deliver, keeps nothing and pays interest from each payment).',
    enum: INITIATED_BY,
    example: 'BUYER',
  })
  @IsOptional()
  @IsIn(INITIATED_BY)
  initiatedBy?: (typeof INITIATED_BY)[number];

  @ApiProperty({
    description: 'Why the booking is cancelled (kept, printed on the letter); 1 to 500 characters.',
    example: 'Buyer withdrew: relocating abroad',
    minLength: 1,
    maxLength: 500,
  })
  @IsString()
  @IsNotBlank()
  @MaxLength(500)
  reason: string;
}

export class RefundRequest {
  @ApiProperty({
    description:
      'The day the refund was paid (YYYY-MM-DD; not after today nor before the cancellation, else 400).',
    format: 'date',
    example: '2026-08-14',
  })
  @IsLocalDate()
  paidOn: string;

  @ApiProperty({
    description:
      'How it was paid: a receipt mode but TDS. CASH or OTHER for 20,000.00 or more is 422 REFUND_MODE_NOT_ALLOWED (income-tax section 269T).',
    enum: REFUND_PAYMENT_MODES,
    example: 'NEFT',
  })
  @IsIn(REFUND_PAYMENT_MODES)
  paymentMode: (typeof REFUND_PAYMENT_MODES)[number];

  @ApiProperty({
    description: 'Bank reference, cheque number...; may be empty; at most 100 characters.',
    example: 'UTR20260814000321',
    maxLength: 100,
  })
  @IsString()
  @MaxLength(100)
  transactionRef: string;
}

export const BOOKING_CANCELLATION_EXAMPLES = {
  buyer: {
    summary: 'The buyer withdraws',
    value: {
      requestedOn: '2026-06-20',
      initiatedBy: 'BUYER',
      reason: 'Buyer withdrew: relocating abroad',
    },
  },
  promoter: {
    summary: 'The developer is at fault',
    value: { initiatedBy: 'PROMOTER_DEFAULT', reason: 'Possession not given by the agreed date' },
  },
};
