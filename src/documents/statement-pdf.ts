/**
 * The printed statement of account (GET /bookings/{id}/statement?format=pdf): A4 pages of real,
 * extractable text in DejaVu Sans (pdf-toolkit.ts, shared with the receipt): the tenant's name,
 * STATEMENT OF ACCOUNT, the booking, unit, buyer and period, every entry (text that does not fit
 * its column wraps; the table runs over as many pages as it needs, its header repeated), the
 * closing balance and the totals. Pure: the same input gives the same bytes.
 */
import { displayDate, startPdf } from './pdf-toolkit';

/** One line of the ledger, its amounts already formatted for the locale (no symbol). */
export interface StatementDocumentEntry {
  date: string;
  documentNumber: string;
  particulars: string;
  dueDate: string;
  debit: string | null;
  credit: string | null;
  balance: string;
}

export interface StatementDocumentInput {
  tenantName: string;
  locale: string;
  /** `₹`: printed beside the totals and in the table's heading. */
  currencySymbol: string;
  bookingNumber: string;
  unit: string;
  buyerName: string;
  /** The payer the statement is limited to, as printed; null for every payer. */
  payer: string | null;
  from: string;
  to: string;
  asOf: string;
  openingBalance: string;
  closingBalance: string;
  entries: readonly StatementDocumentEntry[];
  /** Label and formatted amount, in order. */
  totals: readonly (readonly [string, string])[];
  /** The document's date (its metadata), so renders are byte-identical. */
  date: Date;
}

const MARGIN = 40;
const BLUE = '#1f3a5f';
const GREY = '#555555';
const RULE = '#cccccc';
const TABLE_SIZE = 7.5;
const CELL_PAD = 2.5;

interface Column {
  title: string;
  width: number;
  align: 'left' | 'right';
}

/**
 * Date, Document, Particulars (the rest of the width), Due, Debit, Credit, Balance: wide enough at
 * 7.5 pt for `28 Sept 2025` (en-IN), `DMD/26-27/00001` and `12,34,56,789.00` on one line.
 */
function columns(width: number): Column[] {
  const fixed: Column[] = [
    { title: 'Date', width: 56, align: 'left' },
    { title: 'Document', width: 76, align: 'left' },
    { title: 'Particulars', width: 0, align: 'left' },
    { title: 'Due', width: 56, align: 'left' },
    { title: 'Debit', width: 63, align: 'right' },
    { title: 'Credit', width: 63, align: 'right' },
    { title: 'Balance', width: 68, align: 'right' },
  ];
  fixed[2].width = width - fixed.reduce((a, c) => a + c.width, 0);
  return fixed;
}

/** Renders the statement; resolves with the PDF's bytes. */
export function renderStatementPdf(input: StatementDocumentInput): Promise<Buffer> {
  const { locale } = input;
  const { doc, done } = startPdf({
    title: `Statement of account ${input.bookingNumber}`,
    author: input.tenantName,
    date: input.date,
    margin: MARGIN,
    bufferPages: true,
  });
  // Dates repeat (a demand's due date on each of its receipts): each is formatted once.
  const dates = new Map<string, string>();
  const date = (d: string) => {
    let shown = dates.get(d);
    if (shown === undefined) dates.set(d, (shown = displayDate(d, locale)));
    return shown;
  };
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  const right = left + width;
  const bottom = () => doc.page.height - doc.page.margins.bottom;
  const cols = columns(width);

  // Every block starts below the one above it (doc.y after drawing), so long names wrap onto
  // more lines instead of running into the next block.
  doc.font('bold').fontSize(16).fillColor('black').text(input.tenantName, left, MARGIN, { width });
  doc.moveDown(0.2);
  doc.font('bold').fontSize(20).fillColor(BLUE).text('STATEMENT OF ACCOUNT', left, doc.y, {
    width,
  });
  let y = doc.y + 8;

  const facts: [string, string][] = [
    ['Booking', input.bookingNumber],
    ['Unit', input.unit],
    ['Buyer', input.buyerName],
    ...(input.payer !== null ? [['Payer', input.payer] as [string, string]] : []),
    ['Period', `${date(input.from)} to ${date(input.to)}`],
    ['As of', date(input.asOf)],
  ];
  for (const [label, value] of facts) {
    doc.font('regular').fontSize(9).fillColor(GREY).text(label, left, y, { width: 70 });
    doc
      .font('regular')
      .fontSize(10)
      .fillColor('black')
      .text(value, left + 80, y, { width: width - 80 });
    y = Math.max(doc.y, y + 12) + 4;
  }
  y += 6;

  /** The table's heading row; returns the y below it. */
  const heading = (top: number): number => {
    doc.font('bold').fontSize(TABLE_SIZE).fillColor(GREY);
    let x = left;
    let height = 0;
    for (const c of cols) {
      const text = c.align === 'right' ? `${c.title} (${input.currencySymbol})` : c.title;
      doc.text(text, x + CELL_PAD, top, { width: c.width - 2 * CELL_PAD, align: c.align });
      height = Math.max(height, doc.y - top);
      x += c.width;
    }
    const below = top + height + 3;
    doc.moveTo(left, below).lineTo(right, below).strokeColor(RULE).lineWidth(0.75).stroke();
    return below + 4;
  };

  /**
   * One row of cells; starts a new page (heading repeated) when it would not fit. `balanceRow`:
   * the opening or closing balance, its words and amount in bold. A cell that fits its column is
   * drawn as one line, placed by its measured width (no line wrapping: a statement has hundreds
   * of dates and amounts, and wrapping each was most of a render); one that does not wraps.
   */
  const row = (cells: (string | null)[], balanceRow = false) => {
    const font = (i: number) => (balanceRow && (i === 2 || i === 6) ? 'bold' : 'regular');
    doc.fontSize(TABLE_SIZE);
    const lineHeight = doc.currentLineHeight(true);
    const laid = cells.map((text, i) => {
      if (text === null || text === '') return null;
      const inner = cols[i].width - 2 * CELL_PAD;
      const textWidth = doc.font(font(i)).widthOfString(text);
      const height = textWidth <= inner ? lineHeight : doc.heightOfString(text, { width: inner });
      return { text, inner, textWidth, height, wraps: textWidth > inner };
    });
    const height = Math.max(lineHeight, ...laid.map((c) => c?.height ?? 0));
    if (y + height > bottom()) {
      doc.addPage();
      doc
        .font('regular')
        .fontSize(8)
        .fillColor(GREY)
        .text(
          `${input.tenantName} · Statement of account ${input.bookingNumber} (continued)`,
          left,
          MARGIN,
          { width },
        );
      y = heading(doc.y + 6);
    }
    doc.fontSize(TABLE_SIZE).fillColor('black');
    let x = left;
    laid.forEach((cell, i) => {
      if (cell !== null) {
        doc.font(font(i));
        if (cell.wraps) {
          doc.text(cell.text, x + CELL_PAD, y, { width: cell.inner, align: cols[i].align });
        } else {
          const shift = cols[i].align === 'right' ? cell.inner - cell.textWidth : 0;
          doc.text(cell.text, x + CELL_PAD + shift, y, { lineBreak: false });
        }
      }
      x += cols[i].width;
    });
    y += height + 4;
  };

  y = heading(y);
  row([date(input.from), null, 'Opening balance', null, null, null, input.openingBalance], true);
  for (const e of input.entries) {
    row([
      date(e.date),
      e.documentNumber,
      e.particulars,
      date(e.dueDate),
      e.debit,
      e.credit,
      e.balance,
    ]);
  }
  doc
    .moveTo(left, y - 2)
    .lineTo(right, y - 2)
    .strokeColor(RULE)
    .lineWidth(0.75)
    .stroke();
  y += 2;
  row([date(input.to), null, 'Closing balance', null, null, null, input.closingBalance], true);

  // The totals: label and amount with the symbol, kept together on one page.
  const lineHeight = 14;
  const totalsHeight = 20 + input.totals.length * lineHeight;
  y += 10;
  if (y + totalsHeight > bottom()) {
    doc.addPage();
    y = MARGIN;
  }
  doc.font('bold').fontSize(11).fillColor(BLUE).text('Totals', left, y, { width });
  y = doc.y + 4;
  for (const [label, amount] of input.totals) {
    doc.font('regular').fontSize(9).fillColor(GREY).text(label, left, y, { width: 150 });
    doc
      .font('bold')
      .fontSize(9)
      .fillColor('black')
      .text(`${input.currencySymbol} ${amount}`, left + 150, y, { width: 130, align: 'right' });
    y += lineHeight;
  }
  y += 6;
  const note =
    'Debits are amounts demanded and receipts reversed (cancelled or bounced); credits are ' +
    'amounts received and demands cancelled. Totals run from the first entry to the end of the ' +
    'period; interest is as of the statement date. Computer-generated; valid without a signature.';
  doc.font('regular').fontSize(8).fillColor(GREY);
  if (y + doc.heightOfString(note, { width }) > bottom()) {
    doc.addPage();
    y = MARGIN;
  }
  doc.text(note, left, y, { width });

  // Page numbers in the bottom margin of every page (the margin is lifted while writing there,
  // or pdfkit would start a new page for text below it).
  const { start, count } = doc.bufferedPageRange();
  for (let i = start; i < start + count; i++) {
    doc.switchToPage(i);
    const margin = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc
      .font('regular')
      .fontSize(8)
      .fillColor(GREY)
      .text(
        `${input.bookingNumber} · Page ${i - start + 1} of ${count}`,
        left,
        doc.page.height - margin + 14,
        { width, align: 'right', lineBreak: false },
      );
    doc.page.margins.bottom = margin;
  }
  doc.end();
  return done;
}
