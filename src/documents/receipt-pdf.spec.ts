import PDFDocument from 'pdfkit';
import { ReceiptView } from '@/receipts/dto/receipt.view';
import { payerLine, renderReceiptPdf, ReceiptDocumentInput } from './receipt-pdf';

interface Box {
  text: string;
  x0: number;
  x1: number;
  y0: number;
  y1: number;
  page: number;
}

function receiptOf(overrides: Partial<ReceiptView> = {}): ReceiptView {
  return {
    id: 'e7d6c5b4-a3f2-4e1d-9c0b-8a7f6e5d4c3b',
    demandSplit: '3f1c2a9e-8b7d-4e6f-9a1b-2c3d4e5f6a7b',
    demand: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
    booking: '5b4a3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d',
    payerType: 'BUYER',
    receiptNumber: 'RCT/26-27/00042',
    amount: { amount: 150000.5, currency: 'INR', currencySymbol: '₹', formatted: '1,50,000.50' },
    paymentMode: 'CHEQUE',
    transactionRef: 'CHQ 004512',
    receivedDate: '2026-11-22',
    status: 'ACTIVE',
    statusReason: null,
    statusChangedOn: null,
    statusChangedBy: null,
    realisedOn: null,
    bankLine: null,
    refundedOn: null,
    demandSplitMeta: {} as ReceiptView['demandSplitMeta'],
    demandMeta: {
      buyerName: 'Ananya Iyer',
      unit: '7c6d5e4f-3a2b-4c1d-8e9f-0a1b2c3d4e5f',
      demandNumber: 'DMD/26-27/00017',
      demandType: 'MILESTONE',
    } as ReceiptView['demandMeta'],
    ...overrides,
  };
}

const NAMES = {
  bookingNumber: 'BKG/26-27/00031',
  unitName: null,
  buyerName: 'Ananya Iyer',
  payerName: null,
};

const input = (overrides: Partial<ReceiptDocumentInput> = {}): ReceiptDocumentInput => ({
  receipt: receiptOf(),
  names: NAMES,
  tenantName: 'Acme Homes',
  locale: 'en-IN',
  issuedAt: new Date('2026-11-22T10:15:00.000Z'),
  ...overrides,
});

/**
 * Renders while recording where each piece of text lands (its glyphs' extent: a single line
 * spans its measured width at its alignment, a wrapped block its whole width; top to doc.y).
 */
async function layoutOf(doc: ReceiptDocumentInput): Promise<Box[]> {
  const boxes: Box[] = [];
  const draw = PDFDocument.prototype.text;
  const pages = jest.spyOn(PDFDocument.prototype, 'addPage');
  const spy = jest.spyOn(PDFDocument.prototype, 'text').mockImplementation(function (
    this: PDFKit.PDFDocument,
    ...args: unknown[]
  ) {
    const [text, x, y, options] = args as [string, number?, number?, PDFKit.Mixins.TextOptions?];
    const left = x ?? this.x;
    const top = y ?? this.y;
    const measured = this.widthOfString(text);
    const width = options?.width;
    const lineHeight = this.currentLineHeight(true);
    const result = draw.call(this, text, x, y, options);
    let x0 = left;
    let x1 = left + (width ?? measured);
    if (width === undefined || measured <= width) {
      x0 = options?.align === 'right' && width !== undefined ? left + width - measured : left;
      x1 = x0 + measured;
    }
    const page = pages.mock.calls.length;
    boxes.push({ text, x0, x1, y0: top, y1: Math.max(this.y, top + lineHeight), page });
    return result;
  });
  try {
    await renderReceiptPdf(doc);
  } finally {
    spy.mockRestore();
    pages.mockRestore();
  }
  return boxes;
}

/** Pairs of text boxes whose extents intersect (more than a hair). */
function overlaps(boxes: Box[]): string[] {
  const found: string[] = [];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, b] = [boxes[i], boxes[j]];
      const across = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
      const down = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
      if (across > 0.5 && down > 0.5)
        found.push(`"${a.text.slice(0, 40)}" / "${b.text.slice(0, 40)}"`);
    }
  }
  return found;
}

describe(renderReceiptPdf.name, () => {
  it('is deterministic: the same receipt gives the same bytes', async () => {
    const [first, second] = await Promise.all([
      renderReceiptPdf(input()),
      renderReceiptPdf(input()),
    ]);
    expect(first.equals(second)).toBe(true);
    expect(first.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('draws the title row and the table without text running into other text', async () => {
    const boxes = await layoutOf(input());
    expect(boxes.map((b) => b.text)).toEqual(
      expect.arrayContaining(['Acme Homes', 'RECEIPT', 'RCT/26-27/00042', '₹ 1,50,000.50']),
    );
    expect(overlaps(boxes)).toEqual([]);
  });

  it('keeps one page and no overlap at the longest tenant name, reason and reference', async () => {
    const longest = input({
      tenantName: 'Shree Ganesh Infrastructure and Realty Developers Private Limited '
        .repeat(4)
        .slice(0, 200),
      receipt: receiptOf({
        status: 'CANCELLED',
        statusReason: 'The cheque was returned unpaid by the drawee bank. '
          .repeat(10)
          .slice(0, 500),
        statusChangedOn: '2026-11-25',
        transactionRef: 'R'.repeat(100),
        payerType: 'BANK',
        demandMeta: {
          ...receiptOf().demandMeta,
          buyerName: 'Venkataraghavan Subramaniam '.repeat(8).slice(0, 200),
        },
      }),
    });
    const boxes = await layoutOf(longest);
    expect(boxes.map((b) => b.text)).toContain('CANCELLED');
    expect(overlaps(boxes)).toEqual([]);
    expect(new Set(boxes.map((b) => b.page))).toEqual(new Set([1]));
    expect(Math.max(...boxes.map((b) => b.y1))).toBeLessThan(841.89 - 56);
  });

  it('prints a BANK or co-buyer payer on behalf of the buyer, by name when it has one', () => {
    expect(payerLine(receiptOf(), NAMES)).toBe('Ananya Iyer');
    expect(payerLine(receiptOf({ payerType: 'BANK' }), NAMES)).toBe(
      'Home-loan bank on behalf of Ananya Iyer',
    );
    expect(payerLine(receiptOf({ payerType: 'CO_BUYER' }), NAMES)).toBe(
      'Co-buyer on behalf of Ananya Iyer',
    );
    expect(payerLine(receiptOf({ payerType: 'BANK' }), { ...NAMES, payerName: 'HDFC Bank' })).toBe(
      'HDFC Bank on behalf of Ananya Iyer',
    );
  });
});
