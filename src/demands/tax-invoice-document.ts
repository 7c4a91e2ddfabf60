import Decimal from 'decimal.js';
import type { DemandTaxRecord, TaxInvoiceDocument } from './demands.sql';

/**
 * The tax invoice of a new demand as it is frozen when issued (docs/gst.md), pure: the supplier
 * from the GST settings, the recipient from the booking (a GSTIN makes it a B2B invoice), one
 * line, the totals. Place of supply is where the flat is, the tenant's state: CGST + SGST always.
 */
export function invoiceDocument(input: {
  number: string;
  date: string;
  settings: {
    gstin: string | null;
    legalName: string | null;
    address: string | null;
    stateCode: string | null;
  };
  booking: {
    booking_number: string;
    unit_id: string;
    unit_name: string | null;
    buyer_name: string;
    buyer_address: string | null;
    buyer_gstin: string | null;
  };
  demand: { remarks: string; milestone: string | null; chargeType: string };
  /** Two-decimal text. */
  consideration: string;
  tax: DemandTaxRecord;
}): TaxInvoiceDocument {
  const { tax } = input;
  return {
    number: input.number,
    date: input.date,
    supplier: {
      legalName: input.settings.legalName ?? '',
      address: input.settings.address ?? '',
      gstin: input.settings.gstin ?? '',
      stateCode: input.settings.stateCode ?? '',
    },
    recipient: {
      name: input.booking.buyer_name,
      address: input.booking.buyer_address,
      gstin: input.booking.buyer_gstin,
      bookingNumber: input.booking.booking_number,
      unit: input.booking.unit_id,
      unitName: input.booking.unit_name,
    },
    placeOfSupply: { stateCode: input.settings.stateCode ?? '' },
    lines: [
      {
        description: lineDescription(input.demand, tax),
        sac: tax.sac,
        consideration: input.consideration,
        landDeduction: tax.landDeduction,
        taxableValue: tax.taxableValue,
        cgstRate: tax.cgstRate,
        cgst: tax.cgst,
        sgstRate: tax.sgstRate,
        sgst: tax.sgst,
      },
    ],
    totals: {
      consideration: input.consideration,
      taxableValue: tax.taxableValue,
      cgst: tax.cgst,
      sgst: tax.sgst,
      tax: tax.total,
      grossAmount: new Decimal(input.consideration).plus(tax.total).toFixed(2),
    },
    reverseCharge: false,
  };
}

const WHAT: Readonly<Record<string, string>> = {
  CONSTRUCTION: 'Construction service of a residential unit',
  OTHER_CHARGES: 'Other charges',
  INTEREST: 'Interest on delayed payment',
};

/** What is charged, its milestone or remarks, and the land deduction when there is one. */
function lineDescription(
  demand: { remarks: string; milestone: string | null; chargeType: string },
  tax: DemandTaxRecord,
): string {
  const what = WHAT[demand.chargeType] ?? demand.chargeType;
  const detail =
    demand.remarks.trim() !== ''
      ? demand.remarks
      : demand.milestone
        ? `milestone ${demand.milestone}`
        : '';
  const land = new Decimal(tax.landDeduction).gt(0) ? '; value of land deemed one third' : '';
  return `${what}${detail ? `: ${detail}` : ''}${land}`;
}
