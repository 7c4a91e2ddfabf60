import { ApiProperty } from '@nestjs/swagger';
import { MoneyView } from '@/common/money/money.view';
import { toMoney } from '@/common/money/money';
import { DemandMetaView } from '@/demands/dto/demand.view';
import type {
  CreditNoteDocument,
  CreditNoteLine,
  CreditNoteTotals,
  DecimalText,
  GstRecipient,
  GstSupplier,
  InvoiceDocument,
  InvoiceLine,
  InvoiceTotals,
} from '../gst-documents';

const MONEY_EXAMPLE = (amount: number, formatted: string) => ({
  amount,
  currency: 'INR',
  currencySymbol: '₹',
  formatted,
});

export class GstSupplierView {
  @ApiProperty({
    description: "The developer's legal name, from the GST settings when issued.",
    example: 'Skyline Developers Private Limited',
  })
  legalName: string;
  @ApiProperty({
    description: 'Its registered address.',
    example: '4th Floor, Trade Centre, Bandra Kurla Complex, Mumbai 400051',
  })
  address: string;
  @ApiProperty({ description: 'Its GSTIN.', example: '27AAPFU0939F1ZV' })
  gstin: string;
  @ApiProperty({ description: "The GSTIN's first two digits.", example: '27' })
  stateCode: string;
}

export class GstRecipientView {
  @ApiProperty({ description: "The buyer's name.", example: 'Ananya Iyer' })
  name: string;
  @ApiProperty({
    description: "The booking's buyerAddress when issued; null when it had none.",
    nullable: true,
    type: String,
    example: 'Flat 12, Sea View, Juhu, Mumbai 400049',
  })
  address: string | null;
  @ApiProperty({
    description: "The buyer's GSTIN (B2B); null for an unregistered buyer (B2C).",
    nullable: true,
    type: String,
    example: null,
  })
  gstin: string | null;
  @ApiProperty({ description: 'The booking.', example: 'BKG/26-27/00031' })
  bookingNumber: string;
  @ApiProperty({
    description: 'The unit booked.',
    format: 'uuid',
    example: 'c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f',
  })
  unit: string;
  @ApiProperty({
    description: "The unit's name, or null (the PDF then prints the unit's id).",
    nullable: true,
    type: String,
    example: 'Tower B – 1203',
  })
  unitName: string | null;
}

export class PlaceOfSupplyView {
  @ApiProperty({
    description: "GST state code: the supplier's (where the flat is).",
    example: '27',
  })
  stateCode: string;
  @ApiProperty({ description: "The state's name.", example: 'Maharashtra' })
  stateName: string;
}

/** What every line of a GST document states: the code, the amounts and each head with its rate. */
export class GstLineHeadsView {
  @ApiProperty({ description: 'Services accounting code.', example: '995411' })
  sac: string;
  @ApiProperty({
    type: MoneyView,
    description: "The consideration (the demand's totalAmount).",
    example: MONEY_EXAMPLE(1000000, '10,00,000.00'),
  })
  consideration: MoneyView;
  @ApiProperty({
    type: MoneyView,
    description: 'The consideration less the land deduction.',
    example: MONEY_EXAMPLE(666666.67, '6,66,666.67'),
  })
  taxableValue: MoneyView;
  @ApiProperty({ description: 'CGST rate, percent.', example: 3.75 })
  cgstRate: number;
  @ApiProperty({
    description: 'CGST on the taxable value, half-up to the paisa.',
    type: MoneyView,
    example: MONEY_EXAMPLE(25000, '25,000.00'),
  })
  cgst: MoneyView;
  @ApiProperty({ description: 'SGST rate, percent.', example: 3.75 })
  sgstRate: number;
  @ApiProperty({
    description: 'SGST on the taxable value, half-up to the paisa.',
    type: MoneyView,
    example: MONEY_EXAMPLE(25000, '25,000.00'),
  })
  sgst: MoneyView;
}

/** The sums of a GST document's lines. */
export class GstTotalsView {
  @ApiProperty({
    description: "The consideration (the demands' totalAmount).",
    type: MoneyView,
    example: MONEY_EXAMPLE(1000000, '10,00,000.00'),
  })
  consideration: MoneyView;
  @ApiProperty({
    description: 'The consideration less the land deduction.',
    type: MoneyView,
    example: MONEY_EXAMPLE(666666.67, '6,66,666.67'),
  })
  taxableValue: MoneyView;
  @ApiProperty({
    description: 'CGST, the sum of the lines.',
    type: MoneyView,
    example: MONEY_EXAMPLE(25000, '25,000.00'),
  })
  cgst: MoneyView;
  @ApiProperty({
    description: 'SGST, the sum of the lines.',
    type: MoneyView,
    example: MONEY_EXAMPLE(25000, '25,000.00'),
  })
  sgst: MoneyView;
  @ApiProperty({
    type: MoneyView,
    description: 'cgst + sgst.',
    example: MONEY_EXAMPLE(50000, '50,000.00'),
  })
  tax: MoneyView;
}

export class InvoiceLineView extends GstLineHeadsView {
  @ApiProperty({
    description: 'What is supplied: the milestone or remarks, and the land deduction.',
    example:
      'Construction service: Plinth completion, tower B (demand DMD/26-27/00007); value of land deemed one third of the consideration, deducted',
  })
  description: string;
  @ApiProperty({
    type: MoneyView,
    description: 'One third of the consideration for construction, else 0.00.',
    example: MONEY_EXAMPLE(333333.33, '3,33,333.33'),
  })
  landDeduction: MoneyView;
}

export class InvoiceTotalsView extends GstTotalsView {
  @ApiProperty({
    type: MoneyView,
    description: 'consideration + tax: what the buyer owes.',
    example: MONEY_EXAMPLE(1050000, '10,50,000.00'),
  })
  grossAmount: MoneyView;
}

/** GET /demands/{id}/invoice?format=json (docs/gst.md): frozen when issued. */
export class InvoiceView {
  @ApiProperty({ description: 'Tax invoice number.', example: 'INV/26-27/00001' })
  number: string;
  @ApiProperty({ description: "The demand's demandDate.", format: 'date', example: '2026-04-01' })
  date: string;
  @ApiProperty({
    description: 'The developer, as registered when the document was issued.',
    type: GstSupplierView,
  })
  supplier: GstSupplierView;
  @ApiProperty({
    description: 'The buyer, as known when the document was issued.',
    type: GstRecipientView,
  })
  recipient: GstRecipientView;
  @ApiProperty({
    description: "Where the flat is: the tenant's state (CGST + SGST, never IGST).",
    type: PlaceOfSupplyView,
  })
  placeOfSupply: PlaceOfSupplyView;
  @ApiProperty({
    description: 'One line per charge (per credited invoice line on a credit note).',
    type: [InvoiceLineView],
  })
  lines: InvoiceLineView[];
  @ApiProperty({ description: 'The sums of the lines.', type: InvoiceTotalsView })
  totals: InvoiceTotalsView;
  @ApiProperty({
    description: "totals.grossAmount in words in the tenant's locale.",
    example: 'Rupees Ten Lakh Fifty Thousand Only',
  })
  amountInWords: string;
  @ApiProperty({
    description: 'Always false: construction service is not taxed on reverse charge.',
    type: Boolean,
    enum: [false],
    example: false,
  })
  reverseCharge: false;
  @ApiProperty({ type: DemandMetaView, description: 'The demand the invoice is (DemandMeta).' })
  demand: DemandMetaView;
}

export class CreditedInvoiceView {
  @ApiProperty({ description: 'Tax invoice number.', example: 'INV/26-27/00001' })
  number: string;
  @ApiProperty({ description: 'Its date.', format: 'date', example: '2026-04-01' })
  date: string;
}

export class CreditNoteLineView extends GstLineHeadsView {
  @ApiProperty({
    description: 'The number of the invoice this line credits.',
    example: 'INV/26-27/00001',
  })
  invoice: string;
  @ApiProperty({
    description: "The invoice line's description.",
    example:
      'Construction service: Plinth completion, tower B (demand DMD/26-27/00007); value of land deemed one third of the consideration, deducted',
  })
  description: string;
}

export class CreditNoteTotalsView extends GstTotalsView {
  @ApiProperty({
    type: MoneyView,
    description: 'consideration + tax.',
    example: MONEY_EXAMPLE(1050000, '10,50,000.00'),
  })
  value: MoneyView;
}

/** GET /credit-notes/{id}?format=json (docs/gst.md). */
export class CreditNoteView {
  @ApiProperty({
    description: 'Credit note id.',
    format: 'uuid',
    example: '3c2b1a09-8f7e-4d6c-9b5a-4e3d2c1b0a9f',
  })
  id: string;
  @ApiProperty({ description: 'Credit note number.', example: 'CRN/26-27/00001' })
  number: string;
  @ApiProperty({ description: 'The cancel date.', format: 'date', example: '2026-06-15' })
  date: string;
  @ApiProperty({
    description: 'Why the demand was cancelled.',
    example: 'Booking cancelled by the buyer',
  })
  reason: string;
  @ApiProperty({ type: GstSupplierView, description: 'Copied from the invoices.' })
  supplier: GstSupplierView;
  @ApiProperty({ type: GstRecipientView, description: 'Copied from the invoices.' })
  recipient: GstRecipientView;
  @ApiProperty({ type: [CreditedInvoiceView], description: 'The invoices it credits.' })
  invoices: CreditedInvoiceView[];
  @ApiProperty({
    description: 'One line per charge (per credited invoice line on a credit note).',
    type: [CreditNoteLineView],
  })
  lines: CreditNoteLineView[];
  @ApiProperty({ description: 'The sums of the lines.', type: CreditNoteTotalsView })
  totals: CreditNoteTotalsView;
}

/** Wraps a document's decimal text as Money in the tenant's currency and locale. */
type MoneyOf = (amount: DecimalText) => MoneyView;

const moneyOf =
  (currency: string, locale: string): MoneyOf =>
  (amount) =>
    toMoney(amount, currency, locale);

const supplierView = (s: GstSupplier): GstSupplierView => ({ ...s });
const recipientView = (r: GstRecipient): GstRecipientView => ({ ...r });

const invoiceLineView = (l: InvoiceLine, money: MoneyOf): InvoiceLineView => ({
  description: l.description,
  sac: l.sac,
  consideration: money(l.consideration),
  landDeduction: money(l.landDeduction),
  taxableValue: money(l.taxableValue),
  cgstRate: Number(l.cgstRate),
  cgst: money(l.cgst),
  sgstRate: Number(l.sgstRate),
  sgst: money(l.sgst),
});

const invoiceTotalsView = (t: InvoiceTotals, money: MoneyOf): InvoiceTotalsView => ({
  consideration: money(t.consideration),
  taxableValue: money(t.taxableValue),
  cgst: money(t.cgst),
  sgst: money(t.sgst),
  tax: money(t.tax),
  grossAmount: money(t.grossAmount),
});

/** The JSON of an invoice: its document, amounts as Money, and the demand it is. */
export function toInvoiceView(
  invoice: InvoiceDocument,
  demand: DemandMetaView,
  currency: string,
  locale: string,
): InvoiceView {
  const money = moneyOf(currency, locale);
  return {
    number: invoice.number,
    date: invoice.date,
    supplier: supplierView(invoice.supplier),
    recipient: recipientView(invoice.recipient),
    placeOfSupply: { ...invoice.placeOfSupply },
    lines: invoice.lines.map((l) => invoiceLineView(l, money)),
    totals: invoiceTotalsView(invoice.totals, money),
    amountInWords: invoice.amountInWords,
    reverseCharge: false,
    demand,
  };
}

const creditNoteLineView = (l: CreditNoteLine, money: MoneyOf): CreditNoteLineView => ({
  invoice: l.invoice,
  description: l.description,
  sac: l.sac,
  consideration: money(l.consideration),
  taxableValue: money(l.taxableValue),
  cgstRate: Number(l.cgstRate),
  cgst: money(l.cgst),
  sgstRate: Number(l.sgstRate),
  sgst: money(l.sgst),
});

const creditNoteTotalsView = (t: CreditNoteTotals, money: MoneyOf): CreditNoteTotalsView => ({
  consideration: money(t.consideration),
  taxableValue: money(t.taxableValue),
  cgst: money(t.cgst),
  sgst: money(t.sgst),
  tax: money(t.tax),
  value: money(t.value),
});

/** The JSON of a credit note: its document with amounts as Money. */
export function toCreditNoteView(
  note: CreditNoteDocument,
  currency: string,
  locale: string,
): CreditNoteView {
  const money = moneyOf(currency, locale);
  return {
    id: note.id,
    number: note.number,
    date: note.date,
    reason: note.reason,
    supplier: supplierView(note.supplier),
    recipient: recipientView(note.recipient),
    invoices: note.invoices.map((i) => ({ number: i.number, date: i.date })),
    lines: note.lines.map((l) => creditNoteLineView(l, money)),
    totals: creditNoteTotalsView(note.totals, money),
  };
}
