/**
 * A demand letter's figures (docs/letters.md), pure: from what each split of the booking owes at
 * asOf (the ageing's definition) and the interest due, it makes the letter, so the letter of
 * GET /demands/{id}/letter and the letter in a reminder.due event are the same thing.
 */
import Decimal from 'decimal.js';
import { Money, toMoney } from '@/common/money/money';
import { TenantContext } from '@/common/tenant-context';
import { DemandMetaView } from '@/demands/dto/demand.view';
import { printedPayerName } from '@/common/domain/printed-names';
import { LetterView } from './dto/letter.view';

/** Agreements at or above this value (₹50 lakh) have the buyer deduct TDS u/s 194-IA. */
export const TDS_THRESHOLD = new Decimal(5_000_000);
export const TDS_NOTE = 'Deduct TDS at 1 % u/s 194-IA on this payment and share Form 16B.';

/** One split of the booking and what it owes at asOf. */
export interface OwedSplit {
  demand: string;
  payerId: string;
  dueDate: string;
  outstanding: Decimal | string;
}

export interface LetterInput {
  tenantName: string;
  asOf: string;
  demand: DemandMetaView;
  booking: {
    id: string;
    bookingNumber: string;
    unit: string;
    /** Undefined or null: the unit has no name. */
    unitName?: string | null;
    buyerName: string;
    agreementValue: string | null;
  };
  /** payerName: the split's, if it has one. */
  payer: { payerId: string; payerType: string; payerName?: string | null } | null;
  /** Every split of the booking that owes at asOf (payer filtering happens here). */
  owed: readonly OwedSplit[];
  /** Interest due at asOf: of the payer, or of the booking when payer is null. */
  interestDue: Decimal;
  payTo: { name: string; accountNumber: string; ifsc: string | null } | null;
  /** A taxed demand's invoice and its GST (two-decimal text); null when untaxed. */
  gst?: { invoiceNumber: string; tax: string } | null;
}

/** The letter's figures, in decimals. */
export interface LetterFigures {
  thisDemand: Decimal;
  previousDues: Decimal;
  interestDue: Decimal;
  totalPayable: Decimal;
}

export function letterFigures(input: LetterInput): LetterFigures {
  const zero = new Decimal(0);
  let thisDemand = zero;
  let previousDues = zero;
  for (const s of input.owed) {
    if (input.payer !== null && s.payerId !== input.payer.payerId) continue;
    if (s.demand === input.demand.id) thisDemand = thisDemand.plus(s.outstanding);
    // Overdue at asOf: due before it (the ageing's buckets past NOT_DUE).
    else if (s.dueDate < input.asOf) previousDues = previousDues.plus(s.outstanding);
  }
  return {
    thisDemand,
    previousDues,
    interestDue: input.interestDue,
    totalPayable: thisDemand.plus(previousDues).plus(input.interestDue),
  };
}

/**
 * The due date when it is before the letter's date: the letter then asks for the amount now, as
 * overdue since then, instead of by a date already past. Null on or before the due date.
 */
export function overdueSince(dueDate: string, letterDate: string): string | null {
  return dueDate < letterDate ? dueDate : null;
}

/** A letter asks for money: with a total payable of 0 there is no letter to send. */
export function nothingPayable(f: LetterFigures): boolean {
  return f.totalPayable.lte(0);
}

/** The letter, or null when it would ask for nothing (a total payable of 0). */
export function payableLetter(input: LetterInput, tenant: TenantContext): LetterView | null {
  const f = letterFigures(input);
  return nothingPayable(f) ? null : letterView(input, f, tenant);
}

/** The letter of figures already summed (a reminder run has them from its own statement). */
export function letterView(
  input: Omit<LetterInput, 'owed' | 'interestDue'>,
  f: LetterFigures,
  tenant: TenantContext,
): LetterView {
  const money = (v: Decimal | string): Money => toMoney(v, tenant.currency, tenant.locale);
  const agreement = input.booking.agreementValue;
  const tds =
    agreement !== null &&
    new Decimal(agreement).gte(TDS_THRESHOLD) &&
    input.payer?.payerType !== 'BANK';
  return {
    tenant: { name: input.tenantName },
    letterDate: input.asOf,
    demand: input.demand,
    booking: {
      id: input.booking.id,
      bookingNumber: input.booking.bookingNumber,
      unit: input.booking.unit,
      unitName: input.booking.unitName ?? null,
      buyerName: input.booking.buyerName,
      agreementValue: agreement === null ? null : money(agreement),
    },
    payer: input.payer && {
      payerId: input.payer.payerId,
      payerType: input.payer.payerType,
      payerName: printedPayerName({
        payerName: input.payer.payerName,
        payerType: input.payer.payerType,
        buyerName: input.booking.buyerName,
      }),
    },
    thisDemand: money(f.thisDemand),
    previousDues: money(f.previousDues),
    interestDue: money(f.interestDue),
    totalPayable: money(f.totalPayable),
    dueDate: input.demand.dueDate,
    overdueSince: overdueSince(input.demand.dueDate, input.asOf),
    payTo: input.payTo,
    tdsNote: tds ? TDS_NOTE : null,
    gst: input.gst ? { invoiceNumber: input.gst.invoiceNumber, tax: money(input.gst.tax) } : null,
  };
}

/** The GST a letter shows: the demand's tax invoice and its tax, from the demand's record. */
export function letterGst(demand: {
  invoice_number: string | null;
  tax: { total: string } | null;
}): { invoiceNumber: string; tax: string } | null {
  return demand.invoice_number !== null && demand.tax !== null
    ? { invoiceNumber: demand.invoice_number, tax: demand.tax.total }
    : null;
}
