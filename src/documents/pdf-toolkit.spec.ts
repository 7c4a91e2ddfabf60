import PDFDocument from 'pdfkit';
import { clearSharedLayouts, SHARED_LAYOUTS_MAX, startPdf } from './pdf-toolkit';

const WORDS = [
  'Opening balance',
  'STATEMENT OF ACCOUNT',
  '12,34,567.89',
  '₹ 1,00,000.00',
  'fi ffl',
];

/** Widths from a plain pdfkit document: fonts read from their files, nothing shared. */
function plainWidths(): Record<'regular' | 'bold', number[]> {
  const doc = new PDFDocument({ size: 'A4' });
  doc.registerFont('regular', require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'));
  doc.registerFont('bold', require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf'));
  const widths = (font: string) => WORDS.map((w) => doc.font(font).fontSize(9).widthOfString(w));
  return { regular: widths('regular'), bold: widths('bold') };
}

function sharedWidths(): Record<'regular' | 'bold', number[]> {
  const { doc } = startPdf({ title: 't', author: 'a', date: new Date(0), margin: 40 });
  // Alternating fonts word by word: each must get its own layout, never the other font's.
  const regular: number[] = [];
  const bold: number[] = [];
  for (const w of WORDS) {
    regular.push(doc.font('regular').fontSize(9).widthOfString(w));
    bold.push(doc.font('bold').fontSize(9).widthOfString(w));
  }
  doc.end();
  return { regular, bold };
}

describe('shared word layouts', () => {
  it('give each font its own widths, in the first document and in later ones', () => {
    const plain = plainWidths();
    expect(plain.bold).not.toEqual(plain.regular);
    clearSharedLayouts();
    expect(sharedWidths()).toEqual(plain);
    expect(sharedWidths()).toEqual(plain);
  });

  it('are renewed once a font has more than SHARED_LAYOUTS_MAX words: memory stays bounded', () => {
    clearSharedLayouts();
    const words = (doc: PDFKit.PDFDocument) =>
      Object.keys((doc as unknown as { _font: { layoutCache: object } })._font.layoutCache).length;
    const first = startPdf({ title: 't', author: 'a', date: new Date(0), margin: 40 }).doc;
    for (let i = 0; i <= SHARED_LAYOUTS_MAX; i++) first.font('regular').widthOfString(`w${i}`);
    expect(words(first)).toBe(SHARED_LAYOUTS_MAX + 1);
    first.end();
    const next = startPdf({ title: 't', author: 'a', date: new Date(0), margin: 40 }).doc;
    next.font('regular');
    expect(words(next)).toBe(0);
    next.end();
  });
});
