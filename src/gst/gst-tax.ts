import Decimal from 'decimal.js';
import { divideHalfUp, paiseText, toPaise } from '@/common/money/paise';

/**
 * The GST rule of a developer's demands (docs/gst.md), pure: no database, no clock.
 *
 * Money is whole paise in a BigInt and rates are basis points (3.75 % = 375), so every product
 * is a whole number and the only inexact step is the one half-up rounding to the paisa of each
 * head. CGST and SGST are each computed from their own rate, never as a combined rate halved:
 * halving rounds differently (7,77,777.00 gives 19,444.43 each, not 38,888.85 / 2).
 */

// ---------------------------------------------------------------------------------------------
// GSTIN

/** State codes 01-38, and 97 (other territory). */
const GSTIN_FORM = /^(?:0[1-9]|[12][0-9]|3[0-8]|97)[A-Z]{5}[0-9]{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/;
const GSTIN_CHARS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** The check character of the first 14 characters of a GSTIN (upper case). */
export function gstinCheckChar(first14: string): string {
  let sum = 0;
  for (let i = 0; i < 14; i++) {
    const value = GSTIN_CHARS.indexOf(first14[i]);
    if (value < 0) throw new RangeError(`not a GSTIN character: ${JSON.stringify(first14[i])}`);
    const product = value * (i % 2 === 0 ? 1 : 2);
    sum += Math.floor(product / 36) + (product % 36);
  }
  return GSTIN_CHARS[(36 - (sum % 36)) % 36];
}

/**
 * Upper-cases and trims what a person typed, so `27aapfu0939f1zv ` is accepted as the GSTIN it
 * means; `gstinValid` itself takes the canonical upper-case form only.
 */
export function normaliseGstin(input: string): string {
  return input.trim().toUpperCase();
}

/** True for a 15-character upper-case GSTIN of the right form whose check character agrees. */
export function gstinValid(gstin: string): boolean {
  if (typeof gstin !== 'string' || !GSTIN_FORM.test(gstin)) return false;
  return gstinCheckChar(gstin.slice(0, 14)) === gstin[14];
}

// ---------------------------------------------------------------------------------------------
// The booking's class

export const GST_CLASSES = ['EXEMPT', 'AFFORDABLE', 'STANDARD'] as const;
export type GstClass = (typeof GST_CLASSES)[number];

export interface GstClassInput {
  gstExempt: boolean;
  /** Decimal text, or null when not known. */
  carpetAreaSqm: string | null;
  metroCity: boolean;
  /** Decimal text in rupees, or null when not known. */
  agreementValue: string | null;
}

const AFFORDABLE_AREA_METRO = new Decimal(60);
const AFFORDABLE_AREA_ELSEWHERE = new Decimal(90);
const AFFORDABLE_VALUE = new Decimal(4_500_000);

/** Affordable needs both the carpet area and the agreement value: unknown means standard. */
export function gstClass(input: GstClassInput): GstClass {
  if (input.gstExempt) return 'EXEMPT';
  if (input.carpetAreaSqm === null || input.agreementValue === null) return 'STANDARD';
  const areaLimit = input.metroCity ? AFFORDABLE_AREA_METRO : AFFORDABLE_AREA_ELSEWHERE;
  const affordable =
    new Decimal(input.carpetAreaSqm).lte(areaLimit) &&
    new Decimal(input.agreementValue).lte(AFFORDABLE_VALUE);
  return affordable ? 'AFFORDABLE' : 'STANDARD';
}

// ---------------------------------------------------------------------------------------------
// Tax on a demand

export const CHARGE_TYPES = ['CONSTRUCTION', 'OTHER_CHARGES', 'INTEREST'] as const;
export type ChargeType = (typeof CHARGE_TYPES)[number];

export const INTEREST_TAX_MODES = ['AS_PRINCIPAL', 'STANDARD_18'] as const;
export type InterestTax = (typeof INTEREST_TAX_MODES)[number];

/** Construction service of a residential flat (and interest taxed as its principal). */
export const CONSTRUCTION_SAC = '995411';
export const DEFAULT_OTHER_CHARGES_SAC = '999799';

export interface DemandTaxInput {
  /** The demand's totalAmount C, in paise. */
  consideration: bigint;
  chargeType: ChargeType;
  gstClass: GstClass;
  interestTax: InterestTax;
  otherChargesSac?: string;
}

export interface DemandTax {
  landDeduction: bigint;
  taxableValue: bigint;
  /** Percent with two decimals: `3.75`. */
  cgstRate: string;
  sgstRate: string;
  cgst: bigint;
  sgst: bigint;
  /** cgst + sgst. */
  total: bigint;
  /** consideration + total. */
  grossAmount: bigint;
  sac: string;
}

/** How one kind of demand is taxed: rate per head in basis points, whether land is deducted. */
interface TaxTreatment {
  rateBp: bigint;
  landThird: boolean;
  sac: string;
}

const CONSTRUCTION_RATE_BP: Record<Exclude<GstClass, 'EXEMPT'>, bigint> = {
  STANDARD: 375n,
  AFFORDABLE: 75n,
};
const FULL_RATE_BP = 900n;

/** The table of the rule; null = untaxed. */
export function taxTreatment(
  chargeType: ChargeType,
  cls: GstClass,
  interestTax: InterestTax,
  otherChargesSac: string = DEFAULT_OTHER_CHARGES_SAC,
): TaxTreatment | null {
  if (chargeType === 'OTHER_CHARGES') {
    return { rateBp: FULL_RATE_BP, landThird: false, sac: otherChargesSac };
  }
  if (cls === 'EXEMPT') return null;
  if (chargeType === 'INTEREST' && interestTax === 'STANDARD_18') {
    return { rateBp: FULL_RATE_BP, landThird: false, sac: CONSTRUCTION_SAC };
  }
  return { rateBp: CONSTRUCTION_RATE_BP[cls], landThird: true, sac: CONSTRUCTION_SAC };
}

/** 375n -> `3.75` (hundredths of a percent print as paise do). */
const percentText = paiseText;

/** `3.75` -> 375n. */
export const percentBp = toPaise;

/**
 * The heads of `amount` taxed at the given rates (basis points), a third deducted for land or
 * not: a demand's tax, and the tax of the part of one a cancellation keeps.
 */
export function taxOn(
  amount: bigint,
  rates: { cgstBp: bigint; sgstBp: bigint; landThird: boolean },
): { landDeduction: bigint; taxableValue: bigint; cgst: bigint; sgst: bigint } {
  const landDeduction = rates.landThird ? divideHalfUp(amount, 3n) : 0n;
  const taxableValue = amount - landDeduction;
  return {
    landDeduction,
    taxableValue,
    cgst: divideHalfUp(taxableValue * rates.cgstBp, 10_000n),
    sgst: divideHalfUp(taxableValue * rates.sgstBp, 10_000n),
  };
}

/** The tax of a demand of consideration C, or null when the table leaves it untaxed. */
export function demandTax(input: DemandTaxInput): DemandTax | null {
  const c = input.consideration;
  if (typeof c !== 'bigint' || c < 0n) {
    throw new RangeError(`consideration must be a non-negative bigint of paise; got ${String(c)}`);
  }
  const treatment = taxTreatment(
    input.chargeType,
    input.gstClass,
    input.interestTax,
    input.otherChargesSac,
  );
  if (!treatment) return null;
  // Same rate for both heads today; each is still rounded on its own.
  const { landDeduction, taxableValue, cgst, sgst } = taxOn(c, {
    cgstBp: treatment.rateBp,
    sgstBp: treatment.rateBp,
    landThird: treatment.landThird,
  });
  const total = cgst + sgst;
  return {
    landDeduction,
    taxableValue,
    cgstRate: percentText(treatment.rateBp),
    sgstRate: percentText(treatment.rateBp),
    cgst,
    sgst,
    total,
    grossAmount: c + total,
    sac: treatment.sac,
  };
}

// ---------------------------------------------------------------------------------------------
// Sharing a demand's tax over its splits

/**
 * Shares `tax` over splits in proportion to their amounts (C = their sum): each gets
 * floor(tax x amount / C) paise, and the paise left over go one each to the largest remainders,
 * ties to the earlier split. The shares always sum to `tax`.
 */
export function shareTax(tax: bigint, splitAmounts: readonly bigint[]): bigint[] {
  if (tax < 0n) throw new RangeError(`tax must not be negative; got ${tax}`);
  if (splitAmounts.some((a) => a < 0n)) {
    throw new RangeError('split amounts must not be negative');
  }
  const c = splitAmounts.reduce((sum, a) => sum + a, 0n);
  if (c === 0n) {
    if (tax === 0n) return splitAmounts.map(() => 0n);
    throw new RangeError('cannot share tax over splits that sum to zero');
  }
  const shares = splitAmounts.map((a) => (tax * a) / c);
  const remainders = splitAmounts.map((a, index) => ({ index, rest: (tax * a) % c }));
  let left = tax - shares.reduce((sum, s) => sum + s, 0n);
  // Stable sort: equal remainders keep the order the splits were given.
  remainders.sort((x, y) => (x.rest === y.rest ? 0 : x.rest > y.rest ? -1 : 1));
  for (const { index } of remainders) {
    if (left === 0n) break;
    shares[index] += 1n;
    left -= 1n;
  }
  return shares;
}
