import { divideHalfUp, paiseText } from '@/common/money/paise';
import { percentBp, shareTax, taxOn } from '@/gst/gst-tax';
import { dayNumber, dayText } from '@/interest/interest-rule';

/**
 * What cancelling a paid-for booking keeps, credits and refunds (the figures of a cancellation
 * quote), pure: no database, no clock. Money is bigint paise; rounding is half-up to the paisa.
 * The routes, the policy's storage and the refund are still to be built on it.
 *
 * - The cap on what the developer keeps, from d = requestedOn - allotmentDate in calendar days
 *   (below 0 counts as 0): MAHARERA_2022 (MahaRERA's model allotment letter, 2022) keeps 0 % up to
 *   15 days, 1 % to 30, 1.5 % to 60, 2 % from 61; PERCENT_OF_VALUE keeps `percent` %; BANDS keeps
 *   the percent of the last band whose fromDay <= d. cap = round(agreementValue x percent / 100).
 * - Per demand, from its active receipts: paidTax = round(paid x tax / gross), paidConsideration =
 *   paid - paidTax. The deduction = min(cap, the paid consideration of CONSTRUCTION demands), 0
 *   when the developer is at fault (PROMOTER_DEFAULT), kept from CONSTRUCTION demands oldest
 *   first. INTEREST demands' paid consideration is kept when the buyer withdraws and refunded
 *   when the developer is at fault; OTHER_CHARGES are refunded in full.
 * - keptTax = the tax of what is retained (the demand's own rates and land rule); the credit is
 *   the invoiced tax less it, per head. An invoice past its credit-note window gets no credit: its
 *   paid tax less keptTax is `taxToClaim`, which the buyer claims from the government.
 */

export type CancellationRule = 'MAHARERA_2022' | 'PERCENT_OF_VALUE' | 'BANDS';
export type InitiatedBy = 'BUYER' | 'PROMOTER_DEFAULT';

export interface CancellationPolicy {
  rule: CancellationRule;
  /** PERCENT_OF_VALUE: percent with two decimals, as text (`10.00`). */
  percent: string;
  /** BANDS: ascending fromDay from 0, percent as text. */
  bands: readonly { fromDay: number; percent: string }[];
  refundDays: number;
}

/** A demand of the booking, not already cancelled, with what its active receipts paid. */
export interface QuoteDemand {
  id: string;
  number: string;
  demandDate: string;
  chargeType: 'CONSTRUCTION' | 'OTHER_CHARGES' | 'INTEREST';
  /** Paise: totalAmount. */
  consideration: bigint;
  /** Null when untaxed; rates as percent text (`3.75`). */
  tax: null | {
    landDeduction: bigint;
    taxableValue: bigint;
    cgstRate: string;
    cgst: bigint;
    sgstRate: string;
    sgst: bigint;
  };
  /** The credit-note window of its invoice closed on or before the cancellation. */
  timeBarred: boolean;
  /** Paise paid by its active receipts, per payer. */
  paidBy: readonly { payerId: string; payerType: string; paid: bigint }[];
}

export interface QuotedDemand {
  demand: string;
  demandNumber: string;
  chargeType: string;
  grossAmount: bigint;
  paid: bigint;
  paidConsideration: bigint;
  paidTax: bigint;
  retained: bigint;
  keptTax: bigint;
  credit: { taxableValue: bigint; cgst: bigint; sgst: bigint };
  refund: bigint;
  taxToClaim: bigint;
  timeBarred: boolean;
}

export interface CancellationQuote {
  days: number;
  /** Percent as text with two decimals. */
  capPercent: string;
  cap: bigint;
  paid: { consideration: bigint; tax: bigint; total: bigint };
  deduction: bigint;
  taxRetained: bigint;
  refund: bigint;
  taxToClaim: bigint;
  demands: QuotedDemand[];
  creditNote: { taxableValue: bigint; cgst: bigint; sgst: bigint; tax: bigint } | null;
  refundDueDate: string;
  byPayer: { payerId: string; payerType: string; paid: bigint; refund: bigint }[];
}

/** The percent the policy keeps after `days` days, as hundredths of a percent. */
export function capHundredths(policy: CancellationPolicy, days: number): bigint {
  if (policy.rule === 'MAHARERA_2022') {
    return days <= 15 ? 0n : days <= 30 ? 100n : days <= 60 ? 150n : 200n;
  }
  if (policy.rule === 'PERCENT_OF_VALUE') return percentBp(policy.percent);
  const band = [...policy.bands].reverse().find((b) => b.fromDay <= days);
  return band ? percentBp(band.percent) : 0n;
}

/** The tax of `amount` of a demand under its own rates and land rule (a retained part). */
function taxOf(
  demand: QuoteDemand,
  amount: bigint,
): { taxable: bigint; cgst: bigint; sgst: bigint } {
  if (demand.tax === null) return { taxable: 0n, cgst: 0n, sgst: 0n };
  const { taxableValue, cgst, sgst } = taxOn(amount, {
    cgstBp: percentBp(demand.tax.cgstRate),
    sgstBp: percentBp(demand.tax.sgstRate),
    landThird: demand.tax.landDeduction > 0n,
  });
  return { taxable: taxableValue, cgst, sgst };
}

export function quoteCancellation(input: {
  policy: CancellationPolicy;
  initiatedBy: InitiatedBy;
  requestedOn: string;
  allotmentDate: string;
  /** Paise; required when the buyer withdraws (the cap is a share of it). */
  agreementValue: bigint | null;
  demands: readonly QuoteDemand[];
}): CancellationQuote {
  const days = Math.max(0, dayNumber(input.requestedOn) - dayNumber(input.allotmentDate));
  const capBp = capHundredths(input.policy, days);
  const cap =
    input.agreementValue === null ? 0n : divideHalfUp(input.agreementValue * capBp, 10_000n);
  const rows = input.demands.map((d) => {
    const tax = d.tax === null ? 0n : d.tax.cgst + d.tax.sgst;
    const gross = d.consideration + tax;
    const paid = d.paidBy.reduce((a, p) => a + p.paid, 0n);
    const paidTax = gross === 0n ? 0n : divideHalfUp(paid * tax, gross);
    return { d, tax, gross, paid, paidTax, paidConsideration: paid - paidTax, retained: 0n };
  });
  const buyer = input.initiatedBy === 'BUYER';
  const construction = rows
    .filter((r) => r.d.chargeType === 'CONSTRUCTION')
    .sort((a, b) =>
      a.d.demandDate === b.d.demandDate
        ? a.d.number.length - b.d.number.length || (a.d.number < b.d.number ? -1 : 1)
        : a.d.demandDate < b.d.demandDate
          ? -1
          : 1,
    );
  const constructionPaid = construction.reduce((a, r) => a + r.paidConsideration, 0n);
  const deduction = buyer ? (cap < constructionPaid ? cap : constructionPaid) : 0n;
  let toKeep = deduction;
  for (const r of construction) {
    const keep = toKeep < r.paidConsideration ? toKeep : r.paidConsideration;
    r.retained = keep;
    toKeep -= keep;
  }
  for (const r of rows) {
    if (r.d.chargeType === 'INTEREST' && buyer) r.retained = r.paidConsideration;
  }
  const demands: QuotedDemand[] = rows.map((r) => {
    const kept = taxOf(r.d, r.retained);
    const keptTax = r.d.tax === null ? 0n : kept.cgst + kept.sgst;
    const credit =
      r.d.tax === null || r.d.timeBarred
        ? { taxableValue: 0n, cgst: 0n, sgst: 0n }
        : {
            taxableValue: r.d.tax.taxableValue - kept.taxable,
            cgst: r.d.tax.cgst - kept.cgst,
            sgst: r.d.tax.sgst - kept.sgst,
          };
    const taxBack = r.paidTax - keptTax > 0n ? r.paidTax - keptTax : 0n;
    const consideration = r.paidConsideration - r.retained;
    return {
      demand: r.d.id,
      demandNumber: r.d.number,
      chargeType: r.d.chargeType,
      grossAmount: r.gross,
      paid: r.paid,
      paidConsideration: r.paidConsideration,
      paidTax: r.paidTax,
      retained: r.retained,
      keptTax,
      credit,
      refund: r.d.timeBarred ? consideration : consideration + taxBack,
      taxToClaim: r.d.timeBarred ? taxBack : 0n,
      timeBarred: r.d.timeBarred,
    };
  });
  const sum = (pick: (q: QuotedDemand) => bigint) => demands.reduce((a, q) => a + pick(q), 0n);
  const credited = demands.filter(
    (q, i) =>
      rows[i].d.tax !== null &&
      !q.timeBarred &&
      q.credit.taxableValue + q.credit.cgst + q.credit.sgst > 0n,
  );
  const creditNote =
    credited.length === 0
      ? null
      : {
          taxableValue: credited.reduce((a, q) => a + q.credit.taxableValue, 0n),
          cgst: credited.reduce((a, q) => a + q.credit.cgst, 0n),
          sgst: credited.reduce((a, q) => a + q.credit.sgst, 0n),
          tax: credited.reduce((a, q) => a + q.credit.cgst + q.credit.sgst, 0n),
        };
  const refund = sum((q) => q.refund);
  const payers = new Map<string, { payerId: string; payerType: string; paid: bigint }>();
  for (const d of input.demands) {
    for (const p of d.paidBy) {
      const seen = payers.get(p.payerId);
      if (seen) seen.paid += p.paid;
      else payers.set(p.payerId, { ...p });
    }
  }
  const byPayerList = [...payers.values()];
  // The refund shared as a demand's tax is over its splits: by largest remainder.
  const shares = shareTax(
    refund,
    byPayerList.map((p) => p.paid),
  );
  return {
    days,
    capPercent: paiseText(capBp),
    cap,
    paid: {
      consideration: sum((q) => q.paidConsideration),
      tax: sum((q) => q.paidTax),
      total: sum((q) => q.paid),
    },
    deduction,
    taxRetained: sum((q) => q.keptTax),
    refund,
    taxToClaim: sum((q) => q.taxToClaim),
    demands,
    creditNote,
    refundDueDate: dayText(dayNumber(input.requestedOn) + input.policy.refundDays),
    byPayer: byPayerList.map((p, i) => ({ ...p, refund: shares[i] })),
  };
}
