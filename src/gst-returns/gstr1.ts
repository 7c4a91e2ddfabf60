/**
 * GSTR-1 of a month from the tax invoices and credit notes dated in it (docs/returns-and-books.md),
 * pure: no database, no clock. Every amount is a document's own paise, summed; nothing is
 * recomputed or re-rounded. Money is whole paise in a BigInt and a rate is basis points (7.5 % =
 * 750n), so the JSON writer (gstr1-json.ts) is the only place they become JSON numbers.
 *
 * Layout: the GST portal's offline-tool JSON as India Compliance's GSTR-1 export writes it
 * (resilient-tech/india-compliance, `gstr_1_json_map.py`): section keys `b2b`, `b2cs`, `cdnr`,
 * `nil`, `hsn` (`hsn_b2b` / `hsn_b2c`, the Table 12 split), `doc_issue`; dates dd-mm-yyyy; `pos`
 * a two-digit string; `num` counted from 1 in each list; only non-empty sections written.
 */
import { paiseText } from '@/common/money/paise';
import { CONSTRUCTION_SAC, percentBp } from '@/gst/gst-tax';

// ---------------------------------------------------------------------------------------------
// What the return is made of

/** One line of an invoice or credit note as issued (money in paise). */
export interface Gstr1Line {
  sac: string;
  taxableValue: bigint;
  /** Percent text as issued: `3.75`. */
  cgstRate: string;
  cgst: bigint;
  sgstRate: string;
  sgst: bigint;
}

/** The document's own totals as issued: the independent side of every check. */
export interface Gstr1Totals {
  taxableValue: bigint;
  cgst: bigint;
  sgst: bigint;
  /** cgst + sgst. */
  tax: bigint;
  /** An invoice's grossAmount; a credit note's value (consideration + tax). */
  value: bigint;
}

/** A tax invoice or a credit note as frozen when issued. */
export interface Gstr1Document {
  /** `INV/26-27/00001`, `CRN/26-27/00001`. */
  number: string;
  /** `YYYY-MM-DD`. */
  date: string;
  supplierGstin: string;
  /** The recipient's GSTIN (B2B), or null (B2C). */
  recipientGstin: string | null;
  recipientName: string;
  /** Two-digit state code of the place of supply (the flat's state, the supplier's). */
  pos: string;
  lines: readonly Gstr1Line[];
  totals: Gstr1Totals;
}

export interface Gstr1Input {
  /** The filer's GSTIN; null when the tenant has none (the file cannot be filed as it is). */
  gstin: string | null;
  /** `YYYY-MM`. */
  period: string;
  /** Tax invoices dated in the period. */
  invoices: readonly Gstr1Document[];
  /** Credit notes dated in the period. */
  creditNotes: readonly Gstr1Document[];
  /** The consideration of the untaxed demands of EXEMPT bookings dated in the period, and how many. */
  nonGst: { count: number; amount: bigint };
  /**
   * The counter keys of the numbering series (`INV/26-27/{SEQ}`): numbers matching one key are
   * one series of Table 13.
   */
  seriesKeys: { invoice: readonly string[]; creditNote: readonly string[] };
}

// ---------------------------------------------------------------------------------------------
// The return, in the portal's keys (amounts in paise, rates in basis points)

export interface Gstr1ItemDetail {
  rt: bigint;
  txval: bigint;
  iamt: bigint;
  camt: bigint;
  samt: bigint;
  csamt: bigint;
}

export interface Gstr1Item {
  num: number;
  itm_det: Gstr1ItemDetail;
}

export interface Gstr1B2bInvoice {
  inum: string;
  /** dd-mm-yyyy. */
  idt: string;
  val: bigint;
  pos: string;
  rchrg: 'N';
  inv_typ: 'R';
  itms: Gstr1Item[];
}

export interface Gstr1B2b {
  ctin: string;
  inv: Gstr1B2bInvoice[];
}

export interface Gstr1B2cs {
  sply_ty: 'INTRA';
  pos: string;
  typ: 'OE';
  rt: bigint;
  txval: bigint;
  iamt: bigint;
  camt: bigint;
  samt: bigint;
  csamt: bigint;
}

export interface Gstr1Note {
  ntty: 'C';
  nt_num: string;
  nt_dt: string;
  val: bigint;
  pos: string;
  rchrg: 'N';
  inv_typ: 'R';
  itms: Gstr1Item[];
}

export interface Gstr1Cdnr {
  ctin: string;
  nt: Gstr1Note[];
}

export interface Gstr1NilRow {
  sply_ty: 'INTRAB2C';
  expt_amt: bigint;
  nil_amt: bigint;
  ngsup_amt: bigint;
}

export interface Gstr1HsnRow {
  num: number;
  hsn_sc: string;
  desc: string;
  uqc: 'NA';
  qty: bigint;
  rt: bigint;
  txval: bigint;
  iamt: bigint;
  camt: bigint;
  samt: bigint;
  csamt: bigint;
}

export interface Gstr1DocRange {
  num: number;
  from: string;
  to: string;
  totnum: number;
  cancel: number;
  net_issue: number;
}

/** 1: invoices for outward supply; 5: credit notes. */
export interface Gstr1DocDet {
  doc_num: 1 | 5;
  docs: Gstr1DocRange[];
}

/** Sections with nothing in them are left out, as India Compliance's export leaves them out. */
export interface Gstr1Return {
  gstin: string | null;
  /** `MMYYYY`. */
  fp: string;
  b2b?: Gstr1B2b[];
  b2cs?: Gstr1B2cs[];
  cdnr?: Gstr1Cdnr[];
  nil?: { inv: Gstr1NilRow[] };
  hsn?: { hsn_b2b?: Gstr1HsnRow[]; hsn_b2c?: Gstr1HsnRow[] };
  doc_issue?: { doc_det: Gstr1DocDet[] };
}

// ---------------------------------------------------------------------------------------------
// Small rules

/** `2026-10` -> `102026`. */
export const filingPeriod = (period: string): string =>
  `${period.slice(5, 7)}${period.slice(0, 4)}`;

/** `2026-10-05` -> `05-10-2026`. */
export const portalDate = (date: string): string =>
  `${date.slice(8, 10)}-${date.slice(5, 7)}-${date.slice(0, 4)}`;

/** The combined rate of a line (CGST + SGST), in basis points: 3.75 + 3.75 -> 750n (7.5 %). */
export const combinedRateBp = (line: Pick<Gstr1Line, 'cgstRate' | 'sgstRate'>): bigint =>
  percentBp(line.cgstRate) + percentBp(line.sgstRate);

/** `750n` -> `7.5` (for messages and sheets: the rate as a person writes it). */
export const rateText = (bp: bigint): string => paiseText(bp).replace(/\.?0+$/, '');

/** What Table 12 calls a SAC (at most 30 characters). */
export function sacDescription(sac: string): string {
  return sac === CONSTRUCTION_SAC ? 'Residential construction' : 'Other services';
}

/** Document numbers in issue order: by length, then as text (`INV/9` before `INV/10`). */
export const byNumber = (a: string, b: string): number =>
  a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);

const byDateThenNumber = (a: Gstr1Document, b: Gstr1Document): number =>
  a.date < b.date ? -1 : a.date > b.date ? 1 : byNumber(a.number, b.number);

interface Heads {
  txval: bigint;
  camt: bigint;
  samt: bigint;
}

const zero = (): Heads => ({ txval: 0n, camt: 0n, samt: 0n });
const isZero = (h: Heads) => h.txval === 0n && h.camt === 0n && h.samt === 0n;

function addLine(into: Heads, line: Gstr1Line, sign: 1n | -1n): void {
  into.txval += sign * line.taxableValue;
  into.camt += sign * line.cgst;
  into.samt += sign * line.sgst;
}

/** A map that creates its entry on first use, in insertion order. */
function entry<K, V>(map: Map<K, V>, key: K, create: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = create();
    map.set(key, value);
  }
  return value;
}

/** One item per rate, lowest rate first, numbered from 1. */
function itemsOf(lines: readonly Gstr1Line[]): Gstr1Item[] {
  const byRate = new Map<bigint, Heads>();
  for (const line of lines) addLine(entry(byRate, combinedRateBp(line), zero), line, 1n);
  return [...byRate.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([rt, h], i) => ({
      num: i + 1,
      itm_det: { rt, txval: h.txval, iamt: 0n, camt: h.camt, samt: h.samt, csamt: 0n },
    }));
}

/** Groups documents by recipient GSTIN (ascending), each group's documents by date and number. */
function byRecipient(documents: readonly Gstr1Document[]): [string, Gstr1Document[]][] {
  const groups = new Map<string, Gstr1Document[]>();
  for (const d of documents) entry(groups, d.recipientGstin ?? '', () => []).push(d);
  return [...groups.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([ctin, list]) => [ctin, [...list].sort(byDateThenNumber)]);
}

const isB2b = (d: Gstr1Document) => d.recipientGstin !== null && d.recipientGstin !== '';

// ---------------------------------------------------------------------------------------------
// Table 13: the series of document numbers

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const SEQ_MASK = '{SEQ}';

/**
 * The series a number belongs to and its sequence: the counter key (`INV/26-27/{SEQ}`) it
 * matches with the most fixed characters; when none does (a series whose counter is gone), the
 * number with its last run of digits masked.
 */
export function seriesOf(
  number: string,
  keys: readonly string[],
): { key: string; seq: bigint } | null {
  let best: { key: string; seq: bigint } | null = null;
  for (const key of keys) {
    const at = key.indexOf(SEQ_MASK);
    if (at < 0) continue;
    const before = key.slice(0, at);
    const after = key.slice(at + SEQ_MASK.length);
    const match = new RegExp(`^${escapeRegExp(before)}(\\d+)${escapeRegExp(after)}$`).exec(number);
    if (match && (!best || key.length > best.key.length)) {
      best = { key, seq: BigInt(match[1]) };
    }
  }
  if (best) return best;
  const digits = /(\d+)(\D*)$/.exec(number);
  if (!digits) return null;
  return {
    key: `${number.slice(0, digits.index)}${SEQ_MASK}${digits[2]}`,
    seq: BigInt(digits[1]),
  };
}

/** One range per series: its lowest and highest number in the period and how many were issued. */
export function documentRanges(
  numbers: readonly string[],
  keys: readonly string[],
): Gstr1DocRange[] {
  const series = new Map<string, { from: [bigint, string]; to: [bigint, string]; count: number }>();
  for (const number of numbers) {
    const s = seriesOf(number, keys) ?? { key: number, seq: 0n };
    const range = series.get(s.key);
    if (!range) {
      series.set(s.key, { from: [s.seq, number], to: [s.seq, number], count: 1 });
      continue;
    }
    range.count += 1;
    if (s.seq < range.from[0]) range.from = [s.seq, number];
    if (s.seq > range.to[0]) range.to = [s.seq, number];
  }
  return [...series.values()]
    .sort((a, b) => byNumber(a.from[1], b.from[1]))
    .map((r, i) => ({
      num: i + 1,
      from: r.from[1],
      to: r.to[1],
      totnum: r.count,
      // An invoice is never cancelled: a credit note undoes it (and is itself a document).
      cancel: 0,
      net_issue: r.count,
    }));
}

// ---------------------------------------------------------------------------------------------
// The return

/** The HSN summary rows of `plus` documents less `minus` documents, per (SAC, rate). */
function hsnRows(plus: readonly Gstr1Document[], minus: readonly Gstr1Document[]): Gstr1HsnRow[] {
  const rows = new Map<string, { sac: string; rt: bigint; heads: Heads }>();
  const add = (documents: readonly Gstr1Document[], sign: 1n | -1n) => {
    for (const d of documents) {
      for (const line of d.lines) {
        const rt = combinedRateBp(line);
        const row = entry(rows, `${line.sac}|${rt}`, () => ({ sac: line.sac, rt, heads: zero() }));
        addLine(row.heads, line, sign);
      }
    }
  };
  add(plus, 1n);
  add(minus, -1n);
  return [...rows.values()]
    .filter((r) => !isZero(r.heads))
    .sort((a, b) => (a.sac !== b.sac ? (a.sac < b.sac ? -1 : 1) : a.rt < b.rt ? -1 : 1))
    .map((r, i) => ({
      num: i + 1,
      hsn_sc: r.sac,
      desc: sacDescription(r.sac),
      uqc: 'NA',
      qty: 0n,
      rt: r.rt,
      txval: r.heads.txval,
      iamt: 0n,
      camt: r.heads.camt,
      samt: r.heads.samt,
      csamt: 0n,
    }));
}

/** The GSTR-1 of the period from its documents (unchecked: gstr1-checks.ts says if it agrees). */
export function buildGstr1(input: Gstr1Input): Gstr1Return {
  const b2bInvoices = input.invoices.filter(isB2b);
  const b2cInvoices = input.invoices.filter((d) => !isB2b(d));
  const b2bNotes = input.creditNotes.filter(isB2b);
  const b2cNotes = input.creditNotes.filter((d) => !isB2b(d));

  const ret: Gstr1Return = { gstin: input.gstin, fp: filingPeriod(input.period) };

  const b2b = byRecipient(b2bInvoices).map(([ctin, list]) => ({
    ctin,
    inv: list.map((d): Gstr1B2bInvoice => ({
      inum: d.number,
      idt: portalDate(d.date),
      val: d.totals.value,
      pos: d.pos,
      rchrg: 'N',
      inv_typ: 'R',
      itms: itemsOf(d.lines),
    })),
  }));
  if (b2b.length > 0) ret.b2b = b2b;

  // B2C invoices less the period's credit notes to recipients without a GSTIN, per (pos, rate).
  const b2csRows = new Map<string, { pos: string; rt: bigint; heads: Heads }>();
  const addB2c = (documents: readonly Gstr1Document[], sign: 1n | -1n) => {
    for (const d of documents) {
      for (const line of d.lines) {
        const rt = combinedRateBp(line);
        const row = entry(b2csRows, `${d.pos}|${rt}`, () => ({ pos: d.pos, rt, heads: zero() }));
        addLine(row.heads, line, sign);
      }
    }
  };
  addB2c(b2cInvoices, 1n);
  addB2c(b2cNotes, -1n);
  const b2cs = [...b2csRows.values()]
    .filter((r) => !isZero(r.heads))
    .sort((a, b) => (a.pos !== b.pos ? (a.pos < b.pos ? -1 : 1) : a.rt < b.rt ? -1 : 1))
    .map((r): Gstr1B2cs => ({
      sply_ty: 'INTRA',
      pos: r.pos,
      typ: 'OE',
      rt: r.rt,
      txval: r.heads.txval,
      iamt: 0n,
      camt: r.heads.camt,
      samt: r.heads.samt,
      csamt: 0n,
    }));
  if (b2cs.length > 0) ret.b2cs = b2cs;

  const cdnr = byRecipient(b2bNotes).map(([ctin, list]) => ({
    ctin,
    nt: list.map((d): Gstr1Note => ({
      ntty: 'C',
      nt_num: d.number,
      nt_dt: portalDate(d.date),
      val: d.totals.value,
      pos: d.pos,
      rchrg: 'N',
      inv_typ: 'R',
      itms: itemsOf(d.lines),
    })),
  }));
  if (cdnr.length > 0) ret.cdnr = cdnr;

  if (input.nonGst.count > 0) {
    ret.nil = {
      inv: [{ sply_ty: 'INTRAB2C', expt_amt: 0n, nil_amt: 0n, ngsup_amt: input.nonGst.amount }],
    };
  }

  const hsnB2b = hsnRows(b2bInvoices, b2bNotes);
  const hsnB2c = hsnRows(b2cInvoices, b2cNotes);
  if (hsnB2b.length > 0 || hsnB2c.length > 0) {
    ret.hsn = {
      ...(hsnB2b.length > 0 ? { hsn_b2b: hsnB2b } : {}),
      ...(hsnB2c.length > 0 ? { hsn_b2c: hsnB2c } : {}),
    };
  }

  const docDet: Gstr1DocDet[] = [];
  const invoiceRanges = documentRanges(
    input.invoices.map((d) => d.number),
    input.seriesKeys.invoice,
  );
  if (invoiceRanges.length > 0) docDet.push({ doc_num: 1, docs: invoiceRanges });
  const noteRanges = documentRanges(
    input.creditNotes.map((d) => d.number),
    input.seriesKeys.creditNote,
  );
  if (noteRanges.length > 0) docDet.push({ doc_num: 5, docs: noteRanges });
  if (docDet.length > 0) ret.doc_issue = { doc_det: docDet };

  return ret;
}
