import { pdfText } from '../../test/support/pdf-text';
import { layoutOf, overlaps, TextBox } from '../../test/support/pdf-layout';
import { againstInvoice, renderCreditNotePdf } from './credit-note-pdf';
import { CreditNoteDocument, CreditNoteLine } from './gst-documents';
import { clearSharedLayouts } from './pdf-toolkit';

const A4_WIDTH = 595.28;
const A4_HEIGHT = 841.89;
const MARGIN = 40;
const OPTIONS = { locale: 'en-IN', currencySymbol: '₹' };

const line = (overrides: Partial<CreditNoteLine> = {}): CreditNoteLine => ({
  invoice: 'INV/26-27/00001',
  description:
    'Construction service: Plinth completion, tower B (demand DMD/26-27/00007); value of land deemed one third of the consideration, deducted',
  sac: '995411',
  consideration: '1000000.00',
  taxableValue: '666666.67',
  cgstRate: '3.75',
  cgst: '25000.00',
  sgstRate: '3.75',
  sgst: '25000.00',
  ...overrides,
});

/** Two invoices credited: the construction instalment and a club membership. */
const note = (overrides: Partial<CreditNoteDocument> = {}): CreditNoteDocument => ({
  id: '3c2b1a09-8f7e-4d6c-9b5a-4e3d2c1b0a9f',
  number: 'CRN/26-27/00001',
  date: '2026-06-15',
  reason: "Booking cancelled at the buyer's request",
  supplier: {
    legalName: 'Skyline Developers Private Limited',
    address: '4th Floor, Trade Centre, Bandra Kurla Complex, Mumbai 400051',
    gstin: '27AAPFU0939F1ZV',
    stateCode: '27',
  },
  recipient: {
    name: 'Ananya Iyer',
    address: 'Flat 12, Sea View, Juhu Tara Road, Mumbai 400049',
    gstin: null,
    bookingNumber: 'BKG/26-27/00031',
    unit: 'c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f',
    unitName: 'Tower B – 1203',
  },
  invoices: [
    { number: 'INV/26-27/00001', date: '2026-04-01' },
    { number: 'INV/26-27/00014', date: '2026-05-10' },
  ],
  lines: [
    line(),
    line({
      invoice: 'INV/26-27/00014',
      description: 'Other charges: Club membership (demand DMD/26-27/00012)',
      sac: '999799',
      consideration: '250000.00',
      taxableValue: '250000.00',
      cgstRate: '9.00',
      cgst: '22500.00',
      sgstRate: '9.00',
      sgst: '22500.00',
    }),
  ],
  totals: {
    consideration: '1250000.00',
    taxableValue: '916666.67',
    cgst: '47500.00',
    sgst: '47500.00',
    tax: '95000.00',
    value: '1345000.00',
  },
  ...overrides,
});

const flat = (text: string) => text.replace(/\s+/g, ' ');
const footer = /^CRN\/26-27\/00001 · Page \d+ of \d+$/;
const body = (boxes: TextBox[]) => boxes.filter((b) => !footer.test(b.text));

describe(renderCreditNotePdf.name, () => {
  it('prints every field as real text, naming the original invoices with their dates', async () => {
    const text = flat(await pdfText(await renderCreditNotePdf(note(), OPTIONS)));
    for (const expected of [
      'CREDIT NOTE',
      'CRN/26-27/00001',
      '15 Jun 2026',
      "Booking cancelled at the buyer's request",
      'Skyline Developers Private Limited',
      '27AAPFU0939F1ZV',
      'Ananya Iyer',
      'Unregistered',
      'BKG/26-27/00031',
      'Tower B – 1203',
      'Against tax invoice INV/26-27/00001 dated 01 Apr 2026',
      'Against tax invoice INV/26-27/00014 dated 10 May 2026',
      'Plinth completion, tower B',
      'Club membership',
      '999799',
      '10,00,000.00',
      '6,66,666.67',
      '@ 3.75 %',
      '@ 9.00 %',
      '22,500.00',
      '₹ 9,16,666.67',
      '₹ 95,000.00',
      '₹ 13,45,000.00',
      'Value in words: Rupees Thirteen Lakh Forty Five Thousand Only',
      'section 34',
    ]) {
      expect(text).toContain(expected);
    }
  });

  it('writes the value in words in the international system outside en-IN', async () => {
    const text = flat(
      await pdfText(
        await renderCreditNotePdf(note(), {
          locale: 'en-US',
          currencySymbol: '₹',
          currency: 'INR',
        }),
      ),
    );
    expect(text).toContain('Against tax invoice INV/26-27/00001 dated Apr 01, 2026');
    expect(text).toContain('₹ 1,345,000.00');
    expect(text).toContain('One Million Three Hundred Forty Five Thousand and 00/100');
  });

  it('is deterministic, and the same whether its words were laid out for earlier documents', async () => {
    clearSharedLayouts();
    const cold = await renderCreditNotePdf(note(), OPTIONS);
    const warm = await renderCreditNotePdf(note(), OPTIONS);
    expect(cold.subarray(0, 5).toString()).toBe('%PDF-');
    expect(warm.equals(cold)).toBe(true);
    expect(cold.toString('latin1')).toMatch(/\/BaseFont \/[A-Z]{6}\+DejaVuSans\b/);
  });

  it('wraps a long reason and description without cutting them, nothing overlapping', async () => {
    const reason = 'The buyer withdrew from the booking after the bank refused the home loan. '
      .repeat(6)
      .trim();
    const description = `${line().description}; slab of the 14th, 15th and 16th floors `.repeat(4);
    const long = note({ reason, lines: [line({ description }), ...note().lines.slice(1)] });
    const boxes = await layoutOf(() => renderCreditNotePdf(long, OPTIONS));
    expect(overlaps(body(boxes))).toEqual([]);
    expect(Math.max(...body(boxes).map((b) => b.y1))).toBeLessThanOrEqual(A4_HEIGHT - MARGIN);
    expect(Math.max(...boxes.map((b) => b.x1))).toBeLessThanOrEqual(A4_WIDTH - MARGIN + 0.01);
    const text = flat(await pdfText(await renderCreditNotePdf(long, OPTIONS)));
    expect(text).toContain(reason);
    expect(text).toContain(flat(description).trim());
  });

  it('runs many invoices and lines over pages, the table heading repeated, nothing overlapping', async () => {
    const numbers = Array.from(
      { length: 90 },
      (_, i) => `INV/26-27/${String(i + 1).padStart(5, '0')}`,
    );
    const many = note({
      invoices: numbers.map((number) => ({ number, date: '2026-04-01' })),
      lines: numbers.map((invoice, i) => line({ invoice, description: `Line ${i + 1}` })),
    });
    const boxes = await layoutOf(() => renderCreditNotePdf(many, OPTIONS));
    const pages = new Set(body(boxes).map((b) => b.page));
    expect(pages.size).toBeGreaterThan(2);
    const rowPages = new Set(
      body(boxes)
        .filter((b) => b.text.startsWith('Line '))
        .map((b) => b.page),
    );
    const headings = body(boxes).filter((b) => b.text === 'Description');
    expect(new Set(headings.map((b) => b.page))).toEqual(rowPages);
    expect(overlaps(body(boxes))).toEqual([]);
    expect(Math.max(...body(boxes).map((b) => b.y1))).toBeLessThanOrEqual(A4_HEIGHT - MARGIN);
    expect(boxes.filter((b) => footer.test(b.text)).map((b) => b.text)).toEqual(
      [...pages].map((_, i) => `CRN/26-27/00001 · Page ${i + 1} of ${pages.size}`),
    );
    const text = flat(await pdfText(await renderCreditNotePdf(many, OPTIONS)));
    expect(text).toContain('Against tax invoice INV/26-27/00090 dated 01 Apr 2026');
    expect(text).toContain('Line 90 ');
  });

  it('renders in well under a second, and faster once its words are laid out', async () => {
    clearSharedLayouts();
    let started = performance.now();
    await renderCreditNotePdf(note(), OPTIONS);
    const first = performance.now() - started;
    started = performance.now();
    await renderCreditNotePdf(note({ number: 'CRN/26-27/00002' }), OPTIONS);
    const second = performance.now() - started;
    expect(first).toBeLessThan(1000);
    expect(second).toBeLessThan(250);
  });
});

describe(againstInvoice.name, () => {
  it('names the invoice and its date as printed', () => {
    expect(againstInvoice('INV/26-27/00001', '01 Apr 2026')).toBe(
      'Against tax invoice INV/26-27/00001 dated 01 Apr 2026',
    );
  });
});
