import PDFDocument from 'pdfkit';
import {
  renderStatementPdf,
  StatementDocumentEntry,
  StatementDocumentInput,
} from './statement-pdf';
import { clearSharedLayouts } from './pdf-toolkit';

interface Box {
  text: string;
  x0: number;
  x1: number;
  y0: number;
  y1: number;
  page: number;
}

const A4_HEIGHT = 841.89;
const MARGIN = 40;

const entry = (i: number, overrides: Partial<StatementDocumentEntry> = {}) => ({
  date: '2026-04-01',
  documentNumber: `DMD/26-27/${String(i).padStart(5, '0')}`,
  particulars: `Instalment ${i}`,
  dueDate: '2026-04-15',
  debit: '1,00,000.00',
  credit: null,
  balance: `${i},00,000.00`,
  ...overrides,
});

const input = (overrides: Partial<StatementDocumentInput> = {}): StatementDocumentInput => ({
  tenantName: 'Acme Homes',
  locale: 'en-IN',
  currencySymbol: '₹',
  bookingNumber: 'BKG/26-27/00012',
  unit: '7c6d5e4f-3a2b-4c1d-8e9f-0a1b2c3d4e5f',
  buyerName: 'Ananya Iyer',
  payer: null,
  from: '2026-04-01',
  to: '2026-11-30',
  asOf: '2026-11-30',
  openingBalance: '0.00',
  closingBalance: '3,00,000.00',
  entries: [1, 2, 3].map((i) => entry(i)),
  totals: [
    ['Demanded', '3,00,000.00'],
    ['Interest accrued', '1,234.56'],
  ],
  date: new Date('2026-11-30T00:00:00Z'),
  ...overrides,
});

/** Renders while recording where each piece of text lands (as receipt-pdf.spec.ts does). */
async function layoutOf(doc: StatementDocumentInput): Promise<Box[]> {
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
    await renderStatementPdf(doc);
  } finally {
    spy.mockRestore();
    pages.mockRestore();
  }
  return boxes;
}

/** Pairs of text boxes on one page whose extents intersect (more than a hair). */
function overlaps(boxes: Box[]): string[] {
  const found: string[] = [];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, b] = [boxes[i], boxes[j]];
      if (a.page !== b.page) continue;
      const across = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
      const down = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
      if (across > 0.5 && down > 0.5)
        found.push(`"${a.text.slice(0, 40)}" / "${b.text.slice(0, 40)}"`);
    }
  }
  return found;
}

/** The footer's page numbers are drawn last, page by page: left out of the page bookkeeping. */
const body = (boxes: Box[]) => boxes.filter((b) => !/ · Page \d+ of \d+$/.test(b.text));

describe(renderStatementPdf.name, () => {
  it('is deterministic: the same statement gives the same bytes', async () => {
    const [first, second] = await Promise.all([
      renderStatementPdf(input()),
      renderStatementPdf(input()),
    ]);
    expect(first.equals(second)).toBe(true);
    expect(first.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('gives the same bytes whether its words were laid out for earlier documents or not', async () => {
    clearSharedLayouts();
    const cold = await renderStatementPdf(input());
    const warm = await renderStatementPdf(input());
    clearSharedLayouts();
    await renderStatementPdf(input({ buyerName: 'Rohan Mehta', bookingNumber: 'BKG/26-27/00099' }));
    const mixed = await renderStatementPdf(input());
    expect(warm.equals(cold)).toBe(true);
    expect(mixed.equals(cold)).toBe(true);
  });

  it('prints the title, the booking, the period, every entry, the closing balance and totals', async () => {
    const boxes = await layoutOf(input({ payer: 'Payer 0d9c8b7a' }));
    expect(boxes.map((b) => b.text)).toEqual(
      expect.arrayContaining([
        'Acme Homes',
        'STATEMENT OF ACCOUNT',
        'BKG/26-27/00012',
        'Ananya Iyer',
        'Payer 0d9c8b7a',
        '1 Apr 2026 to 30 Nov 2026',
        'Opening balance',
        'DMD/26-27/00003',
        'Closing balance',
        '3,00,000.00',
        'Interest accrued',
        '₹ 1,234.56',
        'Debit (₹)',
        'BKG/26-27/00012 · Page 1 of 1',
      ]),
    );
    expect(overlaps(body(boxes))).toEqual([]);
  });

  it('wraps long names and particulars and runs over pages, the heading repeated, nothing overlapping', async () => {
    const long = 'Possession charges, club house membership and legal fees for the agreement. ';
    const boxes = await layoutOf(
      input({
        tenantName: 'Shree Ganesh Infrastructure and Realty Developers Private Limited '.repeat(3),
        buyerName: 'Venkataraghavan Subramaniam '.repeat(6),
        entries: Array.from({ length: 150 }, (_, i) =>
          entry(i + 1, {
            particulars: i % 10 === 0 ? long.repeat(3) : `Instalment ${i + 1}`,
            documentNumber: i % 25 === 0 ? `DMD/26-27/${'9'.repeat(30)}` : `DMD/${i + 1}`,
          }),
        ),
      }),
    );
    const pages = new Set(body(boxes).map((b) => b.page));
    expect(pages.size).toBeGreaterThan(3);
    const headings = body(boxes).filter((b) => b.text === 'Particulars');
    expect(new Set(headings.map((b) => b.page))).toEqual(pages);
    expect(overlaps(body(boxes))).toEqual([]);
    expect(Math.max(...body(boxes).map((b) => b.y1))).toBeLessThanOrEqual(A4_HEIGHT - MARGIN);
    const footers = boxes.filter((b) => / · Page \d+ of \d+$/.test(b.text));
    expect(footers.map((b) => b.text)).toEqual(
      [...pages].map((_, i) => `BKG/26-27/00012 · Page ${i + 1} of ${pages.size}`),
    );
  });
});
