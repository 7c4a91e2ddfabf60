/**
 * What every printed document (the receipt, the statement of account) is drawn with: pdfkit and
 * DejaVu Sans, embedded from the `dejavu-fonts-ttf` package (it has the ₹ sign; nothing is
 * downloaded at run time), registered as `regular` and `bold`. Documents carry fixed dates, so
 * the same input gives the same bytes.
 */
import type PDFDocumentClass from 'pdfkit';
import { readFileSync } from 'node:fs';

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
 * print a document.
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

/**
 * Word layouts (fontkit's shaping of each word, scaled to the font's units), shared by every
 * document of the process, per font. pdfkit keeps them per document only, and fontkit's shaping
 * was ~40 % of a statement's render, while a desk's statements repeat most of their words
 * (dates, names, particulars, common amounts). pdfkit never changes a layout it has cached (it
 * copies what it adjusts), and a font's scale is the same in every document, so sharing them
 * gives the same bytes. A layout takes about 2.5 KB, so they are renewed when a font's layouts pass
 * SHARED_LAYOUTS_MAX words (about 5 MB; a 300-entry statement has about 1,000), checked as each
 * document starts: memory stays bounded by that plus one document's words.
 */
export const SHARED_LAYOUTS_MAX = 2_000;
const FONT_NAMES = ['regular', 'bold'] as const;
let sharedLayouts = newSharedLayouts();

type Layouts = Record<string, unknown>;

function newSharedLayouts(): Record<(typeof FONT_NAMES)[number], Layouts> {
  // Prototype-less, as pdfkit makes its own: a word like "constructor" is just a word.
  return { regular: Object.create(null) as Layouts, bold: Object.create(null) as Layouts };
}

/** Forgets every shared layout (the benchmark's renders of a statement never printed before). */
export function clearSharedLayouts(): void {
  sharedLayouts = newSharedLayouts();
}

/** The part of pdfkit's document and font objects the sharing touches (not in its typings). */
interface PdfFontInternals {
  _font: { layoutCache?: Layouts };
}

export interface PdfStart {
  /** The document's title (its metadata). */
  title: string;
  /** Its author: the tenant's name. */
  author: string;
  /** Its creation and modification date: fixed by the caller, so renders are byte-identical. */
  date: Date;
  /** Page margin, in points, on every side. */
  margin: number;
  /** Keep pages in memory until the end, so a footer can name the page count. */
  bufferPages?: boolean;
}

export interface StartedPdf {
  /** An A4 document with the fonts `regular` and `bold` registered. */
  doc: PDFKit.PDFDocument;
  /** The PDF's bytes, once `doc.end()` has been called. */
  done: Promise<Buffer>;
}

/** A new A4 document; call `doc.end()` when drawn and await `done`. */
export function startPdf(start: PdfStart): StartedPdf {
  const { PDFDocument, regular, bold } = pdfToolkit();
  const doc = new PDFDocument({
    size: 'A4',
    margin: start.margin,
    ...(start.bufferPages ? { bufferPages: true } : {}),
    info: {
      Title: start.title,
      Author: start.author,
      Creator: 'finance-service',
      CreationDate: start.date,
      ModDate: start.date,
    },
  });
  doc.registerFont('regular', regular);
  doc.registerFont('bold', bold);
  if (FONT_NAMES.some((n) => Object.keys(sharedLayouts[n]).length > SHARED_LAYOUTS_MAX)) {
    clearSharedLayouts();
  }
  // Each font is made for this document now (as its first use would), given the shared
  // layouts, and the document's default font is current again.
  for (const name of FONT_NAMES) {
    doc.font(name);
    (doc as unknown as PdfFontInternals)._font.layoutCache = sharedLayouts[name];
  }
  doc.font('Helvetica');
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  return { doc, done };
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * `22 Nov 2026` (en-IN) or `Nov 22, 2026` (en-US): a calendar date as the locale writes it.
 * `day: '2-digit'` gives `01 Apr 2026`, as tax invoices and credit notes are dated.
 */
export function displayDate(
  date: string,
  locale: string,
  day: 'numeric' | '2-digit' = 'numeric',
): string {
  // One formatter per locale: a statement prints hundreds of dates, and making one is costly.
  const key = `${locale}|${day}`;
  let format = dateFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, {
      day,
      month: 'short',
      year: 'numeric',
      timeZone: 'UTC',
    });
    dateFormats.set(key, format);
  }
  return format.format(new Date(`${date}T00:00:00Z`));
}

/**
 * Figures down a letter: each label left in grey, its amount right-aligned; a total line in
 * bold and larger, ruled above. Starts at `y`; answers the y below the last line.
 */
export function drawAmountLines(
  doc: PDFKit.PDFDocument,
  lines: readonly { label: string; amount: string; total: boolean }[],
  at: { left: number; right: number; y: number; labelWidth: number },
): number {
  let y = at.y;
  for (const { label, amount, total } of lines) {
    if (total) {
      doc
        .moveTo(at.left, y - 3)
        .lineTo(at.right, y - 3)
        .strokeColor('#cccccc')
        .stroke();
      y += 3;
    }
    doc
      .font(total ? 'bold' : 'regular')
      .fontSize(total ? 12 : 10)
      .fillColor(total ? 'black' : '#555555')
      .text(label, at.left, y, { width: at.labelWidth });
    doc
      .font(total ? 'bold' : 'regular')
      .fontSize(total ? 12 : 10)
      .fillColor('black')
      .text(amount, at.right - 200, y, { width: 200, align: 'right' });
    y = doc.y + 6;
  }
  return y;
}
