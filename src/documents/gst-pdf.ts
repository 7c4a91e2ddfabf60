/**
 * What the tax invoice and the credit note are both drawn with (pdf-toolkit.ts underneath): the
 * supplier's heading, the title, two columns of facts, a table of lines that runs over pages
 * with its heading repeated, the totals, paragraphs and the page footer. Every block starts below
 * the one above it (doc.y after drawing), so a long address or description wraps onto more lines
 * instead of running into the next block, and nothing is cut.
 */
import { toMoney } from '@/common/money/money';
import { printedUnit } from '@/common/domain/printed-names';
import { gstStateName } from '@/gst/gst-states';
import type { DecimalText, GstDocumentOptions, GstRecipient, GstSupplier } from './gst-documents';
import { displayDate, startPdf } from './pdf-toolkit';

export const MARGIN = 40;
export const BLUE = '#1f3a5f';
export const GREY = '#555555';
const RULE = '#cccccc';
const TABLE_SIZE = 7.5;
const CELL_PAD = 2.5;

/** A table cell: one text, or a small grey line above the main one (`3.75 %` over the CGST). */
export type Cell = string | readonly [small: string, main: string] | null;

export interface Column {
  title: string;
  /** Points; 0 for the one column that takes the rest of the width. */
  width: number;
  align: 'left' | 'right';
  /** Its heading names the currency: `Taxable value (₹)`. */
  money?: boolean;
}

export interface GstPdfStart {
  /** The document's title (metadata) and what a continued page is headed with. */
  title: string;
  supplier: GstSupplier;
  /** `YYYY-MM-DD`: also the PDF's date, so renders are byte-identical. */
  date: string;
  options: GstDocumentOptions;
  /** Printed in every page's footer beside its page number. */
  number: string;
}

/** Draws one GST document; `y` is where the next block starts. */
export class GstPdf {
  readonly doc: PDFKit.PDFDocument;
  readonly done: Promise<Buffer>;
  readonly left: number;
  readonly width: number;
  readonly right: number;
  y: number;
  private readonly dates = new Map<string, string>();

  constructor(private readonly start: GstPdfStart) {
    const { doc, done } = startPdf({
      title: start.title,
      author: start.supplier.legalName,
      date: new Date(`${start.date}T00:00:00Z`),
      margin: MARGIN,
      bufferPages: true,
    });
    this.doc = doc;
    this.done = done;
    this.left = doc.page.margins.left;
    this.width = doc.page.width - this.left - doc.page.margins.right;
    this.right = this.left + this.width;
    this.y = MARGIN;
  }

  get bottom(): number {
    return this.doc.page.height - this.doc.page.margins.bottom;
  }

  /** `1000000.00` → `₹ 10,00,000.00` (en-IN). */
  money(amount: DecimalText): string {
    return `${this.start.options.currencySymbol} ${this.figure(amount)}`;
  }

  /** `1000000.00` → `10,00,000.00` (en-IN): grouped per the locale, no symbol. */
  figure(amount: DecimalText): string {
    const { currency = 'INR', locale } = this.start.options;
    return toMoney(amount, currency, locale).formatted;
  }

  /** `01 Apr 2026` (en-IN). */
  date(date: string): string {
    let shown = this.dates.get(date);
    if (shown === undefined) {
      shown = displayDate(date, this.start.options.locale, '2-digit');
      this.dates.set(date, shown);
    }
    return shown;
  }

  /** A new page headed with what it continues. */
  newPage(): void {
    this.doc.addPage();
    this.doc
      .font('regular')
      .fontSize(8)
      .fillColor(GREY)
      .text(
        `${this.start.supplier.legalName} · ${this.start.title} (continued)`,
        this.left,
        MARGIN,
        {
          width: this.width,
        },
      );
    this.y = this.doc.y + 8;
  }

  /** Starts a new page unless `height` more points fit on this one. */
  keep(height: number): void {
    if (this.y + height > this.bottom) this.newPage();
  }

  rule(gap = 6): void {
    this.doc
      .moveTo(this.left, this.y)
      .lineTo(this.right, this.y)
      .strokeColor(RULE)
      .lineWidth(0.75)
      .stroke();
    this.y += gap;
  }

  /**
   * The supplier (legal name, address, GSTIN and state), then the title on the left and, when
   * given, a boxed mark on the right (`ORIGINAL FOR RECIPIENT`).
   */
  heading(title: string, mark: string | null): void {
    const { doc, left, width } = this;
    const s = this.start.supplier;
    doc.font('bold').fontSize(15).fillColor('black').text(s.legalName, left, this.y, { width });
    doc
      .font('regular')
      .fontSize(9)
      .fillColor(GREY)
      .text(s.address, left, doc.y + 2, { width });
    const state = gstStateName(s.stateCode);
    doc
      .font('regular')
      .fontSize(9)
      .fillColor('black')
      .text(
        `GSTIN: ${s.gstin}   State: ${state === null ? s.stateCode : `${state} (code ${s.stateCode})`}`,
        left,
        doc.y + 2,
        { width },
      );
    this.y = doc.y + 10;

    let markWidth = 0;
    let markBottom = this.y;
    if (mark !== null) {
      const pad = 5;
      doc.font('bold').fontSize(8);
      markWidth = doc.widthOfString(mark) + 2 * pad;
      const markHeight = doc.currentLineHeight() + 2 * pad;
      const top = this.y + 4;
      doc
        .save()
        .lineWidth(1)
        .rect(this.right - markWidth, top, markWidth, markHeight)
        .strokeColor(BLUE)
        .stroke()
        .restore();
      doc.fillColor(BLUE).text(mark, this.right - markWidth + pad, top + pad, { lineBreak: false });
      markBottom = top + markHeight;
    }
    doc
      .font('bold')
      .fontSize(20)
      .fillColor(BLUE)
      .text(title, left, this.y, { width: width - markWidth - 12 });
    this.y = Math.max(doc.y, markBottom) + 6;
    this.rule(10);
  }

  /** Two columns of label and value side by side, each under its own heading. */
  facts(
    leftHeading: string,
    leftRows: readonly (readonly [string, string])[],
    rightHeading: string,
    rightRows: readonly (readonly [string, string])[],
  ): void {
    const gap = 24;
    const columnWidth = (this.width - gap) / 2;
    const top = this.y;
    const leftBottom = this.factColumn(this.left, columnWidth, top, leftHeading, leftRows);
    const rightBottom = this.factColumn(
      this.left + columnWidth + gap,
      columnWidth,
      top,
      rightHeading,
      rightRows,
    );
    this.y = Math.max(leftBottom, rightBottom) + 6;
  }

  private factColumn(
    x: number,
    width: number,
    top: number,
    heading: string,
    rows: readonly (readonly [string, string])[],
  ): number {
    const { doc } = this;
    const labelWidth = 76;
    doc.font('bold').fontSize(9).fillColor(BLUE).text(heading, x, top, { width });
    let y = doc.y + 3;
    for (const [label, value] of rows) {
      doc.font('regular').fontSize(8).fillColor(GREY).text(label, x, y, { width: labelWidth });
      const labelBottom = doc.y;
      doc
        .font('regular')
        .fontSize(9)
        .fillColor('black')
        .text(value, x + labelWidth + 6, y, { width: width - labelWidth - 6 });
      y = Math.max(doc.y, labelBottom) + 3;
    }
    return y;
  }

  /** The recipient's rows: name, address, GSTIN (or unregistered), booking and unit. */
  recipientRows(r: GstRecipient): [string, string][] {
    return [
      ['Name', r.name],
      ['Address', r.address === null || r.address.trim() === '' ? '—' : r.address],
      ['GSTIN', r.gstin ?? 'Unregistered'],
      ['Booking', r.bookingNumber],
      ['Unit', printedUnit({ unitId: r.unit, unitName: r.unitName })],
    ];
  }

  /** A paragraph across the page, on the next page when it does not fit on this one. */
  paragraph(
    text: string,
    style: { font?: 'regular' | 'bold'; size?: number; color?: string; gap?: number } = {},
  ): void {
    const { doc, left, width } = this;
    doc
      .font(style.font ?? 'regular')
      .fontSize(style.size ?? 9)
      .fillColor(style.color ?? 'black');
    if (this.y + doc.heightOfString(text, { width }) > this.bottom) {
      this.newPage();
      doc
        .font(style.font ?? 'regular')
        .fontSize(style.size ?? 9)
        .fillColor(style.color ?? 'black');
    }
    doc.text(text, left, this.y, { width });
    this.y = doc.y + (style.gap ?? 4);
  }

  /**
   * The lines: a heading row, then one row per line, starting a new page (heading repeated) when
   * a row would not fit. A cell that fits its column is drawn as one line placed by its measured
   * width (as the statement does: wrapping every cell was most of a render); one that does not
   * wraps onto more lines.
   */
  table(columns: readonly Column[], rows: readonly (readonly Cell[])[]): void {
    const cols = columns.map((c) => ({ ...c }));
    const flexible = cols.find((c) => c.width === 0);
    if (flexible) flexible.width = this.width - cols.reduce((a, c) => a + c.width, 0);
    const { doc } = this;

    const heading = () => {
      doc.font('bold').fontSize(TABLE_SIZE).fillColor(GREY);
      const titles = cols.map((c) =>
        c.money ? `${c.title} (${this.start.options.currencySymbol})` : c.title,
      );
      const height = Math.max(
        ...titles.map((t, i) => doc.heightOfString(t, { width: cols[i].width - 2 * CELL_PAD })),
      );
      this.keep(height + 30);
      let x = this.left;
      titles.forEach((t, i) => {
        doc.text(t, x + CELL_PAD, this.y, {
          width: cols[i].width - 2 * CELL_PAD,
          align: cols[i].align,
        });
        x += cols[i].width;
      });
      this.y += height + 3;
      this.rule(4);
    };

    heading();
    for (const cells of rows) {
      doc.fontSize(TABLE_SIZE);
      const lineHeight = doc.currentLineHeight(true);
      const laid = cells.map((cell, i) => {
        if (cell === null || cell === '') return null;
        const inner = cols[i].width - 2 * CELL_PAD;
        const parts = typeof cell === 'string' ? [cell] : [...cell];
        const pieces = parts.map((text, k) => {
          doc.font('regular').fontSize(k === 0 && parts.length > 1 ? TABLE_SIZE - 1 : TABLE_SIZE);
          const textWidth = doc.widthOfString(text);
          const wraps = textWidth > inner;
          const height = wraps
            ? doc.heightOfString(text, { width: inner })
            : doc.currentLineHeight(true);
          return { text, textWidth, wraps, height, small: k === 0 && parts.length > 1 };
        });
        return { inner, pieces, height: pieces.reduce((a, p) => a + p.height, 0) };
      });
      const height = Math.max(lineHeight, ...laid.map((c) => c?.height ?? 0));
      if (this.y + height > this.bottom) {
        this.newPage();
        heading();
      }
      let x = this.left;
      laid.forEach((cell, i) => {
        if (cell !== null) {
          let y = this.y;
          for (const p of cell.pieces) {
            doc
              .font('regular')
              .fontSize(p.small ? TABLE_SIZE - 1 : TABLE_SIZE)
              .fillColor(p.small ? GREY : 'black');
            if (p.wraps) {
              doc.text(p.text, x + CELL_PAD, y, { width: cell.inner, align: cols[i].align });
            } else {
              const shift = cols[i].align === 'right' ? cell.inner - p.textWidth : 0;
              doc.text(p.text, x + CELL_PAD + shift, y, { lineBreak: false });
            }
            y += p.height;
          }
        }
        x += cols[i].width;
      });
      this.y += height + 4;
    }
    this.rule(8);
  }

  /**
   * Label and amount pairs at the right, `true` marking the total in bold; kept on one page with
   * room for the words and the signatory below, so a signature never stands on a page alone.
   */
  totals(rows: readonly (readonly [string, DecimalText, boolean?])[]): void {
    const { doc } = this;
    const blockWidth = 280;
    const x = this.right - blockWidth;
    this.keep(rows.length * 16 + 190);
    for (const [label, amount, total] of rows) {
      if (total) {
        this.y += 2;
        doc
          .moveTo(x, this.y - 3)
          .lineTo(this.right, this.y - 3)
          .strokeColor(RULE)
          .lineWidth(0.75)
          .stroke();
      }
      const size = total ? 11 : 9;
      doc
        .font(total ? 'bold' : 'regular')
        .fontSize(size)
        .fillColor(total ? 'black' : GREY)
        .text(label, x, this.y, { width: 150 });
      const labelBottom = doc.y;
      doc
        .font(total ? 'bold' : 'regular')
        .fontSize(size)
        .fillColor('black')
        .text(this.money(amount), x + 150, this.y, { width: blockWidth - 150, align: 'right' });
      this.y = Math.max(doc.y, labelBottom) + 3;
    }
    this.y += 6;
  }

  /** "For <supplier>", room to sign, "Authorised signatory", then the computer-generated note. */
  signature(): void {
    const { doc } = this;
    const boxWidth = 240;
    const x = this.right - boxWidth;
    const signer = `For ${this.start.supplier.legalName}`;
    doc.font('bold').fontSize(9);
    this.keep(doc.heightOfString(signer, { width: boxWidth }) + 64);
    this.y += 10;
    doc.fillColor('black').text(signer, x, this.y, { width: boxWidth, align: 'right' });
    this.y = doc.y + 28;
    doc
      .font('regular')
      .fontSize(9)
      .fillColor(GREY)
      .text('Authorised signatory', x, this.y, { width: boxWidth, align: 'right' });
    this.y = doc.y + 12;
    this.paragraph('Computer-generated document.', { size: 8, color: GREY });
  }

  /** Page numbers in every page's bottom margin; then the PDF's bytes. */
  finish(): Promise<Buffer> {
    const { doc } = this;
    const { start, count } = doc.bufferedPageRange();
    for (let i = start; i < start + count; i++) {
      doc.switchToPage(i);
      // The margin is lifted while writing in it, or pdfkit would start a new page.
      const margin = doc.page.margins.bottom;
      doc.page.margins.bottom = 0;
      doc
        .font('regular')
        .fontSize(8)
        .fillColor(GREY)
        .text(
          `${this.start.number} · Page ${i - start + 1} of ${count}`,
          this.left,
          doc.page.height - margin + 14,
          { width: this.width, align: 'right', lineBreak: false },
        );
      doc.page.margins.bottom = margin;
    }
    doc.end();
    return this.done;
  }
}
