/**
 * The printed cancellation letter (GET /cancellations/{id}/letter): one A4 page of real,
 * extractable text in DejaVu Sans (pdf-toolkit.ts): the tenant's name, CANCELLATION OF
 * ALLOTMENT, the booking, the computation (paid, the cap and its rule, the deduction, GST
 * credited and the credit notes, the refund and its due date) and, when GST could not be credited
 * to a buyer without a GSTIN, the sentence they need to claim it. Pure: the same letter gives the
 * same bytes.
 */
import type { CancellationLetter } from './cancellation-letter';
import { displayDate, drawAmountLines, startPdf } from './pdf-toolkit';

const MARGIN = 56;
const BLUE = '#1f3a5f';
const GREY = '#555555';
const RULE = '#cccccc';

export function renderCancellationLetterPdf(
  letter: CancellationLetter,
  options: { locale: string; date: Date },
): Promise<Buffer> {
  const { doc, done } = startPdf({
    title: `Cancellation of allotment ${letter.bookingNumber}`,
    author: letter.tenantName,
    date: options.date,
    margin: MARGIN,
  });
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  const right = left + width;

  doc.font('bold').fontSize(18).fillColor('black').text(letter.tenantName, left, MARGIN, { width });
  doc.moveDown(0.2);
  doc.font('bold').fontSize(20).fillColor(BLUE).text(letter.heading, left, doc.y, { width });
  doc
    .font('regular')
    .fontSize(10)
    .fillColor(GREY)
    .text(`Date: ${displayDate(letter.letterDate, options.locale)}`, left, doc.y + 4, {
      width,
      align: 'right',
    });
  let y = doc.y + 10;
  doc
    .font('bold')
    .fontSize(11)
    .fillColor('black')
    .text(`To ${letter.buyerName}`, left, y, { width });
  y = doc.y + 6;
  doc.font('regular').fontSize(10).fillColor('black').text(letter.intro, left, y, { width });
  y = doc.y + 8;

  for (const { label, value } of letter.facts) {
    doc.font('regular').fontSize(9).fillColor(GREY).text(label, left, y, { width: 120 });
    doc
      .font('regular')
      .fontSize(10)
      .fillColor('black')
      .text(value, left + 130, y, { width: width - 130 });
    y = Math.max(doc.y, y + 12) + 4;
  }
  doc.moveTo(left, y).lineTo(right, y).strokeColor(RULE).lineWidth(0.75).stroke();
  y += 8;
  y = drawAmountLines(
    doc,
    letter.computation.map((l) => ({
      label: l.label,
      amount: `${l.amount.currencySymbol} ${l.amount.formatted}`,
      total: l.total,
    })),
    { left, right, y, labelWidth: 260 },
  );
  const notes = [
    letter.creditNotes.length > 0
      ? `GST is credited by credit note${letter.creditNotes.length > 1 ? 's' : ''} ${letter.creditNotes.join(', ')}.`
      : null,
    letter.refundNote,
    letter.claimNote,
  ].filter((n): n is string => n !== null);
  for (const note of notes) {
    doc
      .font('regular')
      .fontSize(10)
      .fillColor('black')
      .text(note, left, y + 4, { width });
    y = doc.y + 4;
  }
  doc
    .font('regular')
    .fontSize(8)
    .fillColor(GREY)
    .text(
      `Please quote ${letter.bookingNumber} in any correspondence. Computer-generated; valid without a signature.`,
      left,
      y + 14,
      { width },
    );
  doc.end();
  return done;
}
