/**
 * The checks a GSTR-1 must pass before it is handed over (docs/returns-and-books.md), pure.
 * The return's tables are built from the documents' lines; each check sets them against the
 * documents' own totals, or each line's tax against its rate, so a wrong file is refused (422
 * GSTR1_INCONSISTENT) rather than filed: since July 2025 the tax payable is taken from GSTR-1
 * and cannot be edited.
 */
import { divideHalfUp, paiseText } from '@/common/money/paise';
import { percentBp } from '@/gst/gst-tax';
import type {
  Gstr1Document,
  Gstr1HsnRow,
  Gstr1Input,
  Gstr1Item,
  Gstr1Line,
  Gstr1Return,
} from './gstr1';

/** One disagreement: the document (or table) it is found in, and what disagrees. */
export interface Gstr1Problem {
  /** A document number, or the table (`b2b`, `hsn_b2c`...) when no one document is to blame. */
  where: string;
  message: string;
}

/** A line's tax may differ from round(taxable value x rate) by at most one paisa. */
const LINE_TOLERANCE = 1n;

/** round(amount x rate), half away from zero, for a rate in basis points. */
function taxAt(amount: bigint, bp: bigint): bigint {
  return amount < 0n ? -divideHalfUp(-amount * bp, 10_000n) : divideHalfUp(amount * bp, 10_000n);
}

const abs = (n: bigint) => (n < 0n ? -n : n);

interface Heads {
  txval: bigint;
  camt: bigint;
  samt: bigint;
}

const sumHeads = (list: readonly Heads[]): Heads =>
  list.reduce(
    (a, h) => ({ txval: a.txval + h.txval, camt: a.camt + h.camt, samt: a.samt + h.samt }),
    { txval: 0n, camt: 0n, samt: 0n },
  );

const minus = (a: Heads, b: Heads): Heads => ({
  txval: a.txval - b.txval,
  camt: a.camt - b.camt,
  samt: a.samt - b.samt,
});

const sameHeads = (a: Heads, b: Heads) =>
  a.txval === b.txval && a.camt === b.camt && a.samt === b.samt;

const headsText = (h: Heads) =>
  `taxable ${paiseText(h.txval)}, CGST ${paiseText(h.camt)}, SGST ${paiseText(h.samt)}`;

/** The documents' own totals. */
export const documentHeads = (documents: readonly Gstr1Document[]): Heads =>
  sumHeads(
    documents.map((d) => ({
      txval: d.totals.taxableValue,
      camt: d.totals.cgst,
      samt: d.totals.sgst,
    })),
  );

const lineHeads = (lines: readonly Gstr1Line[]): Heads =>
  sumHeads(lines.map((l) => ({ txval: l.taxableValue, camt: l.cgst, samt: l.sgst })));

const itemHeads = (items: readonly Gstr1Item[]): Heads => sumHeads(items.map((i) => i.itm_det));

const hsnHeads = (rows: readonly Gstr1HsnRow[] | undefined): Heads => sumHeads(rows ?? []);

/** The documents whose lines do not add up to their own totals: the likely culprits. */
function disagreeing(documents: readonly Gstr1Document[]): Gstr1Document[] {
  return documents.filter((d) => {
    const lines = lineHeads(d.lines);
    return (
      lines.txval !== d.totals.taxableValue ||
      lines.camt !== d.totals.cgst ||
      lines.samt !== d.totals.sgst ||
      d.totals.tax !== d.totals.cgst + d.totals.sgst
    );
  });
}

function blame(
  documents: readonly Gstr1Document[],
  table: string,
  message: string,
): Gstr1Problem[] {
  const culprits = disagreeing(documents);
  if (culprits.length === 0) return [{ where: table, message }];
  return culprits.map((d) => ({
    where: d.number,
    message: `${message}; its lines (${headsText(lineHeads(d.lines))}) differ from its totals (${headsText(
      { txval: d.totals.taxableValue, camt: d.totals.cgst, samt: d.totals.sgst },
    )}, tax ${paiseText(d.totals.tax)})`,
  }));
}

/** Check 1: every line's CGST and SGST within a paisa of round(taxable value x its rate). */
export function lineTaxProblems(documents: readonly Gstr1Document[]): Gstr1Problem[] {
  const problems: Gstr1Problem[] = [];
  for (const d of documents) {
    d.lines.forEach((line, i) => {
      for (const [head, rate, amount] of [
        ['CGST', line.cgstRate, line.cgst],
        ['SGST', line.sgstRate, line.sgst],
      ] as const) {
        const expected = taxAt(line.taxableValue, percentBp(rate));
        if (abs(amount - expected) > LINE_TOLERANCE) {
          problems.push({
            where: d.number,
            message: `line ${i + 1}: ${head} ${paiseText(amount)} is not ${rate} % of ${paiseText(
              line.taxableValue,
            )} (${paiseText(expected)})`,
          });
        }
      }
    });
  }
  return problems;
}

/**
 * Check 2: b2b + b2cs - cdnr = the period's invoices - its credit notes, tax exactly (and taxable
 * value, head by head).
 */
export function taxTotalProblems(input: Gstr1Input, ret: Gstr1Return): Gstr1Problem[] {
  const tables = minus(
    sumHeads([
      ...(ret.b2b ?? []).flatMap((c) => c.inv.map((i) => itemHeads(i.itms))),
      ...(ret.b2cs ?? []),
    ]),
    sumHeads((ret.cdnr ?? []).flatMap((c) => c.nt.map((n) => itemHeads(n.itms)))),
  );
  const documents = minus(documentHeads(input.invoices), documentHeads(input.creditNotes));
  const documentTax =
    input.invoices.reduce((a, d) => a + d.totals.tax, 0n) -
    input.creditNotes.reduce((a, d) => a + d.totals.tax, 0n);
  if (sameHeads(tables, documents) && tables.camt + tables.samt === documentTax) return [];
  return blame(
    [...input.invoices, ...input.creditNotes],
    'b2b+b2cs-cdnr',
    `b2b + b2cs - cdnr (${headsText(tables)}, tax ${paiseText(
      tables.camt + tables.samt,
    )}) differ from the invoices less the credit notes (${headsText(documents)}, tax ${paiseText(
      documentTax,
    )})`,
  );
}

/** Check 3: the HSN summary, B2B and B2C apart, equals the same documents' totals exactly. */
export function hsnTotalProblems(input: Gstr1Input, ret: Gstr1Return): Gstr1Problem[] {
  const b2b = (d: Gstr1Document) => d.recipientGstin !== null && d.recipientGstin !== '';
  const problems: Gstr1Problem[] = [];
  for (const [table, rows, registered] of [
    ['hsn_b2b', ret.hsn?.hsn_b2b, true],
    ['hsn_b2c', ret.hsn?.hsn_b2c, false],
  ] as const) {
    const invoices = input.invoices.filter((d) => b2b(d) === registered);
    const notes = input.creditNotes.filter((d) => b2b(d) === registered);
    const summary = hsnHeads(rows);
    const documents = minus(documentHeads(invoices), documentHeads(notes));
    if (sameHeads(summary, documents)) continue;
    problems.push(
      ...blame(
        [...invoices, ...notes],
        table,
        `${table} (${headsText(summary)}) differs from its documents (${headsText(documents)})`,
      ),
    );
  }
  return problems;
}

/** Every document was issued under the GSTIN the return is filed for. */
export function supplierProblems(input: Gstr1Input): Gstr1Problem[] {
  if (input.gstin === null) return [];
  return [...input.invoices, ...input.creditNotes]
    .filter((d) => d.supplierGstin !== input.gstin)
    .map((d) => ({
      where: d.number,
      message: `issued under GSTIN ${d.supplierGstin}, not ${input.gstin}`,
    }));
}

/** Every disagreement of the return with its documents; empty when it may be handed over. */
export function gstr1Problems(input: Gstr1Input, ret: Gstr1Return): Gstr1Problem[] {
  return [
    ...lineTaxProblems([...input.invoices, ...input.creditNotes]),
    ...taxTotalProblems(input, ret),
    ...hsnTotalProblems(input, ret),
    ...supplierProblems(input),
  ];
}
