/**
 * The return as an XLSX workbook (format=xlsx), pure: one worksheet per table with the column
 * headings of the GST offline tool's Excel template (so a table can be pasted into the tool as it
 * is), plus `reconciliation`: per table, its count and totals against the documents it was made
 * from.
 */
import { paiseText } from '@/common/money/paise';
import type { XlsxRecord, XlsxSheet, XlsxSheetRows } from '@/exports/xlsx-sheet';
import { gstStateName } from '@/gst/gst-states';
import { documentHeads } from './gstr1-checks';
import { Gstr1Document, Gstr1HsnRow, Gstr1Input, Gstr1Item, Gstr1Return, rateText } from './gstr1';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `05-10-2026` (the JSON's dd-mm-yyyy) -> `05-Oct-2026`, as the offline tool's sheets write it. */
export function sheetDate(portalDate: string): string {
  const [dd, mm, yyyy] = portalDate.split('-');
  return `${dd}-${MONTHS[Number(mm) - 1]}-${yyyy}`;
}

/** `27` -> `27-Maharashtra`. */
export const placeOfSupply = (pos: string): string => `${pos}-${gstStateName(pos) ?? ''}`;

const money = (paise: bigint) => paiseText(paise);

const col = (
  key: string,
  header: string,
  type: XlsxSheet['columns'][number]['type'],
  width = 16,
) => ({
  key,
  header,
  type,
  width,
});

export const B2B_SHEET: XlsxSheet = {
  name: 'b2b',
  columns: [
    col('ctin', 'GSTIN/UIN of Recipient', 'text', 18),
    col('name', 'Receiver Name', 'text', 28),
    col('inum', 'Invoice Number', 'text', 18),
    col('idt', 'Invoice date', 'text', 13),
    col('val', 'Invoice Value', 'money'),
    col('pos', 'Place Of Supply', 'text', 20),
    col('rchrg', 'Reverse Charge', 'text', 9),
    col('applicable', 'Applicable % of Tax Rate', 'number', 9),
    col('type', 'Invoice Type', 'text', 13),
    col('etin', 'E-Commerce GSTIN', 'text', 18),
    col('rt', 'Rate', 'number', 7),
    col('txval', 'Taxable Value', 'money'),
    col('csamt', 'Cess Amount', 'money', 12),
  ],
};

export const B2CS_SHEET: XlsxSheet = {
  name: 'b2cs',
  columns: [
    col('typ', 'Type', 'text', 6),
    col('pos', 'Place Of Supply', 'text', 20),
    col('rt', 'Rate', 'number', 7),
    col('applicable', 'Applicable % of Tax Rate', 'number', 9),
    col('txval', 'Taxable Value', 'money'),
    col('csamt', 'Cess Amount', 'money', 12),
    col('etin', 'E-Commerce GSTIN', 'text', 18),
  ],
};

export const CDNR_SHEET: XlsxSheet = {
  name: 'cdnr',
  columns: [
    col('ctin', 'GSTIN/UIN of Recipient', 'text', 18),
    col('name', 'Receiver Name', 'text', 28),
    col('nt_num', 'Note Number', 'text', 18),
    col('nt_dt', 'Note Date', 'text', 13),
    col('ntty', 'Note Type', 'text', 6),
    col('pos', 'Place Of Supply', 'text', 20),
    col('rchrg', 'Reverse Charge', 'text', 9),
    col('supply', 'Note Supply Type', 'text', 13),
    col('val', 'Note Value', 'money'),
    col('applicable', 'Applicable % of Tax Rate', 'number', 9),
    col('rt', 'Rate', 'number', 7),
    col('txval', 'Taxable Value', 'money'),
    col('csamt', 'Cess Amount', 'money', 12),
  ],
};

export const NIL_SHEET: XlsxSheet = {
  name: 'nil',
  columns: [
    col('desc', 'Description', 'text', 44),
    col('nil', 'Nil Rated Supplies', 'money'),
    col('expt', 'Exempted (other than Nil Rated / Non-GST Supply)', 'money'),
    col('ngsup', 'Non-GST Supplies', 'money'),
  ],
};

const HSN_COLUMNS: XlsxSheet['columns'] = [
  col('hsn_sc', 'HSN', 'text', 9),
  col('desc', 'Description', 'text', 26),
  col('uqc', 'UQC', 'text', 6),
  col('qty', 'Total Quantity', 'number', 9),
  col('val', 'Total Value', 'money'),
  col('txval', 'Taxable Value', 'money'),
  col('iamt', 'Integrated Tax Amount', 'money'),
  col('camt', 'Central Tax Amount', 'money'),
  col('samt', 'State/UT Tax Amount', 'money'),
  col('csamt', 'Cess Amount', 'money', 12),
  col('rt', 'Rate', 'number', 7),
];
export const HSN_B2B_SHEET: XlsxSheet = { name: 'hsn_b2b', columns: HSN_COLUMNS };
export const HSN_B2C_SHEET: XlsxSheet = { name: 'hsn_b2c', columns: HSN_COLUMNS };

export const DOCS_SHEET: XlsxSheet = {
  name: 'docs',
  columns: [
    col('nature', 'Nature of Document', 'text', 30),
    col('from', 'Sr. No. From', 'text', 18),
    col('to', 'Sr. No. To', 'text', 18),
    col('totnum', 'Total Number', 'number', 10),
    col('cancel', 'Cancelled', 'number', 10),
  ],
};

export const RECONCILIATION_COLUMNS: XlsxSheet['columns'] = [
  col('table', 'Table', 'text', 18),
  col('rows', 'Rows', 'number', 8),
  col('documents', 'Documents', 'number', 10),
  col('txval', 'Taxable Value', 'money'),
  col('camt', 'Central Tax', 'money'),
  col('samt', 'State/UT Tax', 'money'),
  col('val', 'Value', 'money'),
  col('docTxval', "Documents' Taxable Value", 'money', 20),
  col('docCamt', "Documents' Central Tax", 'money', 20),
  col('docSamt', "Documents' State/UT Tax", 'money', 20),
  col('docVal', "Documents' Value", 'money', 20),
  col('agrees', 'Agrees', 'text', 8),
];

const NIL_DESCRIPTIONS = [
  'Inter-State supplies to registered persons',
  'Intra-State supplies to registered persons',
  'Inter-State supplies to unregistered persons',
  'Intra-State supplies to unregistered persons',
];

const NATURE: Record<1 | 5, string> = {
  1: 'Invoices for outward supply',
  5: 'Credit Note',
};

const isB2b = (d: Gstr1Document) => d.recipientGstin !== null && d.recipientGstin !== '';

interface Heads {
  txval: bigint;
  camt: bigint;
  samt: bigint;
}

const sum = (list: readonly Heads[]): Heads =>
  list.reduce(
    (a, h) => ({ txval: a.txval + h.txval, camt: a.camt + h.camt, samt: a.samt + h.samt }),
    { txval: 0n, camt: 0n, samt: 0n },
  );

const less = (a: Heads, b: Heads): Heads => ({
  txval: a.txval - b.txval,
  camt: a.camt - b.camt,
  samt: a.samt - b.samt,
});

const itemRows = (items: readonly Gstr1Item[]) => items.map((i) => i.itm_det);

/** One row of the reconciliation: a table against its documents. */
export interface ReconciliationRow {
  table: string;
  rows: number;
  documents: number;
  /** The table's heads; null where the table has none (nil, docs). */
  heads: Heads | null;
  documentHeads: Heads | null;
  /** The table's value (invoice or note value, non-GST amount), null where it has none. */
  value: bigint | null;
  documentValue: bigint | null;
  agrees: boolean;
}

/** Per table, its rows and totals against the documents they were made from. */
export function reconciliation(input: Gstr1Input, ret: Gstr1Return): ReconciliationRow[] {
  const b2bInvoices = input.invoices.filter(isB2b);
  const b2cInvoices = input.invoices.filter((d) => !isB2b(d));
  const b2bNotes = input.creditNotes.filter(isB2b);
  const b2cNotes = input.creditNotes.filter((d) => !isB2b(d));
  const valueOf = (documents: readonly Gstr1Document[]) =>
    documents.reduce((a, d) => a + d.totals.value, 0n);
  const row = (
    table: string,
    rows: number,
    documents: number,
    heads: Heads | null,
    docHeads: Heads | null,
    value: bigint | null,
    documentValue: bigint | null,
    countsAgree = true,
  ): ReconciliationRow => ({
    table,
    rows,
    documents,
    heads,
    documentHeads: docHeads,
    value,
    documentValue,
    agrees:
      countsAgree &&
      value === documentValue &&
      (heads === null ||
        (docHeads !== null &&
          heads.txval === docHeads.txval &&
          heads.camt === docHeads.camt &&
          heads.samt === docHeads.samt)),
  });

  const b2bInv = (ret.b2b ?? []).flatMap((c) => c.inv);
  const b2b = sum(b2bInv.flatMap((i) => itemRows(i.itms)));
  const b2cs = sum(ret.b2cs ?? []);
  const notes = (ret.cdnr ?? []).flatMap((c) => c.nt);
  const cdnr = sum(notes.flatMap((n) => itemRows(n.itms)));
  const hsnB2b = sum(ret.hsn?.hsn_b2b ?? []);
  const hsnB2c = sum(ret.hsn?.hsn_b2c ?? []);
  const withTax = (h: Heads) => h.txval + h.camt + h.samt;
  const ranges = (ret.doc_issue?.doc_det ?? []).flatMap((d) => d.docs);
  const issued = ranges.reduce((a, r) => a + r.totnum, 0);
  const documentCount = input.invoices.length + input.creditNotes.length;
  const nilAmount = (ret.nil?.inv ?? []).reduce((a, r) => a + r.ngsup_amt, 0n);

  const b2bDocs = documentHeads(b2bInvoices);
  const b2csDocs = less(documentHeads(b2cInvoices), documentHeads(b2cNotes));
  const cdnrDocs = documentHeads(b2bNotes);
  const hsnB2bDocs = less(b2bDocs, cdnrDocs);
  return [
    row(
      'b2b',
      b2bInv.reduce((a, i) => a + i.itms.length, 0),
      b2bInvoices.length,
      b2b,
      b2bDocs,
      b2bInv.reduce((a, i) => a + i.val, 0n),
      valueOf(b2bInvoices),
      b2bInv.length === b2bInvoices.length,
    ),
    row(
      'b2cs',
      ret.b2cs?.length ?? 0,
      b2cInvoices.length + b2cNotes.length,
      b2cs,
      b2csDocs,
      null,
      null,
    ),
    row(
      'cdnr',
      notes.reduce((a, n) => a + n.itms.length, 0),
      b2bNotes.length,
      cdnr,
      cdnrDocs,
      notes.reduce((a, n) => a + n.val, 0n),
      valueOf(b2bNotes),
      notes.length === b2bNotes.length,
    ),
    row(
      'nil',
      ret.nil?.inv.length ?? 0,
      input.nonGst.count,
      null,
      null,
      nilAmount,
      input.nonGst.count > 0 ? input.nonGst.amount : 0n,
    ),
    row(
      'hsn_b2b',
      ret.hsn?.hsn_b2b?.length ?? 0,
      b2bInvoices.length + b2bNotes.length,
      hsnB2b,
      hsnB2bDocs,
      withTax(hsnB2b),
      withTax(hsnB2bDocs),
    ),
    row(
      'hsn_b2c',
      ret.hsn?.hsn_b2c?.length ?? 0,
      b2cInvoices.length + b2cNotes.length,
      hsnB2c,
      b2csDocs,
      withTax(hsnB2c),
      withTax(b2csDocs),
    ),
    row('docs', ranges.length, documentCount, null, null, null, null, issued === documentCount),
    row(
      'b2b + b2cs - cdnr',
      0,
      documentCount,
      less(sum([b2b, b2cs]), cdnr),
      less(documentHeads(input.invoices), documentHeads(input.creditNotes)),
      null,
      null,
    ),
  ];
}

const text = (h: Heads | null, key: keyof Heads) => (h === null ? null : money(h[key]));

/** Every worksheet of the file, in the order the offline tool lists its tables. */
export function gstr1Sheets(input: Gstr1Input, ret: Gstr1Return): XlsxSheetRows[] {
  const names = new Map<string, string>();
  for (const d of [...input.invoices, ...input.creditNotes]) names.set(d.number, d.recipientName);

  const b2b: XlsxRecord[] = (ret.b2b ?? []).flatMap((c) =>
    c.inv.flatMap((i) =>
      i.itms.map((item) => ({
        ctin: c.ctin,
        name: names.get(i.inum) ?? '',
        inum: i.inum,
        idt: sheetDate(i.idt),
        val: money(i.val),
        pos: placeOfSupply(i.pos),
        rchrg: i.rchrg,
        applicable: null,
        type: 'Regular B2B',
        etin: null,
        rt: rateText(item.itm_det.rt),
        txval: money(item.itm_det.txval),
        csamt: money(item.itm_det.csamt),
      })),
    ),
  );
  const b2cs: XlsxRecord[] = (ret.b2cs ?? []).map((r) => ({
    typ: r.typ,
    pos: placeOfSupply(r.pos),
    rt: rateText(r.rt),
    applicable: null,
    txval: money(r.txval),
    csamt: money(r.csamt),
    etin: null,
  }));
  const cdnr: XlsxRecord[] = (ret.cdnr ?? []).flatMap((c) =>
    c.nt.flatMap((n) =>
      n.itms.map((item) => ({
        ctin: c.ctin,
        name: names.get(n.nt_num) ?? '',
        nt_num: n.nt_num,
        nt_dt: sheetDate(n.nt_dt),
        ntty: n.ntty,
        pos: placeOfSupply(n.pos),
        rchrg: n.rchrg,
        supply: 'Regular B2B',
        val: money(n.val),
        applicable: null,
        rt: rateText(item.itm_det.rt),
        txval: money(item.itm_det.txval),
        csamt: money(item.itm_det.csamt),
      })),
    ),
  );
  const nonGst = (ret.nil?.inv ?? []).reduce((a, r) => a + r.ngsup_amt, 0n);
  const nil: XlsxRecord[] = NIL_DESCRIPTIONS.map((desc, i) => ({
    desc,
    nil: '0.00',
    expt: '0.00',
    ngsup: money(i === 3 ? nonGst : 0n),
  }));
  const hsn = (rows: readonly Gstr1HsnRow[] | undefined): XlsxRecord[] =>
    (rows ?? []).map((r) => ({
      hsn_sc: r.hsn_sc,
      desc: r.desc,
      uqc: r.uqc,
      qty: r.qty.toString(),
      val: money(r.txval + r.iamt + r.camt + r.samt + r.csamt),
      txval: money(r.txval),
      iamt: money(r.iamt),
      camt: money(r.camt),
      samt: money(r.samt),
      csamt: money(r.csamt),
      rt: rateText(r.rt),
    }));
  const docs: XlsxRecord[] = (ret.doc_issue?.doc_det ?? []).flatMap((d) =>
    d.docs.map((r) => ({
      nature: NATURE[d.doc_num],
      from: r.from,
      to: r.to,
      totnum: String(r.totnum),
      cancel: String(r.cancel),
    })),
  );
  const reconciled: XlsxRecord[] = reconciliation(input, ret).map((r) => ({
    table: r.table,
    rows: String(r.rows),
    documents: String(r.documents),
    txval: text(r.heads, 'txval'),
    camt: text(r.heads, 'camt'),
    samt: text(r.heads, 'samt'),
    val: r.value === null ? null : money(r.value),
    docTxval: text(r.documentHeads, 'txval'),
    docCamt: text(r.documentHeads, 'camt'),
    docSamt: text(r.documentHeads, 'samt'),
    docVal: r.documentValue === null ? null : money(r.documentValue),
    agrees: r.agrees ? 'Yes' : 'No',
  }));
  return [
    { sheet: B2B_SHEET, rows: b2b },
    { sheet: B2CS_SHEET, rows: b2cs },
    { sheet: CDNR_SHEET, rows: cdnr },
    { sheet: NIL_SHEET, rows: nil },
    { sheet: HSN_B2B_SHEET, rows: hsn(ret.hsn?.hsn_b2b) },
    { sheet: HSN_B2C_SHEET, rows: hsn(ret.hsn?.hsn_b2c) },
    { sheet: DOCS_SHEET, rows: docs },
    {
      sheet: {
        name: 'reconciliation',
        columns: RECONCILIATION_COLUMNS,
        preamble: [
          ['GSTIN', ret.gstin ?? ''],
          ['Return period (fp)', ret.fp],
          ['Tax invoices', String(input.invoices.length)],
          ['Credit notes', String(input.creditNotes.length)],
        ],
      },
      rows: reconciled,
    },
  ];
}
