/**
 * The printed demand letter (GET /demands/{id}/letter): one A4 page of real, extractable text in
 * DejaVu Sans (pdf-toolkit.ts, shared with the receipt and the statement): the tenant's name,
 * DEMAND LETTER (REQUEST FOR DISBURSEMENT for a lending bank), the booking, unit, buyer and
 * agreement value, the demand with its milestone or remarks, this demand, previous dues, interest
 * and the total payable in figures and in words, the due date, where to pay and the TDS note.
 * Pure: the same input gives the same bytes.
 */
import { amountInWords } from './amount-in-words';
import { displayDate, drawAmountLines, startPdf } from './pdf-toolkit';

/** An amount as printed: the exact decimal (for words) and its formatted figure. */
export interface LetterAmount {
  /** Two decimals, no grouping (`150000.50`). */
  amount: string;
  /** Grouped per the locale, no symbol (`1,50,000.50`). */
  formatted: string;
}

export interface LetterDocumentInput {
  tenantName: string;
  locale: string;
  currency: string;
  currencySymbol: string;
  letterDate: string;
  /** BANK: the letter is a request for disbursement to the lending bank. */
  payerType: string | null;
  /** The payer as printed (printed-names.ts); null: the letter covers every payer. */
  payerName: string | null;
  bookingNumber: string;
  /** The unit as printed: its name, or its id when it has none. */
  unit: string;
  buyerName: string;
  agreementValue: LetterAmount | null;
  demandNumber: string;
  demandType: string;
  /** The milestone's id, or null for a manual demand. */
  milestone: string | null;
  remarks: string;
  dueDate: string;
  /** The due date when it is before the letter date (the amount is then payable now). */
  overdueSince: string | null;
  thisDemand: LetterAmount;
  previousDues: LetterAmount;
  interestDue: LetterAmount;
  totalPayable: LetterAmount;
  payTo: { name: string; accountNumber: string; ifsc: string | null } | null;
  tdsNote: string | null;
  /** "Includes GST ₹50,000.00 of tax invoice INV/26-27/00001." for a taxed demand; else null. */
  gstNote?: string | null;
  /** The document's date (its metadata), so renders are byte-identical. */
  date: Date;
}

const MARGIN = 56;
const BLUE = '#1f3a5f';
const GREY = '#555555';
const RULE = '#cccccc';

/** The heading: a lending bank is asked to disburse, everyone else is sent a demand letter. */
export function letterHeading(payerType: string | null): string {
  return payerType === 'BANK' ? 'REQUEST FOR DISBURSEMENT' : 'DEMAND LETTER';
}

/**
 * What is asked and by when. A due date already past is never printed as "on or before": the
 * amount is overdue since then and payable now.
 */
export function letterIntro(
  input: Pick<
    LetterDocumentInput,
    'payerType' | 'buyerName' | 'dueDate' | 'overdueSince' | 'locale'
  >,
): string {
  const bank = input.payerType === 'BANK';
  if (input.overdueSince !== null) {
    const since = displayDate(input.overdueSince, input.locale);
    return bank
      ? `As per the tripartite agreement, we request you to disburse the amount below towards the booking of ${input.buyerName}: it is overdue since ${since} and payable now.`
      : `The following amount is overdue since ${since} and payable now. Kindly arrange the payment at once; late payment bears interest as per the agreement.`;
  }
  const by = displayDate(input.dueDate, input.locale);
  return bank
    ? `As per the tripartite agreement, we request you to disburse the amount below towards the booking of ${input.buyerName} on or before ${by}.`
    : `The following amount is payable on or before ${by}. Kindly arrange the payment by the due date; late payment bears interest as per the agreement.`;
}

/** Renders the letter; resolves with the PDF's bytes. */
export function renderLetterPdf(input: LetterDocumentInput): Promise<Buffer> {
  const { locale } = input;
  const heading = letterHeading(input.payerType);
  const bank = input.payerType === 'BANK';
  const { doc, done } = startPdf({
    title: `${heading === 'DEMAND LETTER' ? 'Demand letter' : 'Request for disbursement'} ${input.demandNumber}`,
    author: input.tenantName,
    date: input.date,
    margin: MARGIN,
  });
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  const right = left + width;
  const money = (a: LetterAmount) => `${input.currencySymbol} ${a.formatted}`;

  // Every block starts below the one above it (doc.y), so long names wrap instead of overlapping.
  doc.font('bold').fontSize(18).fillColor('black').text(input.tenantName, left, MARGIN, { width });
  doc.moveDown(0.2);
  doc.font('bold').fontSize(22).fillColor(BLUE).text(heading, left, doc.y, { width });
  doc
    .font('regular')
    .fontSize(10)
    .fillColor(GREY)
    .text(`Date: ${displayDate(input.letterDate, locale)}`, left, doc.y + 4, {
      width,
      align: 'right',
    });
  let y = doc.y + 10;

  const payerName = input.payerName ?? input.buyerName;
  const addressee = bank
    ? `To ${payerName}, lending bank of ${input.buyerName}`
    : input.payerType === null || input.payerType === 'BUYER'
      ? `To ${payerName}`
      : `To ${payerName}, on behalf of ${input.buyerName}`;
  doc.font('bold').fontSize(11).fillColor('black').text(addressee, left, y, { width });
  y = doc.y + 8;

  const facts: [string, string][] = [
    ['Booking', input.bookingNumber],
    ['Unit', input.unit],
    ['Buyer', input.buyerName],
    ...(input.agreementValue
      ? [['Agreement value', money(input.agreementValue)] as [string, string]]
      : []),
    ...(input.payerName !== null ? [['Payer', input.payerName] as [string, string]] : []),
    ['Demand', `${input.demandNumber} (${input.demandType})`],
    input.remarks !== '' || input.milestone === null
      ? ['Particulars', input.remarks === '' ? '—' : input.remarks]
      : ['Milestone', input.milestone],
  ];
  for (const [label, value] of facts) {
    doc.font('regular').fontSize(9).fillColor(GREY).text(label, left, y, { width: 110 });
    doc
      .font('regular')
      .fontSize(10)
      .fillColor('black')
      .text(value, left + 120, y, { width: width - 120 });
    y = Math.max(doc.y, y + 12) + 5;
  }

  const intro = letterIntro(input);
  doc
    .font('regular')
    .fontSize(10)
    .fillColor('black')
    .text(intro, left, y + 6, { width });
  y = doc.y + 10;

  doc.moveTo(left, y).lineTo(right, y).strokeColor(RULE).lineWidth(0.75).stroke();
  y += 8;
  const lines: [string, LetterAmount, boolean][] = [
    ['This demand', input.thisDemand, false],
    ['Previous dues', input.previousDues, false],
    ['Interest due', input.interestDue, false],
    ['Total payable', input.totalPayable, true],
  ];
  y = drawAmountLines(
    doc,
    lines.map(([label, amount, total]) => ({ label, amount: money(amount), total })),
    { left, right, y, labelWidth: 200 },
  );
  doc
    .font('regular')
    .fontSize(10)
    .fillColor('black')
    .text(
      `In words: ${amountInWords(input.totalPayable.amount, input.currency, locale)}`,
      left,
      y + 2,
      { width },
    );
  y = doc.y + 4;
  doc
    .font('regular')
    .fontSize(9)
    .fillColor(GREY)
    .text(
      `This demand in words: ${amountInWords(input.thisDemand.amount, input.currency, locale)}`,
      left,
      y,
      { width },
    );
  y = doc.y + 8;
  doc.moveTo(left, y).lineTo(right, y).strokeColor(RULE).stroke();
  y += 10;

  doc.font('bold').fontSize(11).fillColor(BLUE).text('Payment details', left, y, { width });
  y = doc.y + 4;
  const payTo: [string, string][] = input.payTo
    ? [
        ['Account name', input.payTo.name],
        ['Account number', input.payTo.accountNumber],
        ...(input.payTo.ifsc ? [['IFSC', input.payTo.ifsc] as [string, string]] : []),
      ]
    : [['Pay to', 'As agreed']];
  payTo.push(
    input.overdueSince !== null
      ? ['Overdue since', `${displayDate(input.overdueSince, locale)} (payable now)`]
      : ['Due date', displayDate(input.dueDate, locale)],
  );
  for (const [label, value] of payTo) {
    doc.font('regular').fontSize(9).fillColor(GREY).text(label, left, y, { width: 110 });
    doc
      .font('bold')
      .fontSize(10)
      .fillColor('black')
      .text(value, left + 120, y, { width: width - 120 });
    y = Math.max(doc.y, y + 12) + 4;
  }
  if (input.gstNote) {
    doc
      .font('regular')
      .fontSize(9)
      .fillColor('black')
      .text(input.gstNote, left, y + 6, { width });
    y = doc.y;
  }
  if (input.tdsNote !== null) {
    doc
      .font('bold')
      .fontSize(10)
      .fillColor('#b00020')
      .text(input.tdsNote, left, y + 6, { width });
    y = doc.y;
  }
  doc
    .font('regular')
    .fontSize(8)
    .fillColor(GREY)
    .text(
      `Previous dues are amounts overdue on other demands of the booking; interest is as of the letter's date. Please quote ${input.demandNumber} with your payment. Computer-generated; valid without a signature.`,
      left,
      y + 16,
      { width },
    );
  doc.end();
  return done;
}
