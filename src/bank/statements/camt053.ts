import Decimal from 'decimal.js';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { STATEMENT_ACCOUNT_MISMATCH, STATEMENT_CURRENCY_MISMATCH } from '@/bank/bank.errors';
import { maskAccountNumber, normaliseAccountNumber } from '@/bank/account-number';
import { camtVersion } from './detect-format';
import {
  Direction,
  ExpectedAccount,
  lineAt,
  ParsedLine,
  quote,
  SyncStatementParser,
  unreadable,
} from './statement-line';
import { parseIsoDate } from './values';

/** An element as fast-xml-parser gives it: text, or an object of children and `@_` attributes. */
type Node = string | { [name: string]: Node | Node[] | undefined } | undefined;

const REPEATED = new Set(['Stmt', 'Bal', 'Ntry', 'NtryDtls', 'TxDtls', 'Ustrd', 'Strd']);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  isArray: (name) => REPEATED.has(name),
});

const child = (node: Node, name: string): Node =>
  node !== undefined && typeof node === 'object' ? (node[name] as Node) : undefined;
const children = (node: Node, name: string): Node[] => {
  const value = node !== undefined && typeof node === 'object' ? node[name] : undefined;
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
};
const at = (node: Node, ...path: string[]): Node => path.reduce(child, node);
/** The text of an element (an element with attributes keeps it under `#text`). */
const textOf = (node: Node): string => {
  if (node === undefined) return '';
  if (typeof node === 'string') return node.trim();
  const text = node['#text'];
  return typeof text === 'string' ? text.trim() : '';
};

/** Start and end offsets of each `<name>` element, comments and CDATA masked out. */
function elementOffsets(text: string, name: string): { start: number; end: number }[] {
  const masked = /<!--|<!\[CDATA\[/.test(text)
    ? text.replace(/<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>/g, (m) => ' '.repeat(m.length))
    : text;
  const open = new RegExp(`<(?:[A-Za-z_][\\w.-]*:)?${name}(?=[\\s>/])`, 'g');
  const close = new RegExp(`</(?:[A-Za-z_][\\w.-]*:)?${name}\\s*>`, 'g');
  const offsets: { start: number; end: number }[] = [];
  for (let m = open.exec(masked); m; m = open.exec(masked)) {
    close.lastIndex = m.index;
    const gt = masked.indexOf('>', m.index);
    if (gt === -1) break;
    const c = masked[gt - 1] === '/' ? null : close.exec(masked);
    const end = masked[gt - 1] === '/' ? gt + 1 : c ? c.index + c[0].length : -1;
    if (end === -1) break;
    offsets.push({ start: m.index, end });
    open.lastIndex = end;
  }
  return offsets;
}

interface Amount {
  value: Decimal;
  text: string;
}

/**
 * ISO 20022 camt.053 (versions 02 to 08) by its standard elements: each `Stmt`
 * with its `Acct`, opening (`OPBD`, else `PRCD`) and closing (`CLBD`) `Bal`, and `Ntry`s. An entry
 * the bank marks pending (`PDNG`, and `INFO`) is counted, not imported. An entry with several
 * `TxDtls` that each give their amount (adding up to the entry) becomes one line per
 * transaction detail. DTDs and entities are refused before parsing (no entity expansion, no
 * external fetch); elements that are wrong are named by their path (`Stmt[2]/Ntry[5]/Amt`).
 */
export function* parseCamt053(text: string, expected: ExpectedAccount): SyncStatementParser {
  const declaration = /<!DOCTYPE|<!ENTITY/i.exec(text);
  if (declaration) {
    throw unreadable(
      `line ${lineAt(text, declaration.index)}`,
      'a DTD or entity declaration is not accepted in a statement',
    );
  }
  const valid = XMLValidator.validate(text);
  if (valid !== true) {
    throw unreadable(`line ${valid.err.line}`, `not well-formed XML: ${valid.err.msg}`);
  }
  const { version, namespace } = camtVersion(text);
  if (version === null) {
    throw unreadable(
      'Document',
      namespace
        ? `the namespace ${quote(namespace)} is not camt.053 (versions 02 to 08)`
        : 'the root element is not a camt.053 Document',
    );
  }
  const document = (parser.parse(text) as Record<string, Node>).Document;
  const statements = children(at(document, 'BkToCstmrStmt'), 'Stmt');
  if (statements.length === 0) throw unreadable('Document/BkToCstmrStmt', 'holds no Stmt');

  const entryOffsets = elementOffsets(text, 'Ntry');
  let entryIndex = 0;
  let lineCursor = { line: 1, offset: 0 };
  let pending = 0;
  let openingBalance: string | null = null;
  let closingBalance: string | null = null;
  let firstMismatchLine: number | null = null;

  const amountOf = (node: Node, where: string): Amount => {
    const value = textOf(node);
    if (!/^\d{1,16}(\.\d{1,5})?$/.test(value)) {
      throw unreadable(where, `${quote(value)} is not an amount`);
    }
    const amount = new Decimal(value);
    if (amount.decimalPlaces() > 2)
      throw unreadable(where, `${quote(value)} has more than 2 decimals`);
    const currency = typeof node === 'object' ? textOf(node['@_Ccy'] as Node) : '';
    if (currency !== '' && currency !== expected.currency) {
      throw STATEMENT_CURRENCY_MISMATCH.error(where, currency, expected.currency);
    }
    return { value: amount, text: amount.toFixed(2) };
  };
  const directionOf = (node: Node, where: string): Direction | undefined => {
    const indicator = textOf(node);
    if (indicator === '') return undefined;
    if (indicator === 'CRDT') return 'CREDIT';
    if (indicator === 'DBIT') return 'DEBIT';
    throw unreadable(where, `${quote(indicator)} is not CRDT or DBIT`);
  };
  const dateOf = (node: Node, where: string): string | null => {
    if (node === undefined) return null;
    const value = textOf(child(node, 'Dt')) || textOf(child(node, 'DtTm'));
    const date = parseIsoDate(value);
    if (!date) throw unreadable(`${where}/Dt`, `${quote(value)} is not a date`);
    return date;
  };

  for (const [s, stmt] of statements.entries()) {
    const stmtPath = `Stmt[${s + 1}]`;
    const account = at(stmt, 'Acct', 'Id');
    const named = textOf(child(account, 'IBAN')) || textOf(at(account, 'Othr', 'Id'));
    if (named !== '') {
      const id = normaliseAccountNumber(named);
      if (!id.endsWith(expected.accountNumber)) {
        throw STATEMENT_ACCOUNT_MISMATCH.error(
          `${stmtPath}/Acct/Id`,
          maskAccountNumber(id),
          maskAccountNumber(expected.accountNumber),
        );
      }
    }
    const accountCurrency = textOf(at(stmt, 'Acct', 'Ccy'));
    if (accountCurrency !== '' && accountCurrency !== expected.currency) {
      throw STATEMENT_CURRENCY_MISMATCH.error(
        `${stmtPath}/Acct/Ccy`,
        accountCurrency,
        expected.currency,
      );
    }
    const balances = new Map<string, Decimal>();
    for (const [b, bal] of children(stmt, 'Bal').entries()) {
      const where = `${stmtPath}/Bal[${b + 1}]`;
      const code = textOf(at(bal, 'Tp', 'CdOrPrtry', 'Cd'));
      const amount = amountOf(child(bal, 'Amt'), `${where}/Amt`).value;
      const sign = directionOf(child(bal, 'CdtDbtInd'), `${where}/CdtDbtInd`);
      if (!balances.has(code)) balances.set(code, sign === 'DEBIT' ? amount.neg() : amount);
    }
    const opening = balances.get('OPBD') ?? balances.get('PRCD');
    const closing = balances.get('CLBD');
    if (s === 0 && opening) openingBalance = opening.toFixed(2);
    if (closing) closingBalance = closing.toFixed(2);

    let net = new Decimal(0);
    for (const [e, entry] of children(stmt, 'Ntry').entries()) {
      const where = `${stmtPath}/Ntry[${e + 1}]`;
      const offsets = entryOffsets[entryIndex++];
      const status = textOf(child(entry, 'Sts')) || textOf(at(entry, 'Sts', 'Cd'));
      if (status !== 'BOOK' && status !== '') {
        pending++;
        continue;
      }
      const amount = amountOf(child(entry, 'Amt'), `${where}/Amt`);
      const direction = directionOf(child(entry, 'CdtDbtInd'), `${where}/CdtDbtInd`);
      if (!direction) throw unreadable(`${where}/CdtDbtInd`, 'is missing');
      const bookingDate = dateOf(child(entry, 'BookgDt'), `${where}/BookgDt`);
      const valueDate = dateOf(child(entry, 'ValDt'), `${where}/ValDt`) ?? bookingDate;
      if (!valueDate) throw unreadable(where, 'has neither ValDt nor BookgDt');
      net = direction === 'CREDIT' ? net.plus(amount.value) : net.minus(amount.value);

      const entryRaw = offsets ? text.slice(offsets.start, offsets.end) : '';
      if (offsets)
        lineCursor = { line: lineAt(text, offsets.start, lineCursor), offset: offsets.start };
      const fileLine = offsets ? lineCursor.line : 0;
      const details = children(entry, 'NtryDtls').flatMap((d) => children(d, 'TxDtls'));
      const base = {
        fileLine,
        valueDate,
        bookingDate,
        balance: null,
        reversal: textOf(child(entry, 'RvslInd')).toLowerCase() === 'true',
      };
      const split = splitDetails(details, amount.value, direction, where, amountOf, directionOf);
      if (split) {
        const detailOffsets = elementOffsets(entryRaw, 'TxDtls');
        for (const [d, part] of split.entries()) {
          const o = detailOffsets[d];
          const detailLine =
            o && offsets ? lineAt(text, offsets.start + o.start, lineCursor) : fileLine;
          yield {
            ...base,
            fileLine: detailLine,
            ...describe(entry, details[d], part.direction),
            direction: part.direction,
            amount: part.amount,
            raw: o ? entryRaw.slice(o.start, o.end) : entryRaw || JSON.stringify(details[d]),
          };
        }
      } else {
        yield {
          ...base,
          ...describe(entry, details, direction),
          direction,
          amount: amount.text,
          raw: entryRaw || JSON.stringify(entry),
        };
      }
    }
    if (opening && closing && !opening.plus(net).eq(closing)) firstMismatchLine ??= s + 1;
  }
  return { layout: null, openingBalance, closingBalance, firstMismatchLine, pending };
}

/**
 * The entry as one line per transaction detail, when there are several and each gives its amount
 * and they add up to the entry (else the entry is one line).
 */
function splitDetails(
  details: Node[],
  total: Decimal,
  direction: Direction,
  where: string,
  amountOf: (node: Node, where: string) => Amount,
  directionOf: (node: Node, where: string) => Direction | undefined,
): { amount: string; direction: Direction }[] | undefined {
  if (details.length < 2) return undefined;
  const parts: { amount: string; direction: Direction; value: Decimal }[] = [];
  for (const [d, tx] of details.entries()) {
    const path = `${where}/NtryDtls/TxDtls[${d + 1}]`;
    const node = child(tx, 'Amt') ?? at(tx, 'AmtDtls', 'TxAmt', 'Amt');
    if (node === undefined) return undefined;
    const amount = amountOf(node, `${path}/Amt`);
    if (amount.value.isZero()) return undefined;
    const own = directionOf(child(tx, 'CdtDbtInd'), `${path}/CdtDbtInd`) ?? direction;
    parts.push({ amount: amount.text, direction: own, value: amount.value });
  }
  const sum = parts.reduce(
    (acc, p) => (p.direction === direction ? acc.plus(p.value) : acc.minus(p.value)),
    new Decimal(0),
  );
  return sum.eq(total) ? parts : undefined;
}

/** Reference, narration and cheque number of an entry and its transaction detail(s). */
function describe(
  entry: Node,
  details: Node | Node[],
  direction: Direction,
): Pick<ParsedLine, 'narration' | 'reference' | 'hints' | 'chequeNumber'> {
  const list = Array.isArray(details) ? details : [details];
  const first = list[0];
  const refs = at(first, 'Refs');
  const endToEnd = textOf(child(refs, 'EndToEndId'));
  const candidates = [
    textOf(child(refs, 'ChqNb')),
    endToEnd.toUpperCase() === 'NOTPROVIDED' ? '' : endToEnd,
    textOf(child(refs, 'ClrSysRef')),
    textOf(child(refs, 'AcctSvcrRef')),
    textOf(child(refs, 'TxId')),
    textOf(child(refs, 'InstrId')),
    textOf(child(entry, 'AcctSvcrRef')),
    textOf(child(entry, 'NtryRef')),
  ].filter((r) => r !== '');
  const reference = candidates[0] ?? '';
  const cheque = textOf(child(refs, 'ChqNb'));
  // The other party: who paid a credit, who was paid a debit (v08 nests the name under Pty).
  const party = direction === 'CREDIT' ? 'Dbtr' : 'Cdtr';
  const narration = [
    ...list.flatMap((tx) => {
      const related = at(tx, 'RltdPties', party);
      return [
        textOf(child(related, 'Nm')) || textOf(at(related, 'Pty', 'Nm')),
        ...children(at(tx, 'RmtInf'), 'Ustrd').map(textOf),
        textOf(child(tx, 'AddtlTxInf')),
      ];
    }),
    textOf(child(entry, 'AddtlNtryInf')),
  ].filter((part, i, all) => part !== '' && all.indexOf(part) === i);
  return {
    narration: narration.join(' '),
    reference,
    hints: candidates.slice(1).join(' '),
    ...(/^\d{1,16}$/.test(cheque)
      ? { chequeNumber: cheque.replace(/^0+(?=\d)/, '').padStart(6, '0') }
      : {}),
  };
}
