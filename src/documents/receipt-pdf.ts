/**
 * The printed receipt (GET /receipts/{id}/document): one A4 page of real, extractable text in
 * DejaVu Sans, embedded from the `dejavu-fonts-ttf` package (it has the ₹ sign; nothing is
 * downloaded at run time). Pure: the same input gives the same bytes (fixed document dates),
 * so renders can be cached and compared.
 */
import type PDFDocumentClass from 'pdfkit';
import { readFileSync } from 'node:fs';
import type { PaymentMode } from '@/common/domain/enums';
import { ReceiptView } from '@/receipts/dto/receipt.view';
import { amountInWords } from './amount-in-words';

/**
 * The fonts, parsed once per process by pdfkit's own fontkit and shared by every document:
 * given a path or bytes, pdfkit parses the 700 KB TTF again for each document, which was ~20 of
 * a render's ~25 ms of CPU (bench/receipt-pdf.bench.ts). A parsed font is only read while
 * drawing (each document keeps its own subset), so the bytes are the same either way.
 */
interface PdfToolkit {
  PDFDocument: typeof PDFDocumentClass;
  regular: PDFKit.Mixins.PDFFontSource;
  bold: PDFKit.Mixins.PDFFontSource;
}
let toolkit: PdfToolkit | undefined;

/**
 * pdfkit, fontkit and the parsed fonts, loaded on the first render instead of at boot: they are
 * about 40 MB of a process's memory, and most processes (and every search or receipt) never
 * print a receipt.
 */
function pdfToolkit(): PdfToolkit {
  if (toolkit) return toolkit;
  /* eslint-disable @typescript-eslint/no-require-imports */
  // The same fontkit pdfkit uses (a direct dependency at pdfkit's version, so npm shares one copy).
  const fontkit = require('fontkit') as { create(data: Uint8Array): object };
  const PDFDocument = require('pdfkit') as typeof PDFDocumentClass;
  /* eslint-enable @typescript-eslint/no-require-imports */
  const parsedFont = (file: string) =>
    // pdfkit accepts a fontkit font (anything with `layout`); its typings only name file sources.
    fontkit.create(readFileSync(require.resolve(file))) as unknown as PDFKit.Mixins.PDFFontSource;
  toolkit = {
    PDFDocument,
    regular: parsedFont('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'),
    bold: parsedFont('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf'),
  };
  return toolkit;
}

/** Bump when the layout changes: it is part of the document's ETag. */
export const RECEIPT_LAYOUT_VERSION = 2;

export interface ReceiptDocumentInput {
  receipt: ReceiptView;
  tenantName: string;
  locale: string;
  /** When the receipt was created: the document's date, so renders are byte-identical. */
  issuedAt: Date;
}

/** Every mode, as printed (typed by PaymentMode: a new mode must be given its wording here). */
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
  TDS: 'TDS deducted u/s 194-IA',
} satisfies Record<PaymentMode, string>;

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
  const { PDFDocument, regular, bold } = pdfToolkit();
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
  doc.registerFont('regular', regular);
  doc.registerFont('bold', bold);
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
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
    ['Received from', payerLine(receipt)],
    ['Unit', receipt.demandMeta.unit],
    ['Demand', `${receipt.demandMeta.demandNumber} (${receipt.demandMeta.demandType})`],
    ['Payment mode', PAYMENT_MODES[receipt.paymentMode] ?? receipt.paymentMode],
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
