/**
 * The printed credit note (GET /credit-notes/{id}): A4 pages of real, extractable text in DejaVu
 * Sans, drawn like the tax invoice (gst-pdf.ts): the supplier, CREDIT NOTE, its number, date and
 * reason, the recipient, the original invoices with their dates (rule 53(1A) asks for them),
 * every line credited, the totals in figures and the value in words. Pure: the same credit note
 * gives the same bytes (the PDF is dated the credit note's date).
 */
import { amountInWords } from './amount-in-words';
import type { CreditNoteDocument, GstDocumentOptions } from './gst-documents';
import { Column, GREY, GstPdf } from './gst-pdf';

/** Bump when the layout changes: it is part of the document's ETag. */
export const CREDIT_NOTE_LAYOUT_VERSION = 1;

const COLUMNS: readonly Column[] = [
  { title: 'Invoice', width: 72, align: 'left' },
  { title: 'Description', width: 0, align: 'left' },
  { title: 'SAC', width: 36, align: 'left' },
  { title: 'Consideration', width: 68, align: 'right', money: true },
  { title: 'Taxable value', width: 66, align: 'right', money: true },
  { title: 'CGST', width: 62, align: 'right', money: true },
  { title: 'SGST', width: 62, align: 'right', money: true },
];

/** `Against tax invoice INV/26-27/00001 dated 01 Apr 2026`. */
export function againstInvoice(number: string, shownDate: string): string {
  return `Against tax invoice ${number} dated ${shownDate}`;
}

/** Renders the credit note; resolves with the PDF's bytes. */
export function renderCreditNotePdf(
  note: CreditNoteDocument,
  options: GstDocumentOptions,
): Promise<Buffer> {
  const pdf = new GstPdf({
    title: `Credit note ${note.number}`,
    supplier: note.supplier,
    date: note.date,
    options,
    number: note.number,
  });
  pdf.heading('CREDIT NOTE', null);
  pdf.facts(
    'Credit note',
    [
      ['Number', note.number],
      ['Date', pdf.date(note.date)],
    ],
    'Issued to',
    pdf.recipientRows(note.recipient),
  );
  // Across the page: a reason may run to a few lines, which a column would make many.
  pdf.paragraph(`Reason: ${note.reason.trim() === '' ? '—' : note.reason}`, { gap: 6 });
  for (const invoice of note.invoices) {
    pdf.paragraph(againstInvoice(invoice.number, pdf.date(invoice.date)), {
      font: 'bold',
      gap: 2,
    });
  }
  pdf.y += 4;
  pdf.rule(8);

  pdf.table(
    COLUMNS,
    note.lines.map((l) => [
      l.invoice,
      l.description,
      l.sac,
      pdf.figure(l.consideration),
      pdf.figure(l.taxableValue),
      [`@ ${l.cgstRate} %`, pdf.figure(l.cgst)],
      [`@ ${l.sgstRate} %`, pdf.figure(l.sgst)],
    ]),
  );

  const t = note.totals;
  pdf.totals([
    ['Consideration', t.consideration],
    ['Taxable value', t.taxableValue],
    ['CGST', t.cgst],
    ['SGST', t.sgst],
    ['Total tax', t.tax],
    ['Credit note value', t.value, true],
  ]);
  const words = amountInWords(t.value, options.currency ?? 'INR', options.locale);
  pdf.paragraph(`Value in words: ${words}`, { font: 'bold', size: 10, gap: 6 });
  pdf.paragraph(
    'Issued under section 34 of the CGST Act, 2017: the taxable value and tax of the invoices ' +
      'named above are reduced by the amounts of this credit note.',
    { size: 8, color: GREY, gap: 2 },
  );
  pdf.signature();
  return pdf.finish();
}
