import Decimal from 'decimal.js';
import { STATEMENT_ACCOUNT_MISMATCH, STATEMENT_CURRENCY_MISMATCH } from '@/bank/bank.errors';
import { maskAccountNumber, normaliseAccountNumber } from '@/bank/account-number';
import {
  Direction,
  ExpectedAccount,
  ParsedLine,
  quote,
  SyncStatementParser,
  StatementTotals,
  unreadable,
} from './statement-line';
import { parseSwiftAmount, parseSwiftDate } from './values';

/** One tag with its value: the tag's line and the continuation lines after it. */
interface Field {
  tag: string;
  lines: string[];
  /** 1-based line of the tag. */
  line: number;
  /** Offsets of the field in the text (for the raw text of a statement line). */
  start: number;
  end: number;
}

const TAG = /^:(\d{2}[A-Z]?):/;
/** SWIFT envelope blocks around the message: `{1:...}{2:...}{4:` before, `-}` / `{5:...}` after. */
const BLOCK = /^\{\d:[^{}]*\}/;
const BLOCK_OPEN = /^\{\d:/;
const END_MARKER = /^(-\}|-|\}|\$)(\{5:.*)?$/;

/**
 * The fields of the file from the first `:20:` on: header lines before it (a bank's own banner,
 * the SWIFT envelope) are skipped, envelope markers end a field, and every other line that does
 * not start with a tag continues the field before it (`:86:` narrations span several lines).
 */
function* fields(text: string): Generator<Field> {
  let current: Field | undefined;
  let started = false;
  let lineNo = 0;
  for (let start = 0; start < text.length;) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    let line = text.slice(start, end);
    lineNo++;
    const lineStart = start;
    start = end + 1;
    while (line.startsWith('{')) {
      const block = BLOCK.exec(line) ?? BLOCK_OPEN.exec(line);
      if (!block) break;
      line = line.slice(block[0].length);
    }
    const content = line.trimEnd();
    if (content.trim() === '' || END_MARKER.test(content.trim())) {
      if (END_MARKER.test(content.trim()) && current) {
        yield current;
        current = undefined;
      }
      continue;
    }
    const tag = TAG.exec(content);
    if (tag) {
      if (tag[1] === '20') started = true;
      if (!started) continue;
      if (current) yield current;
      current = {
        tag: tag[1],
        lines: [content.slice(tag[0].length)],
        line: lineNo,
        start: lineStart + (text.slice(lineStart, end).length - line.length),
        end,
      };
    } else if (current) {
      current.lines.push(content);
      current.end = end;
    }
  }
  if (current) yield current;
}

/**
 * `:61:` value date, [entry date], mark, [funds code], amount, type, references. Citi leaves the
 * optional entry date as four spaces.
 */
const STATEMENT_LINE =
  /^(\d{6})(\d{4}| {4})?(RC|RD|C|D)([A-Z])?(\d{1,15}[,.]\d{0,2})([NSF][A-Z0-9]{3})(.*)$/;
/** `:60F:` / `:62F:` (and M): mark, date, currency, amount. */
const BALANCE = /^([CD])(\d{6})([A-Z]{3})(\d{1,15},\d{0,2})$/;

interface Balance {
  amount: Decimal;
  currency: string;
}

interface Block {
  opening?: Balance;
  net: Decimal;
  line: number;
}

/**
 * SWIFT MT940 (docs/bank.md), as banks really write it: a banner or the SWIFT envelope around
 * the blocks, several statements (`:20:` ... `:62F:`) one after the other, a `:61:` without its
 * entry date, with a funds code, `RC`/`RD` reversals (a reversed credit takes money out),
 * `:86:` over several lines. Each statement's chain is checked: opening + lines = `:62F:`/`:62M:`,
 * else that line is the mismatch. Unlike mt940js, a chain that does not add up is reported, not
 * thrown.
 */
export function* parseMt940(text: string, expected: ExpectedAccount): SyncStatementParser {
  let block: Block | undefined;
  let held: { line: ParsedLine; field: Field; narration: string[] } | undefined;
  let openingBalance: string | null = null;
  let closingBalance: string | null = null;
  let firstMismatchLine: number | null = null;
  let statements = 0;

  const release = (): ParsedLine | undefined => {
    if (!held) return undefined;
    const { line, narration } = held;
    held = undefined;
    if (narration.length > 0) {
      line.narration = narration.join(' ').replace(/\s+/g, ' ').trim();
      // A UTR wrapped over two :86: lines is found in the lines joined without a space.
      line.hints = [line.hints, narration.join('')].filter(Boolean).join(' ');
    }
    return line;
  };
  const balanceOf = (field: Field, name: string): Balance => {
    const value = field.lines[0].trim();
    const m = BALANCE.exec(value);
    const amount = m ? parseSwiftAmount(m[4]) : undefined;
    if (!m || amount === undefined || !parseSwiftDate(m[2])) {
      throw unreadable(
        `line ${field.line}`,
        `:${field.tag}: ${quote(value)} is not a ${name} balance (C/D, YYMMDD, currency, amount)`,
      );
    }
    if (m[3] !== expected.currency) {
      throw STATEMENT_CURRENCY_MISMATCH.error(
        `:${field.tag}: at line ${field.line}`,
        m[3],
        expected.currency,
      );
    }
    const signed = new Decimal(amount);
    return { amount: m[1] === 'D' ? signed.neg() : signed, currency: m[3] };
  };
  const closeBlock = (before: string) => {
    if (block) {
      throw unreadable(
        `line ${block.line}`,
        `the statement starting here has no closing balance (:62F:) before ${before}`,
      );
    }
  };

  for (const field of fields(text)) {
    if (field.tag !== '86' && held) {
      const line = release();
      if (line) yield line;
    }
    switch (field.tag) {
      case '20':
        closeBlock(`line ${field.line}`);
        block = { net: new Decimal(0), line: field.line };
        statements++;
        break;
      case '25': {
        const named = normaliseAccountNumber(field.lines[0]);
        const own = expected.accountNumber;
        if (!named.endsWith(own) && !named.endsWith(`${own}${expected.currency}`)) {
          throw STATEMENT_ACCOUNT_MISMATCH.error(
            `:25: at line ${field.line}`,
            maskAccountNumber(named),
            maskAccountNumber(own),
          );
        }
        break;
      }
      case '60F':
      case '60M': {
        if (!block) break;
        block.opening = balanceOf(field, 'opening');
        openingBalance ??= block.opening.amount.toFixed(2);
        break;
      }
      case '61': {
        if (!block?.opening) {
          throw unreadable(`line ${field.line}`, ':61: comes before the opening balance (:60F:)');
        }
        const line = statementLine(field, text);
        // A zero entry moves no money (Citi writes balance notes so): not a line, as in CSV.
        if (line === undefined) break;
        block.net = block.net.plus(line.direction === 'CREDIT' ? line.amount : `-${line.amount}`);
        held = { line, field, narration: [] };
        break;
      }
      case '86':
        if (held) {
          held.narration.push(...field.lines.map((l) => l.trim()));
          held.line.raw = text.slice(held.field.start, field.end);
        }
        break;
      case '62F':
      case '62M': {
        if (!block?.opening) {
          throw unreadable(
            `line ${field.line}`,
            `:${field.tag}: without an opening balance (:60F:)`,
          );
        }
        const closing = balanceOf(field, 'closing');
        if (!block.opening.amount.plus(block.net).eq(closing.amount)) {
          firstMismatchLine ??= field.line;
        }
        closingBalance = closing.amount.toFixed(2);
        block = undefined;
        break;
      }
      default:
        // :21:, :28C:, :64:, :65:, :13D:, :90D:/:90C: and banks' own tags carry nothing we keep.
        break;
    }
  }
  const last = release();
  if (last) yield last;
  if (statements === 0) {
    throw unreadable('line 1', 'no :20: tag was found: the file is not an MT940 statement');
  }
  closeBlock('the end of the file');
  const totals: StatementTotals = {
    layout: null,
    openingBalance,
    closingBalance,
    firstMismatchLine,
    pending: 0,
  };
  return totals;
}

/** One `:61:` (and its supplementary-details line) as a statement line; narration comes from :86:. */
function statementLine(field: Field, text: string): ParsedLine | undefined {
  const value = field.lines[0].trim();
  const m = STATEMENT_LINE.exec(value);
  const where = `line ${field.line}`;
  if (!m) {
    throw unreadable(
      where,
      `:61: ${quote(value)} is not a statement line (YYMMDD[MMDD]C|D|RC|RD[funds code]amount type reference)`,
    );
  }
  const [, valueText, entryText, mark, , amountText, type, refs] = m;
  const valueDate = parseSwiftDate(valueText);
  if (!valueDate) throw unreadable(where, `:61: value date ${quote(valueText)} is not a date`);
  const amount = parseSwiftAmount(amountText.replace('.', ','));
  if (amount === undefined) {
    throw unreadable(where, `:61: amount ${quote(amountText)} is not an amount`);
  }
  if (/^0\.00$/.test(amount)) return undefined;
  let bookingDate: string | null = null;
  if (entryText?.trim()) {
    bookingDate = entryDate(valueDate, entryText) ?? null;
    if (!bookingDate) throw unreadable(where, `:61: entry date ${quote(entryText)} is not a date`);
  }
  // A reversed credit (RC) takes the money back out; a reversed debit (RD) puts it back.
  const direction: Direction = mark === 'C' || mark === 'RD' ? 'CREDIT' : 'DEBIT';
  const [ownRef, bankRef = ''] = refs.split('//');
  const customer = ownRef.trim();
  const bank = bankRef.trim();
  const reference = customer !== '' && customer.toUpperCase() !== 'NONREF' ? customer : bank;
  const details = field.lines.slice(1).join(' ').trim();
  const cheque = /CHK$/.test(type) && /^\d{1,16}$/.test(reference) ? reference : undefined;
  return {
    fileLine: field.line,
    valueDate,
    bookingDate,
    direction,
    amount,
    // Replaced by :86: when the line has one.
    narration: details,
    reference,
    hints: reference === bank ? customer : bank,
    balance: null,
    reversal: mark === 'RC' || mark === 'RD',
    ...(cheque ? { chequeNumber: cheque.replace(/^0+/, '').padStart(6, '0') } : {}),
    raw: text.slice(field.start, field.end),
  };
}

/** The entry date (MMDD) near the value date: the year that puts it closest (Dec/Jan wrap). */
function entryDate(valueDate: string, mmdd: string): string | undefined {
  const year = Number(valueDate.slice(0, 4));
  const candidates = [year - 1, year, year + 1]
    .map((y) => parseSwiftDate(`${String(y % 100).padStart(2, '0')}${mmdd}`))
    .filter((d): d is string => d !== undefined);
  const distance = (d: string) => Math.abs(Date.parse(d) - Date.parse(valueDate));
  return candidates.sort((a, b) => distance(a) - distance(b))[0];
}
