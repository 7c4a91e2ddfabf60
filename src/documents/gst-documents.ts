/**
 * The GST documents as issued: the tax invoice of a taxed demand and the credit note of a
 * cancelled one (docs/gst.md). These are the frozen documents the PDFs are drawn from and the
 * JSON views are made of (dto/gst-documents.view.ts). Amounts are decimal text with exactly two
 * places and no grouping (`1000000.00`); rates are percent text (`3.75`), as the tax rule gives
 * them (src/gst/gst-tax.ts).
 */
import { gstStateName } from '@/gst/gst-states';

/** Two decimals, no grouping, never negative: `1000000.00`. */
export type DecimalText = string;

/** The developer issuing the document, from the tenant's GST settings when it was issued. */
export interface GstSupplier {
  legalName: string;
  address: string;
  gstin: string;
  /** The GSTIN's first two digits. */
  stateCode: string;
}

/** The buyer, from the booking when the document was issued. */
export interface GstRecipient {
  name: string;
  /** The booking's buyerAddress; null when it has none (allowed below 50,000.00 taxable, B2C). */
  address: string | null;
  /** The buyer's GSTIN (a B2B invoice), or null (B2C). */
  gstin: string | null;
  bookingNumber: string;
  /** The unit's id. */
  unit: string;
  /** The unit's name, or null (the unit's id is printed instead). */
  unitName: string | null;
}

export interface PlaceOfSupply {
  stateCode: string;
  stateName: string;
}

export interface InvoiceLine {
  /** Names the milestone or remarks, and the land deduction (invoiceLineDescription). */
  description: string;
  sac: string;
  consideration: DecimalText;
  landDeduction: DecimalText;
  taxableValue: DecimalText;
  /** Percent: `3.75`. */
  cgstRate: string;
  cgst: DecimalText;
  sgstRate: string;
  sgst: DecimalText;
}

export interface InvoiceTotals {
  consideration: DecimalText;
  taxableValue: DecimalText;
  cgst: DecimalText;
  sgst: DecimalText;
  /** cgst + sgst. */
  tax: DecimalText;
  /** consideration + tax. */
  grossAmount: DecimalText;
}

/** A tax invoice (GET /demands/{id}/invoice), without the demand the JSON view adds. */
export interface InvoiceDocument {
  /** `INV/26-27/00001`. */
  number: string;
  /** The demand's demandDate, `YYYY-MM-DD`. */
  date: string;
  supplier: GstSupplier;
  recipient: GstRecipient;
  placeOfSupply: PlaceOfSupply;
  lines: readonly InvoiceLine[];
  totals: InvoiceTotals;
  /** totals.grossAmount in words (amount-in-words.ts, the tenant's locale). */
  amountInWords: string;
  /** Construction service is never taxed on reverse charge. */
  reverseCharge: false;
}

export interface CreditedInvoice {
  number: string;
  /** `YYYY-MM-DD`. */
  date: string;
}

export interface CreditNoteLine {
  /** The number of the invoice the line credits (one of the note's invoices). */
  invoice: string;
  description: string;
  sac: string;
  consideration: DecimalText;
  taxableValue: DecimalText;
  cgstRate: string;
  cgst: DecimalText;
  sgstRate: string;
  sgst: DecimalText;
}

export interface CreditNoteTotals {
  consideration: DecimalText;
  taxableValue: DecimalText;
  cgst: DecimalText;
  sgst: DecimalText;
  tax: DecimalText;
  /** consideration + tax. */
  value: DecimalText;
}

/** A credit note (GET /credit-notes/{id}). */
export interface CreditNoteDocument {
  id: string;
  /** `CRN/26-27/00001`. */
  number: string;
  /** The cancel date, `YYYY-MM-DD`. */
  date: string;
  reason: string;
  /** Copied from the invoices it credits. */
  supplier: GstSupplier;
  recipient: GstRecipient;
  invoices: readonly CreditedInvoice[];
  lines: readonly CreditNoteLine[];
  totals: CreditNoteTotals;
}

/** How a document is printed: the tenant's locale and currency. */
export interface GstDocumentOptions {
  /** `en-IN`: amounts grouped 1,00,000.00, words in lakh and crore. */
  locale: string;
  /** `₹`. */
  currencySymbol: string;
  /** ISO 4217, for the credit note's value in words (the invoice carries its words); INR. */
  currency?: string;
}

/** What the description says of the land deduction (the tax rule deducts a third). */
export const LAND_DEDUCTION_NOTE = 'value of land deemed one third of the consideration';

/**
 * An invoice line's description: what is supplied, the milestone or remarks, and the land
 * deduction when there is one ("Construction service: Plinth completion, tower B (demand
 * DMD/26-27/00007); value of land deemed one third of the consideration, deducted").
 */
export function invoiceLineDescription(input: {
  chargeType: string;
  demandNumber: string;
  /** The milestone as printed (its name or id), or null. */
  milestone: string | null;
  remarks: string;
  landDeduction: DecimalText;
}): string {
  const what =
    input.chargeType === 'INTEREST'
      ? 'Interest on late payment'
      : input.chargeType === 'OTHER_CHARGES'
        ? 'Other charges'
        : 'Construction service';
  const remarks = input.remarks.trim();
  const particulars =
    remarks !== '' ? remarks : input.milestone !== null ? `milestone ${input.milestone}` : '';
  const head = particulars === '' ? what : `${what}: ${particulars}`;
  const land = /^0+(\.0+)?$/.test(input.landDeduction) ? '' : `; ${LAND_DEDUCTION_NOTE}, deducted`;
  return `${head} (demand ${input.demandNumber})${land}`;
}

/** The place of supply for the supplier's state code (the flat is in the tenant's state). */
export function placeOfSupply(stateCode: string): PlaceOfSupply {
  const stateName = gstStateName(stateCode);
  if (stateName === null) throw new RangeError(`not a GST state code: ${stateCode}`);
  return { stateCode, stateName };
}
