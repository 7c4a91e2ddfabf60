import PDFDocument from 'pdfkit';
import { clearSharedLayouts, startPdf } from './pdf-toolkit';

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
});
