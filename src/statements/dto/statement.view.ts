import { ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { MoneyView } from '@/common/money/money.view';
import { ENTRY_KINDS, EntryKind } from '@/ledger/booking-ledger';

/**
 * Money or null. OpenAPI 3.0's `nullable` beside a `$ref` does not admit null (it only widens a
 * `type` in the same schema), so null is its own branch.
 */
const MONEY_OR_NULL = {
  oneOf: [
    { $ref: getSchemaPath(MoneyView) },
    { type: 'object', nullable: true, enum: [null], description: 'No amount on this side.' },
  ],
};

const MONEY_EXAMPLE = {
  amount: 250000,
  currency: 'INR',
  currencySymbol: '₹',
  formatted: '2,50,000.00',
};

export class StatementBookingView {
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
  @ApiProperty({ description: 'Name of the buyer.', example: 'Ananya Iyer' })
  buyerName: string;
}

export class StatementRefView {
  @ApiProperty({
    description: 'The record the entry comes from.',
    enum: ['demand', 'receipt', 'cancellation'],
    example: 'receipt',
  })
  type: 'demand' | 'receipt' | 'cancellation';
  @ApiProperty({
    description: 'Its id (GET /demands/{id}, GET /receipts/{id} or GET /cancellations/{id}).',
    format: 'uuid',
    example: 'e7d6c5b4-a3f2-4e1d-9c0b-8a7f6e5d4c3b',
  })
  id: string;
}

export class StatementEntryView {
  @ApiProperty({
    description:
      "The business date: the demand's demandDate, the receipt's receivedDate, or the date it was cancelled or bounced (statusChangedOn), the demand's cancel date, the booking's cancelledOn, or the day its refund was paid.",
    format: 'date',
    example: '2026-11-22',
  })
  date: string;
  @ApiProperty({
    description:
      'DEMAND (a debit; INTEREST demands too), RECEIPT (a credit), RECEIPT_REVERSED (a debit: the receipt was cancelled or bounced), DEMAND_CANCELLED (a credit), CANCELLATION (a credit of the balance before it plus the refund: the balance becomes minus the refund the developer owes; the demands it cancels get no DEMAND_CANCELLED), REFUND_INTEREST (a credit: interest on the refund) and REFUND (a debit: the refund paid, closing at 0). Same date: in this order.',
    enum: ENTRY_KINDS,
    example: 'RECEIPT',
  })
  kind: EntryKind;
  @ApiProperty({
    description:
      "The demand number or the receipt number; the refund's voucher number (REFUND, REFUND_INTEREST); empty for CANCELLATION.",
    example: 'RCT/26-27/00042',
  })
  documentNumber: string;
  @ApiProperty({
    description:
      'Demands: the remarks (else the milestone). Receipts: payment mode, reference and payer (TDS: "TDS deducted u/s 194-IA, 26QB <ack>"). Reversals: cancelled or bounced, and why.',
    example: 'NEFT UTR2026112200042 from Ananya Iyer',
  })
  particulars: string;
  @ApiProperty({
    description: 'The due date of the demand (for a receipt: of the demand it pays).',
    format: 'date',
    example: '2026-12-15',
  })
  dueDate: string;
  @ApiProperty({
    description: 'The amount owed more (demands, reversals); null for a credit.',
    ...MONEY_OR_NULL,
    example: MONEY_EXAMPLE,
  })
  debit: MoneyView | null;
  @ApiProperty({
    description: 'The amount owed less (receipts, cancelled demands); null for a debit.',
    ...MONEY_OR_NULL,
    example: null,
  })
  credit: MoneyView | null;
  @ApiProperty({
    description: 'The running balance after this entry: opening balance + debits - credits so far.',
    type: MoneyView,
  })
  balance: MoneyView;
  @ApiProperty({ description: 'The demand or receipt of the entry.', type: StatementRefView })
  ref: StatementRefView;
}

export class StatementTotalsView {
  @ApiProperty({
    description: 'Demand debits - cancellation credits, from the first entry through to.',
    type: MoneyView,
  })
  demanded: MoneyView;
  @ApiProperty({
    description: 'Receipt credits - reversal debits, from the first entry through to.',
    type: MoneyView,
  })
  received: MoneyView;
  @ApiProperty({ description: 'demanded - received (= closingBalance).', type: MoneyView })
  outstanding: MoneyView;
  @ApiProperty({
    description: 'The part of outstanding on splits due before asOf.',
    type: MoneyView,
  })
  overdue: MoneyView;
  @ApiProperty({ description: 'outstanding - overdue.', type: MoneyView })
  notYetDue: MoneyView;
  @ApiProperty({
    description: 'Interest on late payment accrued at asOf (GET /bookings/{id}/interest).',
    type: MoneyView,
  })
  interestAccrued: MoneyView;
  @ApiProperty({
    description:
      'Interest demanded at asOf: interest demands dated on or before asOf, not cancelled at asOf, whose interestThrough is on or before asOf.',
    type: MoneyView,
  })
  interestDemanded: MoneyView;
  @ApiProperty({ description: 'Interest waived on or before asOf.', type: MoneyView })
  interestWaived: MoneyView;
}

export class StatementView {
  @ApiProperty({ description: 'The booking.', type: StatementBookingView })
  booking: StatementBookingView;
  @ApiProperty({
    description:
      "The statement's first day: the from parameter, else the first entry's date (or to when there is none).",
    format: 'date',
    example: '2025-04-01',
  })
  from: string;
  @ApiProperty({
    description: "The statement's last day: the to parameter, else asOf.",
    format: 'date',
    example: '2026-11-30',
  })
  to: string;
  @ApiProperty({
    description: 'The business date the statement stands on.',
    format: 'date',
    example: '2026-11-30',
  })
  asOf: string;
  @ApiProperty({
    description: 'Debits - credits of every entry dated before from (0 without from).',
    type: MoneyView,
    example: MONEY_EXAMPLE,
  })
  openingBalance: MoneyView;
  @ApiProperty({
    description:
      'Every entry dated from..to, oldest first; on one date demands, then receipts, then reversals (a receipt, then a demand cancelled), then by document number.',
    type: [StatementEntryView],
  })
  entries: StatementEntryView[];
  @ApiProperty({
    description: 'openingBalance + debits - credits of the entries (= totals.outstanding).',
    type: MoneyView,
  })
  closingBalance: MoneyView;
  @ApiProperty({ description: 'Totals through to; interest at asOf.', type: StatementTotalsView })
  totals: StatementTotalsView;
}
