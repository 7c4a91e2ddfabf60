import { ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { MoneyView } from '@/common/money/money.view';
import { CANCELLATION_RULES } from './cancellation-policy.request';
import { INITIATED_BY, REFUND_PAYMENT_MODES } from './booking-cancellation.request';

const money = (description: string) => ({ type: MoneyView, description });

export class InvoiceRefView {
  @ApiProperty({ description: 'The tax invoice number.', example: 'INV/2026-27/000001' })
  number: string;
  @ApiProperty({ description: 'Its date.', format: 'date', example: '2026-05-10' })
  date: string;
}

export class CreditHeadsView {
  @ApiProperty(money('Taxable value credited: the invoiced less that of what is retained.'))
  taxableValue: MoneyView;
  @ApiProperty(money('CGST credited.'))
  cgst: MoneyView;
  @ApiProperty(money('SGST credited.'))
  sgst: MoneyView;
}

export class CreditNoteFiguresView extends CreditHeadsView {
  @ApiProperty(money('CGST plus SGST credited.'))
  tax: MoneyView;
}

export class PaidFiguresView {
  @ApiProperty(money('What the ACTIVE receipts paid, less its tax.'))
  consideration: MoneyView;
  @ApiProperty(money('The tax in it: per demand, paid x tax / grossAmount, rounded.'))
  tax: MoneyView;
  @ApiProperty(money('Everything the ACTIVE receipts paid.'))
  total: MoneyView;
}

export class CancelledDemandView {
  @ApiProperty({
    description: 'The demand.',
    format: 'uuid',
    example: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
  })
  demand: string;
  @ApiProperty({ description: 'Its number.', example: 'DEM/2026-27/000001' })
  demandNumber: string;
  @ApiProperty({
    description: 'CONSTRUCTION, OTHER_CHARGES or INTEREST.',
    enum: ['CONSTRUCTION', 'OTHER_CHARGES', 'INTEREST'],
    example: 'CONSTRUCTION',
  })
  chargeType: string;
  @ApiProperty({
    description: 'Its tax invoice; null when untaxed.',
    oneOf: [
      { $ref: getSchemaPath(InvoiceRefView) },
      { type: 'object', nullable: true, enum: [null], description: 'Untaxed.' },
    ],
    example: null,
  })
  invoice: InvoiceRefView | null;
  @ApiProperty(money('What it asked for: its amount plus its tax.'))
  grossAmount: MoneyView;
  @ApiProperty(money('What its ACTIVE receipts paid.'))
  paid: MoneyView;
  @ApiProperty(money('paid less paidTax.'))
  paidConsideration: MoneyView;
  @ApiProperty(money('round(paid x tax / grossAmount); 0 when untaxed.'))
  paidTax: MoneyView;
  @ApiProperty(
    money(
      'What the developer keeps of its paid consideration: its part of the deduction (CONSTRUCTION, oldest first), all of it (INTEREST when the buyer withdraws), else 0.',
    ),
  )
  retained: MoneyView;
  @ApiProperty(money('The GST of what is retained (its own rates and land rule); 0 when untaxed.'))
  keptTax: MoneyView;
  @ApiProperty({
    description:
      'What its credit note credits: the invoice less what is kept (0 when time-barred or untaxed).',
    type: CreditHeadsView,
  })
  credit: CreditHeadsView;
  @ApiProperty(money('What is refunded of it.'))
  refund: MoneyView;
  @ApiProperty(
    money(
      'GST paid that can no longer be credited (time-barred): the buyer claims it from the government.',
    ),
  )
  taxToClaim: MoneyView;
  @ApiProperty({
    description:
      "Its invoice's credit-note window (CGST Act section 34(2)) had closed on the cancellation date.",
    example: false,
  })
  timeBarred: boolean;
}

export class PayerShareView {
  @ApiProperty({ description: 'The payer.', example: 'BUY-001' })
  payerId: string;
  @ApiProperty({ description: 'Its payer type.', example: 'BUYER' })
  payerType: string;
  @ApiProperty(money('What it paid (ACTIVE receipts).'))
  paid: MoneyView;
  @ApiProperty(money('Its share of the refund, in proportion to what it paid (largest remainder).'))
  refund: MoneyView;
}

/** The figures of a cancellation, whether quoted or made. */
export class CancellationFiguresView {
  @ApiProperty({
    description: 'The booking.',
    format: 'uuid',
    example: '5b4a3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d',
  })
  booking: string;
  @ApiProperty({
    description: 'When the cancellation was asked for.',
    format: 'date',
    example: '2026-06-20',
  })
  requestedOn: string;
  @ApiProperty({ description: 'Who ended the sale.', enum: INITIATED_BY, example: 'BUYER' })
  initiatedBy: string;
  @ApiProperty({
    description: "The policy's rule.",
    enum: CANCELLATION_RULES,
    example: 'MAHARERA_2022',
  })
  rule: string;
  @ApiProperty({
    description: 'Days from allotmentDate to requestedOn (0 when before).',
    example: 50,
  })
  days: number;
  @ApiProperty({
    description: 'The percent of agreementValue the developer may keep.',
    example: 1.5,
  })
  capPercent: number;
  @ApiProperty(money('round(agreementValue x capPercent / 100); 0 without an agreementValue.'))
  cap: MoneyView;
  @ApiProperty({
    description: "The agreement's value, or null when not given.",
    oneOf: [
      { $ref: getSchemaPath(MoneyView) },
      { type: 'object', nullable: true, enum: [null], description: 'Not given.' },
    ],
    example: null,
  })
  agreementValue: MoneyView | null;
  @ApiProperty({ description: 'What the ACTIVE receipts paid.', type: PaidFiguresView })
  paid: PaidFiguresView;
  @ApiProperty(
    money(
      'min(cap, paid consideration of CONSTRUCTION demands); 0 when the developer is at fault.',
    ),
  )
  deduction: MoneyView;
  @ApiProperty(money('The GST of what is retained (the sum of keptTax).'))
  taxRetained: MoneyView;
  @ApiProperty(money('GST the buyer claims from the government (time-barred invoices).'))
  taxToClaim: MoneyView;
  @ApiProperty({ description: 'Per demand not already cancelled.', type: [CancelledDemandView] })
  demands: CancelledDemandView[];
  @ApiProperty({
    description: 'What the credit notes credit in all; null when nothing is credited.',
    oneOf: [
      { $ref: getSchemaPath(CreditNoteFiguresView) },
      { type: 'object', nullable: true, enum: [null], description: 'Nothing credited.' },
    ],
    example: null,
  })
  creditNote: CreditNoteFiguresView | null;
  @ApiProperty({
    description: 'requestedOn + the policy refundDays.',
    format: 'date',
    example: '2026-08-04',
  })
  refundDueDate: string;
  @ApiProperty({ description: 'The refund shared per payer.', type: [PayerShareView] })
  byPayer: PayerShareView[];
}

export class CancellationQuoteView extends CancellationFiguresView {
  @ApiProperty(money('What is refunded: the sum of the demands refund.'))
  refund: MoneyView;
}

export class RefundView {
  @ApiProperty(money('The refund owed (the figures refund).'))
  amount: MoneyView;
  @ApiProperty({ description: 'When it falls due.', format: 'date', example: '2026-08-04' })
  dueDate: string;
  @ApiProperty({ description: 'DUE until paid, then PAID.', enum: ['DUE', 'PAID'], example: 'DUE' })
  status: string;
  @ApiProperty({
    description: 'When it was paid; null while DUE.',
    type: 'string',
    format: 'date',
    nullable: true,
    example: null,
  })
  paidOn: string | null;
  @ApiProperty({
    description:
      'Interest paid with it (late, or from each payment when the developer is at fault); null while DUE.',
    oneOf: [
      { $ref: getSchemaPath(MoneyView) },
      { type: 'object', nullable: true, enum: [null], description: 'Not paid yet.' },
    ],
    example: null,
  })
  interest: MoneyView | null;
  @ApiProperty({
    description: 'amount + interest; null while DUE.',
    oneOf: [
      { $ref: getSchemaPath(MoneyView) },
      { type: 'object', nullable: true, enum: [null], description: 'Not paid yet.' },
    ],
    example: null,
  })
  paidAmount: MoneyView | null;
  @ApiProperty({
    description: `How it was paid (${REFUND_PAYMENT_MODES.join(', ')}); null while DUE or when there was nothing to pay.`,
    type: 'string',
    nullable: true,
    example: null,
  })
  paymentMode: string | null;
  @ApiProperty({
    description: 'Its bank reference; null while DUE.',
    type: 'string',
    nullable: true,
    example: null,
  })
  transactionRef: string | null;
  @ApiProperty({
    description:
      'Its voucher number (the refund series, RFD); null while DUE or when nothing was paid.',
    type: 'string',
    nullable: true,
    example: null,
  })
  voucherNumber: string | null;
}

export class CancellationCreditNoteView {
  @ApiProperty({
    description: 'The credit note (GET /credit-notes/{id}).',
    format: 'uuid',
    example: '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
  })
  id: string;
  @ApiProperty({ description: 'Its number.', example: 'CRN/2026-27/000001' })
  number: string;
  @ApiProperty({
    description: 'Its date: the cancellation date.',
    format: 'date',
    example: '2026-06-20',
  })
  date: string;
  @ApiProperty(money('Taxable value it credits.'))
  taxableValue: MoneyView;
  @ApiProperty(money('CGST plus SGST it credits.'))
  tax: MoneyView;
}

export class CancellationView extends CancellationFiguresView {
  @ApiProperty({
    description: 'The cancellation.',
    format: 'uuid',
    example: '7c6b5a4d-3e2f-4a1b-9c8d-7e6f5a4b3c2d',
  })
  id: string;
  @ApiProperty({
    description: "When it was made (the tenant's today).",
    format: 'date',
    example: '2026-06-20',
  })
  cancelledOn: string;
  @ApiProperty({ description: 'Why.', example: 'Buyer withdrew: relocating abroad' })
  reason: string;
  @ApiProperty({ description: 'Who made it (the token user).', example: 'finance.head' })
  createdBy: string;
  @ApiProperty({
    description: 'The credit notes it issued, one per financial year of the invoices.',
    type: [CancellationCreditNoteView],
  })
  creditNotes: CancellationCreditNoteView[];
  @ApiProperty({ description: 'The refund.', type: RefundView })
  refund: RefundView;
}

export class RefundQueueItemView {
  @ApiProperty({
    description: 'The cancellation.',
    format: 'uuid',
    example: '7c6b5a4d-3e2f-4a1b-9c8d-7e6f5a4b3c2d',
  })
  cancellation: string;
  @ApiProperty({
    description: 'The booking.',
    format: 'uuid',
    example: '5b4a3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d',
  })
  booking: string;
  @ApiProperty({ description: 'Its number.', example: 'BKG/2026-27/000042' })
  bookingNumber: string;
  @ApiProperty({ description: 'The buyer.', example: 'Asha Rao' })
  buyerName: string;
  @ApiProperty(money('The refund.'))
  amount: MoneyView;
  @ApiProperty({ description: 'When it falls due.', format: 'date', example: '2026-08-04' })
  dueDate: string;
  @ApiProperty({
    description:
      'Days past the due date: today (unpaid) or the day paid, less the due date; 0 when not late.',
    example: 10,
  })
  daysOverdue: number;
  @ApiProperty(money('Unpaid: the interest owed if paid today; paid: the interest that was paid.'))
  interestToday: MoneyView;
  @ApiProperty({
    description: 'DUE, OVERDUE (due before today, unpaid) or PAID.',
    enum: ['DUE', 'OVERDUE', 'PAID'],
    example: 'OVERDUE',
  })
  status: string;
}

export class RefundQueuePage {
  @ApiProperty({
    description: 'The refunds of this page, oldest due first.',
    type: [RefundQueueItemView],
  })
  content: RefundQueueItemView[];
  @ApiProperty({ description: 'How many refunds the filter selects.', example: 1 })
  totalElements: number;
}
