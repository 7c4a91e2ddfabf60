import { ApiProperty } from '@nestjs/swagger';
import { MoneyView } from '@/common/money/money.view';

export class LetterFactView {
  @ApiProperty({ description: 'What the line names.', example: 'Booking' })
  label: string;
  @ApiProperty({ description: 'Its value as printed.', example: 'BKG/2026-27/000042' })
  value: string;
}

export class LetterFigureView {
  @ApiProperty({ description: 'The figure.', example: 'Deduction retained' })
  label: string;
  @ApiProperty({ description: 'Its amount.', type: MoneyView })
  amount: MoneyView;
  @ApiProperty({ description: 'The total line (the refund).', example: false })
  total: boolean;
}

/** The cancellation letter as printed, in JSON. */
export class CancellationLetterView {
  @ApiProperty({ description: 'Who signs it: the tenant.', example: 'Skyline Developers' })
  tenantName: string;
  @ApiProperty({ description: 'The heading.', example: 'CANCELLATION OF ALLOTMENT' })
  heading: string;
  @ApiProperty({
    description: 'Its date: the cancellation date.',
    format: 'date',
    example: '2026-06-20',
  })
  letterDate: string;
  @ApiProperty({ description: 'The addressee.', example: 'Ananya Iyer' })
  buyerName: string;
  @ApiProperty({ description: 'The booking.', example: 'BKG/2026-27/000042' })
  bookingNumber: string;
  @ApiProperty({ description: 'The unit as printed.', example: 'Tower B - 1203' })
  unit: string;
  @ApiProperty({
    description: 'The opening paragraph.',
    example: 'Your allotment of the unit below is cancelled at your request of 20 Jun 2026.',
  })
  intro: string;
  @ApiProperty({
    description: 'Booking, unit, buyer, value, dates, reason and the cap with its rule.',
    type: [LetterFactView],
  })
  facts: LetterFactView[];
  @ApiProperty({
    description: 'Paid, GST, deduction, GST on it, GST credited, GST to claim, refund.',
    type: [LetterFigureView],
  })
  computation: LetterFigureView[];
  @ApiProperty({ description: 'The credit notes issued, by number.', example: ['CRN/26-27/00001'] })
  creditNotes: string[];
  @ApiProperty({
    description:
      'When GST paid could no longer be credited (taxToClaim > 0) and the buyer has no GSTIN: that they may claim it from the GST authorities under Circular 188/20/2022-GST with this letter; else null.',
    type: 'string',
    nullable: true,
    example: null,
  })
  claimNote: string | null;
  @ApiProperty({
    description: 'When the refund is due, or when and how much was paid.',
    example: 'The refund will be paid on or before 04 Aug 2026.',
  })
  refundNote: string;
}
