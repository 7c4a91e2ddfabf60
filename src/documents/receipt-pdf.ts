/**
 * The printed receipt (GET /receipts/{id}/document): one A4 page of real, extractable text in
 * DejaVu Sans (pdf-toolkit.ts). Pure: the same input gives the same bytes (fixed document
 * dates), so renders can be cached and compared.
 */
import { paymentModeLabel } from '@/common/domain/payment-modes';
import { ReceiptView } from '@/receipts/dto/receipt.view';
import { amountInWords } from './amount-in-words';
import { displayDate, startPdf } from './pdf-toolkit';
import { printedPayerName, printedUnit } from '@/common/domain/printed-names';

/** Bump when the layout changes: it is part of the document's ETag. */
export const RECEIPT_LAYOUT_VERSION = 4;

/** The names a receipt is printed with, beyond its view. */
export interface ReceiptNames {
  bookingNumber: string;
  unitName: string | null;
  /** The booking's buyer. */
  buyerName: string;
  /** The split's payer name, if given. */
  payerName: string | null;
}

export interface ReceiptDocumentInput {
  receipt: ReceiptView;
  names: ReceiptNames;
  tenantName: string;
  locale: string;
  /** When the receipt was created: the document's date, so renders are byte-identical. */
  issuedAt: Date;
}

/** Who paid, as a buyer reads it: the buyer, or the bank or co-buyer paying on their behalf. */
export function payerLine(receipt: ReceiptView, names: ReceiptNames): string {
  const payer = printedPayerName({
    payerName: names.payerName,
    payerType: receipt.payerType,
    buyerName: names.buyerName,
  });
  return receipt.payerType === 'BUYER' ? payer : `${payer} on behalf of ${names.buyerName}`;
}

/** Renders the receipt; resolves with the PDF's bytes. */
export function renderReceiptPdf(input: ReceiptDocumentInput): Promise<Buffer> {
  const { receipt, names, tenantName, locale } = input;
  const { doc, done } = startPdf({
    title: `Receipt ${receipt.receiptNumber}`,
    author: tenantName,
    date: input.issuedAt,
    margin: 56,
  });

  // Every block starts below the one above it (doc.y after drawing), so a tenant name of 200
  // characters or a reason of 500 wraps onto more lines instead of running into the next block.
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  const right = left + width;
  doc.font('bold').fontSize(18).fillColor('black').text(tenantName, left, doc.page.margins.top, {
    width,
  });
  let y = doc.y + 8;

  // The title row: RECEIPT on the left and, for a receipt that is no longer ACTIVE, its status
  // on the right in a red box, like a rubber stamp.
  doc.font('bold').fontSize(26).fillColor('#1f3a5f').text('RECEIPT', left, y, { lineBreak: false });
  let below = y + doc.currentLineHeight(true);
  if (receipt.status !== 'ACTIVE') {
    const red = '#b00020';
    const pad = 8;
    doc.font('bold').fontSize(30);
    const stampWidth = doc.widthOfString(receipt.status) + 2 * pad;
    const stampHeight = doc.currentLineHeight() + pad;
    doc
      .save()
      .lineWidth(2.5)
      .roundedRect(right - stampWidth, y - pad / 2, stampWidth, stampHeight, 4)
      .strokeColor(red)
      .stroke()
      .restore();
    doc.fillColor(red).text(receipt.status, right - stampWidth + pad, y, { lineBreak: false });
    below = Math.max(below, y + stampHeight);
    const because = [
      receipt.statusChangedOn ? `on ${displayDate(receipt.statusChangedOn, locale)}` : '',
      receipt.statusReason ? `Reason: ${receipt.statusReason}` : '',
    ].filter(Boolean);
    if (because.length > 0) {
      doc
        .font('regular')
        .fontSize(10)
        .fillColor(red)
        .text(because.join(' · '), left, below + 6, { width, align: 'right' });
      below = doc.y;
    }
  }
  doc.fillColor('black');
  y = below + 16;

  const amount = `${receipt.amount.currencySymbol} ${receipt.amount.formatted}`;
  const rows: Array<[string, string]> = [
    ['Receipt number', receipt.receiptNumber],
    ['Received on', displayDate(receipt.receivedDate, locale)],
    ['Received from', payerLine(receipt, names)],
    ['Unit', printedUnit({ unitId: receipt.demandMeta.unit, unitName: names.unitName })],
    ['Booking', names.bookingNumber],
    ['Demand', `${receipt.demandMeta.demandNumber} (${receipt.demandMeta.demandType})`],
    ['Payment mode', paymentModeLabel(receipt.paymentMode)],
    [
      receipt.paymentMode === 'TDS' ? '26QB acknowledgement' : 'Transaction reference',
      receipt.transactionRef === '' ? '—' : receipt.transactionRef,
    ],
    ['Amount', amount],
    [
      'Amount in words',
      amountInWords(receipt.amount.amount.toFixed(2), receipt.amount.currency, locale),
    ],
  ];
  doc.moveTo(left, y).lineTo(right, y).strokeColor('#cccccc').stroke();
  y += 12;
  for (const [label, value] of rows) {
    doc.font('regular').fontSize(10).fillColor('#555555').text(label, left, y, { width: 150 });
    doc
      .font(label === 'Amount' ? 'bold' : 'regular')
      .fontSize(label === 'Amount' ? 14 : 11)
      .fillColor('black')
      .text(value, left + 160, y, { width: width - 160 });
    y = Math.max(doc.y, y + 18) + 10;
  }
  doc.moveTo(left, y).lineTo(right, y).strokeColor('#cccccc').stroke();
  doc
    .font('regular')
    .fontSize(9)
    .fillColor('#555555')
    .text(
      `Received with thanks by ${tenantName}. This receipt is computer-generated and valid without a signature. Receipt id ${receipt.id}.`,
      left,
      y + 14,
      { width },
    );
  doc.end();
  return done;
}
