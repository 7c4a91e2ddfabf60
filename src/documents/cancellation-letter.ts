import type { CancellationView } from '@/cancellations/dto/cancellation.view';
import type { MoneyView } from '@/common/money/money.view';
import { displayDate } from './pdf-toolkit';

/**
 * The cancellation letter's content (GET /cancellations/{id}/letter), pure: what the buyer is told
 * of the computation, and, when GST they paid can no longer be credited, the sentence they need
 * to claim it from the government. The PDF (cancellation-letter-pdf.ts) and the JSON print this.
 */
export interface CancellationLetter {
  tenantName: string;
  heading: 'CANCELLATION OF ALLOTMENT';
  letterDate: string;
  buyerName: string;
  bookingNumber: string;
  unit: string;
  intro: string;
  facts: { label: string; value: string }[];
  computation: { label: string; amount: MoneyView; total: boolean }[];
  /** The credit notes issued, by number; empty when none. */
  creditNotes: string[];
  /** Circular 188/20/2022-GST: set when taxToClaim > 0 and the buyer has no GSTIN. */
  claimNote: string | null;
  refundNote: string;
}

const RULES: Record<string, string> = {
  MAHARERA_2022: "MahaRERA's model allotment letter (2022)",
  PERCENT_OF_VALUE: 'a share of the agreement value',
  BANDS: "the developer's cancellation bands",
};

/** `₹ 1,20,000.00`. */
const shown = (m: MoneyView) => `${m.currencySymbol} ${m.formatted}`;

/** The sentence a buyer without a GSTIN needs to claim GST the developer could not credit. */
export function claimNote(taxToClaim: MoneyView, invoices: readonly string[]): string {
  const which =
    invoices.length > 0
      ? ` on tax invoice${invoices.length > 1 ? 's' : ''} ${invoices.join(', ')}`
      : '';
  return (
    `GST of ${shown(taxToClaim)} you paid${which} could not be credited to you by a credit note: ` +
    'the time allowed by section 34(2) of the CGST Act, 2017 had passed when the allotment was ' +
    'cancelled. You may claim its refund from the GST authorities under Circular No. ' +
    '188/20/2022-GST dated 27 December 2022 (FORM GST RFD-01, category "refund for unregistered ' +
    'person"), with this letter as the evidence of the cancellation.'
  );
}

export function cancellationLetter(input: {
  tenantName: string;
  locale: string;
  buyerName: string;
  buyerGstin: string | null;
  bookingNumber: string;
  unit: string;
  cancellation: CancellationView;
}): CancellationLetter {
  const c = input.cancellation;
  const date = (d: string) => displayDate(d, input.locale);
  const buyer = c.initiatedBy === 'BUYER';
  const capText = buyer
    ? `${c.capPercent} % of the agreement value under ${RULES[c.rule] ?? c.rule}, ${c.days} days after allotment`
    : "nothing: the cancellation is for the developer's default (RERA section 18)";
  const computation: CancellationLetter['computation'] = [
    { label: 'Paid by you (including GST)', amount: c.paid.total, total: false },
    { label: 'of which GST', amount: c.paid.tax, total: false },
    { label: 'Deduction retained', amount: c.deduction, total: false },
    { label: 'GST on the deduction', amount: c.taxRetained, total: false },
  ];
  if (c.creditNote !== null) {
    computation.push({
      label: 'GST credited by credit note',
      amount: c.creditNote.tax,
      total: false,
    });
  }
  if (c.taxToClaim.amount > 0) {
    computation.push({
      label: 'GST to claim from the government',
      amount: c.taxToClaim,
      total: false,
    });
  }
  computation.push({ label: 'Refund due to you', amount: c.refund.amount, total: true });
  const paid = c.refund.status === 'PAID' && c.refund.paidAmount !== null;
  const refundNote = paid
    ? `The refund was paid on ${date(c.refund.paidOn as string)}${
        c.refund.interest && c.refund.interest.amount > 0
          ? `, with interest of ${shown(c.refund.interest)}`
          : ''
      }: ${shown(c.refund.paidAmount as MoneyView)}${
        c.refund.voucherNumber ? ` (voucher ${c.refund.voucherNumber})` : ''
      }.`
    : `The refund will be paid on or before ${date(c.refund.dueDate)}; a later payment bears interest at the rate prescribed for late payments, from the day after that date.`;
  const invoices = c.demands
    .filter((d) => d.timeBarred && d.taxToClaim.amount > 0 && d.invoice !== null)
    .map((d) => d.invoice?.number as string);
  return {
    tenantName: input.tenantName,
    heading: 'CANCELLATION OF ALLOTMENT',
    letterDate: c.cancelledOn,
    buyerName: input.buyerName,
    bookingNumber: input.bookingNumber,
    unit: input.unit,
    intro: buyer
      ? `Your allotment of the unit below is cancelled at your request of ${date(c.requestedOn)}. The amounts you paid are settled as follows.`
      : `Your allotment of the unit below is cancelled for our default (RERA section 18). Everything you paid is refunded, with interest from each payment.`,
    facts: [
      { label: 'Booking', value: input.bookingNumber },
      { label: 'Unit', value: input.unit },
      { label: 'Buyer', value: input.buyerName },
      ...(c.agreementValue ? [{ label: 'Agreement value', value: shown(c.agreementValue) }] : []),
      { label: 'Cancelled on', value: date(c.cancelledOn) },
      { label: 'Reason', value: c.reason },
      { label: 'Deduction capped at', value: `${shown(c.cap)}: ${capText}` },
    ],
    computation,
    creditNotes: c.creditNotes.map((n) => n.number),
    claimNote:
      c.taxToClaim.amount > 0 && input.buyerGstin === null
        ? claimNote(c.taxToClaim, invoices)
        : null,
    refundNote,
  };
}
