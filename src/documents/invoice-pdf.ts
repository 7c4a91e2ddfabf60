/**
 * The printed tax invoice (GET /demands/{id}/invoice): A4 pages of real, extractable text in
 * DejaVu Sans (pdf-toolkit.ts, as every document): the supplier with its GSTIN, TAX INVOICE and
 * ORIGINAL FOR RECIPIENT, the invoice's number, date, place of supply and reverse charge, the
 * recipient, every line (consideration, land deduction, taxable value, CGST and SGST with their
 * rates), the totals in figures and the gross in words. Pure: the same invoice gives the same
 * bytes (the PDF is dated the invoice's date).
 */
import type { GstDocumentOptions, InvoiceDocument } from './gst-documents';
import { Column, GREY, GstPdf } from './gst-pdf';

/** Bump when the layout changes: it is part of the document's ETag. */
export const INVOICE_LAYOUT_VERSION = 1;

/** Rule 46 asks an invoice to say whether tax is payable on reverse charge; this never is. */
const REVERSE_CHARGE = 'No';

const COLUMNS: readonly Column[] = [
  { title: 'Description', width: 0, align: 'left' },
  { title: 'SAC', width: 36, align: 'left' },
  { title: 'Consideration', width: 68, align: 'right', money: true },
  { title: 'Land deduction', width: 66, align: 'right', money: true },
  { title: 'Taxable value', width: 66, align: 'right', money: true },
  { title: 'CGST', width: 62, align: 'right', money: true },
  { title: 'SGST', width: 62, align: 'right', money: true },
];

const isZero = (amount: string) => /^0+(\.0+)?$/.test(amount);

/** Renders the tax invoice; resolves with the PDF's bytes. */
export function renderInvoicePdf(
  invoice: InvoiceDocument,
  options: GstDocumentOptions,
): Promise<Buffer> {
  const pdf = new GstPdf({
    title: `Tax invoice ${invoice.number}`,
    supplier: invoice.supplier,
    date: invoice.date,
    options,
    number: invoice.number,
  });
  pdf.heading('TAX INVOICE', 'ORIGINAL FOR RECIPIENT');
  const { stateCode, stateName } = invoice.placeOfSupply;
  pdf.facts(
    'Invoice',
    [
      ['Invoice number', invoice.number],
      ['Invoice date', pdf.date(invoice.date)],
      ['Place of supply', `${stateName} (code ${stateCode})`],
      ['Reverse charge', REVERSE_CHARGE],
    ],
    'Billed to',
    pdf.recipientRows(invoice.recipient),
  );
  pdf.rule(8);

  pdf.table(
    COLUMNS,
    invoice.lines.map((l) => [
      l.description,
      l.sac,
      pdf.figure(l.consideration),
      pdf.figure(l.landDeduction),
      pdf.figure(l.taxableValue),
      [`@ ${l.cgstRate} %`, pdf.figure(l.cgst)],
      [`@ ${l.sgstRate} %`, pdf.figure(l.sgst)],
    ]),
  );

  const t = invoice.totals;
  pdf.totals([
    ['Consideration', t.consideration],
    ['Taxable value', t.taxableValue],
    ['CGST', t.cgst],
    ['SGST', t.sgst],
    ['Total tax', t.tax],
    ['Invoice value', t.grossAmount, true],
  ]);
  pdf.paragraph(`Amount in words: ${invoice.amountInWords}`, { font: 'bold', size: 10, gap: 6 });
  if (invoice.lines.some((l) => !isZero(l.landDeduction))) {
    pdf.paragraph(
      'Land deduction: the value of land is deemed one third of the consideration and deducted ' +
        'from it; tax is charged on the remaining two thirds (Notification 11/2017-Central Tax ' +
        '(Rate), paragraph 2).',
      { size: 8, color: GREY, gap: 2 },
    );
  }
  pdf.signature();
  return pdf.finish();
}
