import { pdfText } from '../../test/support/pdf-text';
import { layoutOf, overlaps, TextBox } from '../../test/support/pdf-layout';
import { amountInWords } from './amount-in-words';
import {
  InvoiceDocument,
  InvoiceLine,
  invoiceLineDescription,
  placeOfSupply,
} from './gst-documents';
import { renderInvoicePdf } from './invoice-pdf';
import { clearSharedLayouts } from './pdf-toolkit';

const A4_WIDTH = 595.28;
const A4_HEIGHT = 841.89;
const MARGIN = 40;
const OPTIONS = { locale: 'en-IN', currencySymbol: '₹' };

const DESCRIPTION = invoiceLineDescription({
  chargeType: 'CONSTRUCTION',
  demandNumber: 'DMD/26-27/00007',
  milestone: null,
  remarks: 'Plinth completion, tower B',
  landDeduction: '333333.33',
});

const line = (overrides: Partial<InvoiceLine> = {}): InvoiceLine => ({
  description: DESCRIPTION,
  sac: '995411',
  consideration: '1000000.00',
  landDeduction: '333333.33',
  taxableValue: '666666.67',
  cgstRate: '3.75',
  cgst: '25000.00',
  sgstRate: '3.75',
  sgst: '25000.00',
  ...overrides,
});

/** The STANDARD construction instalment of docs/gst.md: C 10,00,000.00, gross 10,50,000.00. */
const invoice = (overrides: Partial<InvoiceDocument> = {}): InvoiceDocument => ({
  number: 'INV/26-27/00001',
  date: '2026-04-01',
  supplier: {
    legalName: 'Skyline Developers Private Limited',
    address: '4th Floor, Trade Centre, Bandra Kurla Complex, Mumbai 400051',
    gstin: '27AAPFU0939F1ZV',
    stateCode: '27',
  },
  recipient: {
    name: 'Ananya Iyer',
    address: 'Flat 12, Sea View, Juhu Tara Road, Mumbai 400049',
    gstin: '29AAGCB7383J1Z4',
    bookingNumber: 'BKG/26-27/00031',
    unit: 'c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f',
    unitName: 'Tower B – 1203',
  },
  placeOfSupply: placeOfSupply('27'),
  lines: [line()],
  totals: {
    consideration: '1000000.00',
    taxableValue: '666666.67',
    cgst: '25000.00',
    sgst: '25000.00',
    tax: '50000.00',
    grossAmount: '1050000.00',
  },
  amountInWords: amountInWords('1050000.00', 'INR', 'en-IN'),
  reverseCharge: false,
  ...overrides,
});

/** Whitespace as one space; an id wrapped at its hyphens joined again. */
const flat = (text: string) => text.replace(/\s+/g, ' ').replace(/- (?=[0-9a-f]{4})/g, '-');
const footer = /^INV\/26-27\/00001 · Page \d+ of \d+$/;
const body = (boxes: TextBox[]) => boxes.filter((b) => !footer.test(b.text));

describe(renderInvoicePdf.name, () => {
  it('prints every field as real text: headings, parties, place of supply, lines, totals, words', async () => {
    const text = flat(await pdfText(await renderInvoicePdf(invoice(), OPTIONS)));
    for (const expected of [
      'TAX INVOICE',
      'ORIGINAL FOR RECIPIENT',
      'INV/26-27/00001',
      '01 Apr 2026',
      'Skyline Developers Private Limited',
      '4th Floor, Trade Centre, Bandra Kurla Complex, Mumbai 400051',
      '27AAPFU0939F1ZV',
      'Maharashtra (code 27)',
      'Reverse charge No',
      'Ananya Iyer',
      'Flat 12, Sea View, Juhu Tara Road, Mumbai 400049',
      '29AAGCB7383J1Z4',
      'BKG/26-27/00031',
      'Tower B – 1203',
      'Plinth completion, tower B',
      'value of land deemed one third',
      '995411',
      '10,00,000.00',
      '3,33,333.33',
      '6,66,666.67',
      '@ 3.75 %',
      '25,000.00',
      '₹ 50,000.00',
      '₹ 10,50,000.00',
      'Rupees Ten Lakh Fifty Thousand Only',
      'For Skyline Developers Private Limited',
    ]) {
      expect(text).toContain(expected);
    }
  });

  it('names an unregistered buyer and a unit without a name by its id; no land, no land note', async () => {
    const text = flat(
      await pdfText(
        await renderInvoicePdf(
          invoice({
            recipient: { ...invoice().recipient, gstin: null, address: null, unitName: null },
            lines: [
              line({
                description: 'Other charges: Club membership (demand DMD/26-27/00008)',
                sac: '999799',
                landDeduction: '0.00',
                taxableValue: '250000.00',
                cgstRate: '9.00',
                cgst: '22500.00',
                sgstRate: '9.00',
                sgst: '22500.00',
              }),
            ],
          }),
          OPTIONS,
        ),
      ),
    );
    expect(text).toContain('Unregistered');
    expect(text).toContain('c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f');
    expect(text).toContain('@ 9.00 %');
    expect(text).not.toContain('Land deduction: the value of land');
  });

  it('is deterministic, and the same whether its words were laid out for earlier documents', async () => {
    clearSharedLayouts();
    const cold = await renderInvoicePdf(invoice(), OPTIONS);
    const warm = await renderInvoicePdf(invoice(), OPTIONS);
    expect(cold.subarray(0, 5).toString()).toBe('%PDF-');
    expect(warm.equals(cold)).toBe(true);
  });

  it('embeds DejaVu Sans, so the rupee sign renders', async () => {
    const pdf = await renderInvoicePdf(invoice(), OPTIONS);
    expect(pdf.toString('latin1')).toMatch(/\/BaseFont \/[A-Z]{6}\+DejaVuSans\b/);
    expect(await pdfText(pdf)).toContain('₹');
  });

  it('lays out the sample without text running into text, inside the margins', async () => {
    const boxes = await layoutOf(() => renderInvoicePdf(invoice(), OPTIONS));
    expect(overlaps(boxes)).toEqual([]);
    expect(new Set(boxes.map((b) => b.page))).toEqual(new Set([1]));
    expect(Math.min(...boxes.map((b) => b.x0))).toBeGreaterThanOrEqual(MARGIN - 0.01);
    expect(Math.max(...boxes.map((b) => b.x1))).toBeLessThanOrEqual(A4_WIDTH - MARGIN + 0.01);
  });

  it('wraps long names, addresses and descriptions without cutting them', async () => {
    const address = 'Plot 14, Survey No. 221/3, Near Old Octroi Naka, Baner Pashan Link Road, '
      .repeat(6)
      .trim();
    const description =
      `${DESCRIPTION}; slab of the 14th, 15th and 16th floors of towers A, B and C `.repeat(4);
    const long = invoice({
      supplier: {
        ...invoice().supplier,
        legalName: 'Shree Ganesh Infrastructure and Realty Developers Private Limited '.repeat(2),
        address,
      },
      recipient: {
        ...invoice().recipient,
        name: 'Venkataraghavan Subramaniam and Lakshmi Venkataraghavan '.repeat(3).trim(),
        address,
        unitName: 'Tower C – Sky Villa 3401 with terrace garden and two covered parking bays',
      },
      lines: [line({ description }), line({ consideration: '99999999.99' })],
    });
    const boxes = await layoutOf(() => renderInvoicePdf(long, OPTIONS));
    expect(overlaps(body(boxes))).toEqual([]);
    expect(Math.max(...boxes.map((b) => b.x1))).toBeLessThanOrEqual(A4_WIDTH - MARGIN + 0.01);
    const text = flat(await pdfText(await renderInvoicePdf(long, OPTIONS)));
    expect(text).toContain(flat(address));
    expect(text).toContain(flat(long.recipient.name));
    expect(text).toContain(flat(description).trim());
    expect(text).toContain('9,99,99,999.99');
  });

  it('runs many lines over pages, the table heading repeated, nothing overlapping', async () => {
    const many = invoice({
      lines: Array.from({ length: 120 }, (_, i) =>
        line({
          description:
            i % 7 === 0 ? `${DESCRIPTION}, part ${i + 1} of the works `.repeat(3) : `Line ${i + 1}`,
        }),
      ),
    });
    const boxes = await layoutOf(() => renderInvoicePdf(many, OPTIONS));
    const pages = new Set(body(boxes).map((b) => b.page));
    expect(pages.size).toBeGreaterThan(2);
    const rowPages = new Set(
      body(boxes)
        .filter((b) => b.text.startsWith('Line ') || b.text.startsWith(DESCRIPTION))
        .map((b) => b.page),
    );
    expect(rowPages.size).toBeGreaterThan(2);
    const headings = body(boxes).filter((b) => b.text === 'Description');
    expect(new Set(headings.map((b) => b.page))).toEqual(rowPages);
    expect(overlaps(body(boxes))).toEqual([]);
    expect(Math.max(...body(boxes).map((b) => b.y1))).toBeLessThanOrEqual(A4_HEIGHT - MARGIN);
    expect(boxes.filter((b) => footer.test(b.text)).map((b) => b.text)).toEqual(
      [...pages].map((_, i) => `INV/26-27/00001 · Page ${i + 1} of ${pages.size}`),
    );
    const text = flat(await pdfText(await renderInvoicePdf(many, OPTIONS)));
    for (const i of [2, 60, 119]) expect(text).toContain(`Line ${i} `);
  });

  it('renders in well under a second, and faster once its words are laid out', async () => {
    clearSharedLayouts();
    let started = performance.now();
    await renderInvoicePdf(invoice(), OPTIONS);
    const first = performance.now() - started;
    started = performance.now();
    await renderInvoicePdf(invoice({ number: 'INV/26-27/00002' }), OPTIONS);
    const second = performance.now() - started;
    expect(first).toBeLessThan(1000);
    expect(second).toBeLessThan(250);
  });
});

describe(invoiceLineDescription.name, () => {
  it('names the remarks, else the milestone, and the land deduction when there is one', () => {
    expect(DESCRIPTION).toBe(
      'Construction service: Plinth completion, tower B (demand DMD/26-27/00007); value of land deemed one third of the consideration, deducted',
    );
    expect(
      invoiceLineDescription({
        chargeType: 'CONSTRUCTION',
        demandNumber: 'DMD/26-27/00009',
        milestone: 'Slab 4',
        remarks: ' ',
        landDeduction: '1.00',
      }),
    ).toBe(
      'Construction service: milestone Slab 4 (demand DMD/26-27/00009); value of land deemed one third of the consideration, deducted',
    );
    expect(
      invoiceLineDescription({
        chargeType: 'OTHER_CHARGES',
        demandNumber: 'DMD/26-27/00010',
        milestone: null,
        remarks: 'Legal charges',
        landDeduction: '0.00',
      }),
    ).toBe('Other charges: Legal charges (demand DMD/26-27/00010)');
    expect(
      invoiceLineDescription({
        chargeType: 'INTEREST',
        demandNumber: 'DMD/26-27/00011',
        milestone: null,
        remarks: '',
        landDeduction: '0.00',
      }),
    ).toBe('Interest on late payment (demand DMD/26-27/00011)');
  });
});

describe(placeOfSupply.name, () => {
  it("gives the state's name, and refuses a code that is not a state", () => {
    expect(placeOfSupply('27')).toEqual({ stateCode: '27', stateName: 'Maharashtra' });
    expect(() => placeOfSupply('99')).toThrow(RangeError);
  });
});
