import { paiseText, toPaise } from '@/common/money/paise';
import type { CreditNoteDocumentRecord, TaxInvoiceDocument } from '@/demands/demands.sql';

/** The amount credited: the invoice's own, or the part a cancellation credits. */
const creditOf = (amount: string, paise: bigint | undefined) =>
  paise === undefined ? amount : paiseText(paise);

/** A cancelled demand's tax invoice as issued. */
export interface CreditedInvoice {
  demandId: string;
  document: TaxInvoiceDocument;
  /**
   * Paise a booking's cancellation credits of the invoice (what it does not keep). None: the whole
   * invoice is credited.
   */
  credited?: { consideration: bigint; taxableValue: bigint; cgst: bigint; sgst: bigint };
}

/** A credit note to issue: what it credits, before it is numbered, dated and given a reason. */
export type PlannedCreditNote = Omit<CreditNoteDocumentRecord, 'number' | 'date' | 'reason'> & {
  /** `2026-27`: the financial year (April to March) of the invoices it credits. */
  financialYear: string;
  demandIds: string[];
};

/** The April-to-March financial year of a date: `2026-27`. */
export function financialYearOf(date: string): string {
  const year = Number(date.slice(0, 4));
  const start = Number(date.slice(5, 7)) >= 4 ? year : year - 1;
  return `${start}-${String((start + 1) % 100).padStart(2, '0')}`;
}

/**
 * The last day a credit note may credit an invoice of `financialYear` (CGST Act section 34(2)):
 * 30 November after the year ends, or the day that year's annual return was filed if earlier.
 */
export function creditWindowCloses(
  financialYear: string,
  annualReturns: readonly { financialYear: string; filedOn: string }[],
): string {
  const end = `${Number(financialYear.slice(0, 4)) + 1}-11-30`;
  const filed = annualReturns.find((r) => r.financialYear === financialYear)?.filedOn;
  return filed !== undefined && filed < end ? filed : end;
}

/**
 * The credit notes of demands cancelled on `cancelledOn` with nothing paid, pure: each invoice's
 * whole tax is credited, one note per financial year of the invoices, for the invoices whose
 * window is still open on that day; the others are time-barred (their tax is not credited).
 */
export function planCreditNotes(
  invoices: readonly CreditedInvoice[],
  cancelledOn: string,
  annualReturns: readonly { financialYear: string; filedOn: string }[],
): { notes: PlannedCreditNote[]; timeBarred: string[] } {
  const byYear = new Map<string, CreditedInvoice[]>();
  const timeBarred: string[] = [];
  for (const invoice of invoices) {
    const year = financialYearOf(invoice.document.date);
    if (cancelledOn > creditWindowCloses(year, annualReturns)) {
      timeBarred.push(invoice.demandId);
      continue;
    }
    byYear.set(year, [...(byYear.get(year) ?? []), invoice]);
  }
  const notes = [...byYear.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([financialYear, list]): PlannedCreditNote => {
      const sorted = [...list].sort((a, b) =>
        a.document.date === b.document.date
          ? a.document.number.length - b.document.number.length ||
            (a.document.number < b.document.number ? -1 : 1)
          : a.document.date < b.document.date
            ? -1
            : 1,
      );
      // An invoice has one line (its demand's), which is what a cancellation keeps part of.
      const lines = sorted.flatMap(({ document, credited }) =>
        document.lines
          .map((l) => ({
            invoice: document.number,
            description: l.description,
            sac: l.sac,
            consideration: creditOf(l.consideration, credited?.consideration),
            taxableValue: creditOf(l.taxableValue, credited?.taxableValue),
            cgstRate: l.cgstRate,
            cgst: creditOf(l.cgst, credited?.cgst),
            sgstRate: l.sgstRate,
            sgst: creditOf(l.sgst, credited?.sgst),
          }))
          .filter((l) => toPaise(l.consideration) + toPaise(l.cgst) + toPaise(l.sgst) > 0n),
      );
      const sum = (pick: (l: (typeof lines)[number]) => string) =>
        lines.reduce((a, l) => a + toPaise(pick(l)), 0n);
      const [consideration, taxableValue, cgst, sgst] = [
        sum((l) => l.consideration),
        sum((l) => l.taxableValue),
        sum((l) => l.cgst),
        sum((l) => l.sgst),
      ];
      const onNote = new Set(lines.map((l) => l.invoice));
      const invoices = sorted.filter((i) => onNote.has(i.document.number));
      return {
        financialYear,
        demandIds: invoices.map((i) => i.demandId),
        supplier: sorted[0].document.supplier,
        recipient: sorted[0].document.recipient,
        invoices: invoices.map((i) => ({ number: i.document.number, date: i.document.date })),
        lines,
        totals: {
          consideration: paiseText(consideration),
          taxableValue: paiseText(taxableValue),
          cgst: paiseText(cgst),
          sgst: paiseText(sgst),
          tax: paiseText(cgst + sgst),
          value: paiseText(consideration + cgst + sgst),
        },
      };
    })
    .filter((note) => note.lines.length > 0);
  return { notes, timeBarred };
}
