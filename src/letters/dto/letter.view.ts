import { ApiProperty, getSchemaPath } from '@nestjs/swagger';

/** A $ref that may be null (a sibling `nullable` of a $ref is ignored in OpenAPI 3.0). */
const orNull = (model: () => unknown, description: string) => ({
  oneOf: [
    { $ref: getSchemaPath(model() as never) },
    { type: 'object' as const, nullable: true, enum: [null], description },
  ],
});
import { MoneyView } from '@/common/money/money.view';
import { DemandMetaView } from '@/demands/dto/demand.view';

export class LetterTenantView {
  @ApiProperty({
    description: "The tenant's name, as the letter is signed.",
    example: 'Acme Homes',
  })
  name: string;
}

export class LetterBookingView {
  @ApiProperty({
    description: 'Booking id.',
    format: 'uuid',
    example: '5b4a3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d',
  })
  id: string;
  @ApiProperty({ description: 'Its number.', example: 'BKG/26-27/00031' })
  bookingNumber: string;
  @ApiProperty({
    description: 'The unit booked.',
    format: 'uuid',
    example: 'c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f',
  })
  unit: string;
  @ApiProperty({
    description: "The unit's name, or null (the letter then prints the unit's id).",
    nullable: true,
    type: String,
    example: 'Tower B – 1203',
  })
  unitName: string | null;
  @ApiProperty({ description: "The buyer's name.", example: 'Ananya Iyer' })
  buyerName: string;
  @ApiProperty({
    description: "The agreement's value, or null when the booking has none.",
    ...orNull(() => MoneyView, 'No agreement value.'),
    example: { amount: 8500000, currency: 'INR', currencySymbol: '₹', formatted: '85,00,000.00' },
  })
  agreementValue: MoneyView | null;
}

export class LetterPayerView {
  @ApiProperty({
    description: 'The payer of the split.',
    format: 'uuid',
    example: '0d9c8b7a-6f5e-4d3c-9b2a-1f0e9d8c7b6a',
  })
  payerId: string;
  @ApiProperty({
    description: 'BANK: the letter is a request for disbursement.',
    enum: ['BUYER', 'CO_BUYER', 'BANK', 'OTHER'],
    example: 'BANK',
  })
  payerType: string;
  @ApiProperty({
    description:
      "The payer's name as printed: the split's payerName, else a BUYER's is the booking's buyerName and any other its type's label (Co-buyer, Home-loan bank, Other).",
    example: 'HDFC Bank, Andheri branch',
  })
  payerName: string;
}

export class LetterPayToView {
  @ApiProperty({
    description: "The account's name.",
    example: 'HDFC collections (Skyline Heights)',
  })
  name: string;
  @ApiProperty({
    description: 'In full: the letter tells payers where to pay (masked everywhere else).',
    example: '50200012345678',
  })
  accountNumber: string;
  @ApiProperty({
    description: 'Branch IFSC.',
    example: 'HDFC0001234',
    nullable: true,
    type: String,
  })
  ifsc: string | null;
}

/** The GST line of a letter. */
export class LetterGstView {
  @ApiProperty({ description: 'The tax invoice the demand is.', example: 'INV/26-27/00001' })
  invoiceNumber: string;

  @ApiProperty({ description: 'The GST of that invoice (CGST + SGST).', type: MoneyView })
  tax: MoneyView;
}

/** GET /demands/{id}/letter?format=json (docs/letters.md). */
export class LetterView {
  @ApiProperty({ type: LetterTenantView, description: 'Who sends the letter.' })
  tenant: LetterTenantView;

  @ApiProperty({
    description: 'The letter is as of this date (asOf).',
    format: 'date',
    example: '2026-11-30',
  })
  letterDate: string;

  @ApiProperty({ type: DemandMetaView, description: 'The demand (DemandMeta).' })
  demand: DemandMetaView;

  @ApiProperty({ type: LetterBookingView, description: 'Its booking.' })
  booking: LetterBookingView;

  @ApiProperty({
    description: 'The payer the letter is addressed to; null: every payer of the demand.',
    ...orNull(() => LetterPayerView, 'Every payer.'),
    example: {
      payerId: '0d9c8b7a-6f5e-4d3c-9b2a-1f0e9d8c7b6a',
      payerType: 'BUYER',
      payerName: 'Ananya Iyer',
    },
  })
  payer: LetterPayerView | null;

  @ApiProperty({
    type: MoneyView,
    description: "What this demand still owes at asOf (with payerId: that payer's split).",
  })
  thisDemand: MoneyView;

  @ApiProperty({
    type: MoneyView,
    description:
      "What the booking (or the payer) owed at asOf on its other demands due before asOf: the ageing's overdue outstanding (GET /receivables/ageing).",
  })
  previousDues: MoneyView;

  @ApiProperty({
    type: MoneyView,
    description: 'Interest due at asOf (GET /bookings/{id}/interest, the booking or the payer).',
  })
  interestDue: MoneyView;

  @ApiProperty({ type: MoneyView, description: 'thisDemand + previousDues + interestDue.' })
  totalPayable: MoneyView;

  @ApiProperty({ description: "The demand's due date.", format: 'date', example: '2026-12-15' })
  dueDate: string;

  @ApiProperty({
    type: String,
    format: 'date',
    nullable: true,
    description:
      'The due date when it is before the letter date: the amount is overdue since then and payable now (the PDF says so instead of "on or before" a past date); null on or before the due date.',
    example: null,
  })
  overdueSince: string | null;

  @ApiProperty({
    description: "The tenant's collection account in its currency; null: pay as agreed.",
    ...orNull(() => LetterPayToView, 'No collection account: as agreed.'),
    example: {
      name: 'HDFC collections (Skyline Heights)',
      accountNumber: '50200012345678',
      ifsc: 'HDFC0001234',
    },
  })
  payTo: LetterPayToView | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'With an agreementValue of 50,00,000 or more and a payer other than BANK: the reminder to deduct TDS u/s 194-IA.',
    example: 'Deduct TDS at 1 % u/s 194-IA on this payment and share Form 16B.',
  })
  tdsNote: string | null;

  @ApiProperty({
    description:
      "A taxed demand's tax invoice and the GST it includes (the demand's whole invoice: the figures above are gross, tax included); null when the demand is untaxed.",
    ...orNull(() => LetterGstView, 'Untaxed: no GST.'),
    example: null,
  })
  gst: LetterGstView | null;
}
