import { XMLBuilder } from 'fast-xml-parser';
import { paiseText } from '@/common/money/paise';
import { guardFormula } from '@/exports/receipt-export-rows';
import type { BooksSettings, Voucher } from './vouchers';

/**
 * The files of GET /books/vouchers, piece by piece so they stream: TallyPrime's XML import
 * (vouchers, or the masters they use) and the CSV of ledger lines. Pure: strings in, strings out.
 *
 * Tally (references/tally/NOTES.md): ENVELOPE / HEADER / TALLYREQUEST "Import Data" / BODY /
 * IMPORTDATA / REQUESTDESC (REPORTNAME, STATICVARIABLES / SVCURRENTCOMPANY) / REQUESTDATA of
 * TALLYMESSAGE, one object each. A debit is ISDEEMEDPOSITIVE Yes with a negative AMOUNT, a credit
 * No with a positive one, so a voucher's AMOUNTs sum to 0. Text is escaped as fast-xml-parser's
 * builder escapes it (the builder writes the head and masters; the vouchers, one per event, are
 * written by hand to the same bytes); characters XML 1.0 cannot hold (C0 controls but tab, LF,
 * CR) are dropped first.
 */

const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  format: false,
  suppressEmptyNode: false,
});

/** Characters XML 1.0 forbids (a name typed with a stray control character). */
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
const clean = (text: string) => text.replace(NOT_XML, '');

export type TallyReport = 'Vouchers' | 'All Masters';

/** Everything before the first TALLYMESSAGE. */
export function tallyHead(report: TallyReport, company: string): string {
  const desc = builder.build({
    REQUESTDESC: {
      REPORTNAME: report,
      STATICVARIABLES: { SVCURRENTCOMPANY: clean(company) },
    },
  });
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\r\n' +
    `<ENVELOPE><HEADER><TALLYREQUEST>Import Data</TALLYREQUEST></HEADER><BODY><IMPORTDATA>${desc}<REQUESTDATA>\r\n`
  );
}

/** Everything after the last TALLYMESSAGE. */
export const TALLY_TAIL = '</REQUESTDATA></IMPORTDATA></BODY></ENVELOPE>\r\n';

/** `2026-06-20` → `20260620`. */
export const tallyDate = (date: string) => date.replaceAll('-', '');

const XML_ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  "'": '&apos;',
  '"': '&quot;',
};
const XML_SPECIAL = /[&<>'"]/;

/** Text or an attribute's value escaped as the builder escapes them (its five entities). */
export function xmlText(text: string): string {
  return XML_SPECIAL.test(text) ? text.replace(/[&<>'"]/g, (c) => XML_ENTITIES[c]) : text;
}

/**
 * One VOUCHER in its TALLYMESSAGE, ending in CRLF. Written by hand, not by the builder: one a
 * ledger line, so it is the Tally file's hot loop (the builder took about 10 µs a voucher);
 * voucher-files.spec.ts holds it to the builder's output.
 */
export function tallyVoucher(v: Voucher): string {
  let entries = '';
  for (const l of v.lines) {
    // A debit is negative, a credit positive.
    entries +=
      `<ALLLEDGERENTRIES.LIST><LEDGERNAME>${xmlText(clean(l.ledger))}</LEDGERNAME>` +
      `<ISDEEMEDPOSITIVE>${l.amount > 0n ? 'Yes' : 'No'}</ISDEEMEDPOSITIVE>` +
      `<AMOUNT>${paiseText(-l.amount)}</AMOUNT></ALLLEDGERENTRIES.LIST>`;
  }
  return (
    `<TALLYMESSAGE><VOUCHER VCHTYPE="${xmlText(v.type)}" ACTION="Create" REMOTEID="${xmlText(v.documentId)}">` +
    `<DATE>${xmlText(tallyDate(v.date))}</DATE><VOUCHERTYPENAME>${xmlText(v.type)}</VOUCHERTYPENAME>` +
    `<VOUCHERNUMBER>${xmlText(clean(v.number))}</VOUCHERNUMBER>` +
    `<PARTYLEDGERNAME>${xmlText(clean(v.partyLedger))}</PARTYLEDGERNAME>` +
    `<NARRATION>${xmlText(clean(v.narration))}</NARRATION>${entries}</VOUCHER></TALLYMESSAGE>\r\n`
  );
}

/** The group a ledger of the settings is created under (Tally's predefined groups). */
export function ledgerParents(settings: BooksSettings): Map<string, string> {
  const L = settings.ledgers;
  const parents = new Map<string, string>();
  const put = (ledger: string, parent: string) => {
    if (!parents.has(ledger)) parents.set(ledger, parent);
  };
  put(L.construction, 'Sales Accounts');
  put(L.otherCharges, 'Sales Accounts');
  put(L.interest, 'Indirect Incomes');
  put(L.cgst, 'Duties & Taxes');
  put(L.sgst, 'Duties & Taxes');
  put(L.tds, 'Current Assets');
  put(L.refundInterest, 'Indirect Expenses');
  put(L.gstNotRecoverable, 'Indirect Expenses');
  put(L.cash, 'Cash-in-Hand');
  put(L.bank, 'Bank Accounts');
  return parents;
}

/** One LEDGER master in its TALLYMESSAGE, ending in CRLF. */
export function tallyLedger(name: string, parent: string): string {
  const xml = builder.build({
    TALLYMESSAGE: {
      LEDGER: {
        '@_NAME': clean(name),
        '@_ACTION': 'Create',
        'NAME.LIST': { NAME: clean(name) },
        PARENT: clean(parent),
      },
    },
  });
  return `${xml}\r\n`;
}

export const CSV_COLUMNS = [
  'date',
  'voucherType',
  'voucherNumber',
  'documentId',
  'ledger',
  'debit',
  'credit',
  'narration',
  'booking',
] as const;

/** RFC 4180: quoted when it holds a comma, quote, CR or LF; quotes doubled. */
function csvCell(value: string): string {
  const guarded = guardFormula(value);
  return /[",\r\n]/.test(guarded) ? `"${guarded.replaceAll('"', '""')}"` : guarded;
}

/** The byte order mark and the header row (as the receipt export's CSV starts). */
export const CSV_HEAD = `\uFEFF${CSV_COLUMNS.join(',')}\r\n`;

/**
 * The voucher's rows, one per ledger line, each ending in CRLF. The voucher's own cells are
 * quoted once and shared by its lines (the CSV's hot loop).
 */
export function csvRows(v: Voucher): string {
  const head = `${csvCell(v.date)},${csvCell(v.type)},${csvCell(v.number)},${csvCell(v.documentId)},`;
  const tail = `,${csvCell(v.narration)},${csvCell(v.bookingId)}\r\n`;
  let rows = '';
  for (const l of v.lines) {
    const debit = l.amount > 0n ? paiseText(l.amount) : '';
    const credit = l.amount < 0n ? paiseText(-l.amount) : '';
    rows += `${head}${csvCell(l.ledger)},${csvCell(debit)},${csvCell(credit)}${tail}`;
  }
  return rows;
}
