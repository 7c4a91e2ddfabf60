import { paiseText } from '@/common/money/paise';
import {
  ChargeType,
  demandTax,
  gstClass,
  GstClassInput,
  InterestTax,
  shareTax,
} from '@/gst/gst-tax';
import type { DemandTaxRecord } from './demands.sql';

/** The tenant's GST settings as a new demand reads them. */
export interface DemandTaxSettings {
  enabled: boolean;
  interestTax: InterestTax;
  otherChargesSac: string;
  /** `YYYY-MM`: the last month whose return is filed; null when none is. */
  lockedThrough: string | null;
}

/** What of the booking decides the tax and what an invoice must name. */
export interface DemandTaxBooking extends GstClassInput {
  buyerAddress: string | null;
  buyerGstin: string | null;
}

export type DemandTaxPlan =
  | { kind: 'UNTAXED' }
  | { kind: 'INVOICE_DATE_INVALID'; why: string }
  | { kind: 'BUYER_ADDRESS_REQUIRED'; taxableValue: string }
  | {
      kind: 'TAXED';
      tax: DemandTaxRecord;
      /** Paise: the tax's total. */
      total: bigint;
      /** Paise per split, in the order given. */
      splitTax: bigint[];
    };

/** A buyer without a GSTIN is named with an address from this taxable value up (rule 46). */
export const ADDRESS_REQUIRED_FROM = 5_000_000n;

/**
 * The tax of a new demand, pure (docs/gst.md): while GST is enabled, a demand whose charge type
 * and booking class the rate table covers is taxed on its consideration, and is a tax invoice
 * dated its demand date. So its date may be neither after today nor in or before the last filed
 * month (a filed return never gains a document), and a buyer without a GSTIN needs an address
 * from a taxable value of 50,000.00. `untaxed`: a bounce's charges, a penalty that is no
 * consideration, are never taxed.
 */
export function planDemandTax(input: {
  settings: DemandTaxSettings;
  booking: DemandTaxBooking;
  chargeType: ChargeType;
  /** Paise: the demand's totalAmount. */
  consideration: bigint;
  /** Paise, in the order the splits were given. */
  splitAmounts: readonly bigint[];
  demandDate: string;
  today: string;
  untaxed?: boolean;
}): DemandTaxPlan {
  if (!input.settings.enabled || input.untaxed) return { kind: 'UNTAXED' };
  const tax = demandTax({
    consideration: input.consideration,
    chargeType: input.chargeType,
    gstClass: gstClass(input.booking),
    interestTax: input.settings.interestTax,
    otherChargesSac: input.settings.otherChargesSac,
  });
  if (tax === null) return { kind: 'UNTAXED' };
  if (input.demandDate > input.today) {
    return { kind: 'INVOICE_DATE_INVALID', why: `it is after today (${input.today})` };
  }
  const locked = input.settings.lockedThrough;
  if (locked !== null && input.demandDate.slice(0, 7) <= locked) {
    return {
      kind: 'INVOICE_DATE_INVALID',
      why: `the return of ${locked} is filed: no invoice may be dated in or before it`,
    };
  }
  if (
    !input.booking.buyerGstin &&
    !input.booking.buyerAddress &&
    tax.taxableValue >= ADDRESS_REQUIRED_FROM
  ) {
    return { kind: 'BUYER_ADDRESS_REQUIRED', taxableValue: paiseText(tax.taxableValue) };
  }
  return {
    kind: 'TAXED',
    tax: {
      landDeduction: paiseText(tax.landDeduction),
      taxableValue: paiseText(tax.taxableValue),
      cgstRate: tax.cgstRate,
      cgst: paiseText(tax.cgst),
      sgstRate: tax.sgstRate,
      sgst: paiseText(tax.sgst),
      total: paiseText(tax.total),
      sac: tax.sac,
    },
    total: tax.total,
    splitTax: shareTax(tax.total, input.splitAmounts),
  };
}
