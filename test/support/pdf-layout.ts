import PDFDocument from 'pdfkit';

/** Where one piece of text landed: its glyphs' extent and its page (1-based). */
export interface TextBox {
  text: string;
  x0: number;
  x1: number;
  y0: number;
  y1: number;
  page: number;
}

/**
 * Renders while recording where each piece of text lands (as receipt-pdf.spec.ts does): a single
 * line spans its measured width at its alignment, a wrapped block its whole width; top to doc.y.
 */
export async function layoutOf(render: () => Promise<Buffer>): Promise<TextBox[]> {
  const boxes: TextBox[] = [];
  const draw = PDFDocument.prototype.text;
  const pages = jest.spyOn(PDFDocument.prototype, 'addPage');
  const switched = jest.spyOn(PDFDocument.prototype, 'switchToPage');
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
    // The constructor adds the first page; after switchToPage (the footers), the page is the one
    // switched to.
    const lastSwitch = switched.mock.calls.at(-1) as [number] | undefined;
    const page = lastSwitch ? lastSwitch[0] + 1 : pages.mock.calls.length;
    boxes.push({ text, x0, x1, y0: top, y1: Math.max(this.y, top + lineHeight), page });
    return result;
  });
  try {
    await render();
  } finally {
    spy.mockRestore();
    pages.mockRestore();
    switched.mockRestore();
  }
  return boxes;
}

/** Pairs of text boxes on one page whose extents intersect (more than a hair). */
export function overlaps(boxes: readonly TextBox[]): string[] {
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
