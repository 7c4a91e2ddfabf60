/**
 * The printed receipt (contract §7.3): one A4 page of real, extractable text in DejaVu Sans,
 * embedded from the `dejavu-fonts-ttf` package (it has the ₹ sign; nothing is downloaded at run
 * time). Pure: the same input gives the same bytes (fixed document dates), so renders can be
 * cached and compared.
 */
import PDFDocument from 'pdfkit';
import { ReceiptView } from '@/receipts/dto/receipt.view';
import { amountInWords } from './amount-in-words';

const REGULAR = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');
const BOLD = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf');

/** Bump when the layout changes: it is part of the document's ETag. */
export const RECEIPT_LAYOUT_VERSION = 1;

export interface ReceiptDocumentInput {
  receipt: ReceiptView;
  tenantName: string;
  locale: string;
  /** When the receipt was created: the document's date, so renders are byte-identical. */
  issuedAt: Date;
}

const PAYMENT_MODES: Readonly<Record<string, string>> = {
  CASH: 'Cash',
  CHEQUE: 'Cheque',
  DEMAND_DRAFT: 'Demand draft',
  NEFT: 'NEFT',
  RTGS: 'RTGS',
  IMPS: 'IMPS',
  UPI: 'UPI',
  CARD: 'Card',
  ONLINE: 'Online',
  OTHER: 'Other',
};

/** Who paid, as a buyer reads it: the buyer, or the bank or co-buyer paying on their behalf. */
export function payerLine(receipt: ReceiptView): string {
  const buyer = receipt.demandMeta.buyerName;
  switch (receipt.payerType) {
    case 'BANK':
      return `Bank (loan disbursement) on behalf of ${buyer}`;
    case 'CO_BUYER':
      return `Co-buyer on behalf of ${buyer}`;
    case 'OTHER':
      return `Another payer on behalf of ${buyer}`;
    default:
      return buyer;
  }
}

function displayDate(date: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${date}T00:00:00Z`));
}

/** Renders the receipt; resolves with the PDF's bytes. */
export function renderReceiptPdf(input: ReceiptDocumentInput): Promise<Buffer> {
  const { receipt, tenantName, locale } = input;
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    info: {
      Title: `Receipt ${receipt.receiptNumber}`,
      Author: tenantName,
      Creator: 'finance-service',
      CreationDate: input.issuedAt,
      ModDate: input.issuedAt,
    },
  });
  doc.registerFont('regular', REGULAR);
  doc.registerFont('bold', BOLD);
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  doc.font('bold').fontSize(18).text(tenantName, left, 56, { width });
  doc.font('bold').fontSize(26).fillColor('#1f3a5f').text('RECEIPT', left, 90, { width });
  doc.fillColor('black');

  if (receipt.status !== 'ACTIVE') {
    doc
      .font('bold')
      .fontSize(30)
      .fillColor('#b00020')
      .text(receipt.status, left, 90, { width, align: 'right' });
    const because = [
      receipt.statusChangedOn ? `on ${displayDate(receipt.statusChangedOn, locale)}` : '',
      receipt.statusReason ? `Reason: ${receipt.statusReason}` : '',
    ].filter(Boolean);
    if (because.length > 0) {
      doc
        .font('regular')
        .fontSize(10)
        .text(because.join(' · '), left, 128, { width, align: 'right' });
    }
    doc.fillColor('black');
  }

  const amount = `${receipt.amount.currencySymbol} ${receipt.amount.formatted}`;
  const rows: Array<[string, string]> = [
    ['Receipt number', receipt.receiptNumber],
    ['Received on', displayDate(receipt.receivedDate, locale)],
    ['Received from', payerLine(receipt)],
    ['Unit', receipt.demandMeta.unit],
    ['Demand', `${receipt.demandMeta.demandNumber} (${receipt.demandMeta.demandType})`],
    ['Payment mode', PAYMENT_MODES[receipt.paymentMode] ?? receipt.paymentMode],
    ['Transaction reference', receipt.transactionRef === '' ? '—' : receipt.transactionRef],
    ['Amount', amount],
    [
      'Amount in words',
      amountInWords(receipt.amount.amount.toFixed(2), receipt.amount.currency, locale),
    ],
  ];
  let y = 170;
  doc
    .moveTo(left, y - 12)
    .lineTo(left + width, y - 12)
    .strokeColor('#cccccc')
    .stroke();
  for (const [label, value] of rows) {
    doc.font('regular').fontSize(10).fillColor('#555555').text(label, left, y, { width: 150 });
    doc
      .font(label === 'Amount' ? 'bold' : 'regular')
      .fontSize(label === 'Amount' ? 14 : 11)
      .fillColor('black')
      .text(value, left + 160, y, { width: width - 160 });
    y = Math.max(doc.y, y + 18) + 10;
  }
  doc
    .moveTo(left, y)
    .lineTo(left + width, y)
    .strokeColor('#cccccc')
    .stroke();
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
