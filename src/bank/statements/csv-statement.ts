import { CsvError, parse } from 'csv-parse/stream';
import Decimal from 'decimal.js';
import { maskAccountNumber } from '@/bank/account-number';
import {
  STATEMENT_ACCOUNT_MISMATCH,
  STATEMENT_CURRENCY_MISMATCH,
  STATEMENT_LAYOUT_UNKNOWN,
} from '@/bank/bank.errors';
import { namesAccount, statedAccount } from './csv-account';
import { BANK_LAYOUTS, CSV_LAYOUTS, CsvLayout, CsvRole, matchHeader } from './csv-layouts';
import {
  Direction,
  ExpectedAccount,
  ParsedLine,
  quote,
  StatementParser,
  StatementTotals,
  unreadable,
} from './statement-line';
import { parseAmount, parseBalance, parseDate } from './values';

/** The header row is looked for in this many lines (banks put an account block above it). */
const HEADER_SEARCH_LINES = 200;
const DELIMITERS = [',', '\t', ';', '|'] as const;
/** The text is fed to csv-parse in slices of this many characters (records stream out). */
const SLICE = 64 * 1024;

export interface CsvOptions {
  /** The layout asked for (`generic` already built from columns=); undefined: the header decides. */
  layout?: CsvLayout;
}

interface Header {
  layout: CsvLayout;
  delimiter: string;
  roles: Map<CsvRole, number>;
  /** The lines above the header row (the account block). */
  preamble: string[];
}

const RULE = /^[*=_\-\s]*$/;

/** Splits a line naively (no quotes) for header detection: header cells are plain text. */
const naiveCells = (line: string, delimiter: string) =>
  line.split(delimiter).map((c) => c.trim().replace(/^"(.*)"$/, '$1'));

/**
 * The layout and delimiter: the first of the first HEADER_SEARCH_LINES lines that is the header
 * row of the layout asked for (or of any bank layout) under one of the usual delimiters.
 */
function findHeader(text: string, layout: CsvLayout | undefined): Header {
  const candidates = layout ? [layout] : BANK_LAYOUTS;
  let start = 0;
  const preamble: string[] = [];
  for (let n = 0; n < HEADER_SEARCH_LINES && start < text.length; n++) {
    const end = text.indexOf('\n', start);
    const line = text.slice(start, end === -1 ? text.length : end);
    start = end === -1 ? text.length : end + 1;
    for (const delimiter of DELIMITERS) {
      if (!line.includes(delimiter)) continue;
      const cells = naiveCells(line, delimiter);
      for (const candidate of candidates) {
        const roles = matchHeader(cells, candidate);
        if (roles) return { layout: candidate, delimiter, roles, preamble };
      }
    }
    preamble.push(line.replace(/\r$/, ''));
  }
  throw STATEMENT_LAYOUT_UNKNOWN.error(
    layout
      ? `No header row of the ${layout.name} layout was found in the first ${HEADER_SEARCH_LINES} lines`
      : `No header row of a known layout was found in the first ${HEADER_SEARCH_LINES} lines`,
    CSV_LAYOUTS,
  );
}

interface CsvRecord {
  record: string[];
  info: { lines: number };
  raw: string;
}

/** csv-parse over the text, fed in slices so records stream out as they are read. */
async function* records(text: string, delimiter: string): AsyncGenerator<CsvRecord> {
  const parser = parse({
    delimiter,
    info: true,
    raw: true,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    trim: true,
  });
  const writer = parser.writable.getWriter();
  const feeding = (async () => {
    for (let i = 0; i < text.length;) {
      let end = Math.min(i + SLICE, text.length);
      // Never split a surrogate pair between two slices.
      if (end < text.length && /[\uD800-\uDBFF]/.test(text[end - 1])) end--;
      await writer.write(Buffer.from(text.slice(i, end), 'utf8'));
      i = end;
    }
    await writer.close();
  })();
  // A parse error surfaces through the reader; the writer's rejection must not go unhandled.
  feeding.catch(() => undefined);
  try {
    for await (const r of parser.readable as AsyncIterable<CsvRecord>) yield r;
  } catch (error) {
    if (error instanceof CsvError) {
      const line = (error as CsvError & { lines?: number }).lines;
      throw unreadable(line ? `line ${line}` : 'the file', error.message.replace(/\.$/, ''));
    }
    throw error;
  }
  await feeding;
}

/** Running-balance chain, checked both ways: files list oldest first or newest first. */
class BalanceChain {
  private first?: { balance: Decimal; net: Decimal; date: string };
  private last?: { balance: Decimal | null; net: Decimal; line: number; date: string };
  private opening?: Decimal;
  forwardMismatch: number | null = null;
  backwardMismatch: number | null = null;
  checked = false;

  /** A balance row with no amounts before the first transaction (an "OPENING BALANCE" row). */
  openingRow(balance: string): void {
    if (!this.last) this.opening = new Decimal(balance);
  }

  add(line: ParsedLine): void {
    const net =
      line.direction === 'CREDIT' ? new Decimal(line.amount) : new Decimal(line.amount).neg();
    const balance = line.balance === null ? null : new Decimal(line.balance);
    const previous = this.last;
    if (balance !== null) {
      this.checked = true;
      if (previous?.balance) {
        // Oldest first: this balance = the previous one + this line.
        if (!balance.eq(previous.balance.plus(net))) this.forwardMismatch ??= line.fileLine;
        // Newest first: the previous balance = this one + the previous line.
        if (!previous.balance.eq(balance.plus(previous.net))) {
          this.backwardMismatch ??= previous.line;
        }
      } else if (!previous && this.opening && !balance.eq(this.opening.plus(net))) {
        this.forwardMismatch ??= line.fileLine;
      }
    }
    if (!this.first && balance !== null) {
      this.first = { balance, net, date: line.valueDate };
    }
    this.last = { balance, net, line: line.fileLine, date: line.valueDate };
  }

  totals(): Pick<StatementTotals, 'openingBalance' | 'closingBalance' | 'firstMismatchLine'> {
    const none = { openingBalance: null, closingBalance: null, firstMismatchLine: null };
    const first = this.first;
    const last = this.last;
    if (!this.checked || !first || !last?.balance) {
      return this.opening ? { ...none, openingBalance: this.opening.toFixed(2) } : none;
    }
    const newestFirst =
      this.forwardMismatch !== null &&
      this.opening === undefined &&
      (this.backwardMismatch === null || first.date > last.date);
    if (newestFirst) {
      return {
        openingBalance: last.balance.minus(last.net).toFixed(2),
        closingBalance: first.balance.toFixed(2),
        firstMismatchLine: this.backwardMismatch,
      };
    }
    return {
      openingBalance: (this.opening ?? first.balance.minus(first.net)).toFixed(2),
      closingBalance: last.balance.toFixed(2),
      firstMismatchLine: this.forwardMismatch,
    };
  }
}

/**
 * A bank's CSV export. Lines before the header row are the account block; rows between the
 * header and the first transaction (a `****` rule, an opening balance row) are skipped, as is a
 * repeated header row (a page break). A rule after transactions, or the layout's own footer
 * line, ends the table: the summary after it is skipped. Inside the table a row with the table's
 * columns and an amount is a transaction row: a bad date or amount in it is unreadable, naming
 * its line, wherever it stands, so no row is ever dropped in silence. A row that is not a
 * transaction between two transactions is unreadable too.
 */
export async function* parseCsvStatement(
  text: string,
  options: CsvOptions,
  expected: ExpectedAccount,
): StatementParser {
  const header = findHeader(text, options.layout);
  const { layout, roles } = header;
  if (layout.currency && layout.currency !== expected.currency) {
    throw STATEMENT_CURRENCY_MISMATCH.error(
      `the ${layout.name} header row`,
      layout.currency,
      expected.currency,
    );
  }
  const stated = statedAccount(header.preamble, header.delimiter);
  if (stated && !namesAccount(stated, expected.accountNumber)) {
    throw STATEMENT_ACCOUNT_MISMATCH.error(
      `${quote(stated.label)} at line ${stated.line}`,
      maskAccountNumber(stated.identifier),
      maskAccountNumber(expected.accountNumber),
    );
  }
  const headerOf = (role: CsvRole) => layout.columns.find((c) => c.role === role)?.header ?? role;
  const chain = new BalanceChain();
  const dateRole: CsvRole = roles.has('bookingDate') ? 'bookingDate' : 'valueDate';
  const amountRoles: CsvRole[] = roles.has('amount') ? ['amount'] : ['debit', 'credit'];
  const widest = Math.max(...roles.values());
  /** Before the header row, in the table, or after its closing rule or the layout's footer. */
  let state: 'before' | 'table' | 'after' = 'before';
  /** Where the table ended (its closing rule or footer line). */
  let endedAt = 0;
  let transactions = 0;
  /** Transactions since the last header row: a rule right under a header does not end the table. */
  let sinceHeader = 0;
  /** The first row after a transaction that is not one: a footer, unless a transaction follows. */
  let stray: { line: number; why: string } | undefined;

  for await (const { record, info, raw } of records(text, header.delimiter)) {
    const trimmed = raw.trim();
    const fileLine = info.lines - (trimmed.match(/\n/g)?.length ?? 0);
    const cell = (role: CsvRole) => {
      const at = roles.get(role);
      return at === undefined ? '' : (record[at] ?? '').trim();
    };
    // A row with the table's columns and an amount is a transaction row, however badly written.
    const transactionRow =
      record.length > widest && amountRoles.some((role) => !/^-?$/.test(cell(role)));
    if (matchHeader(record, layout)) {
      state = 'table';
      sinceHeader = 0;
      continue;
    }
    if (state === 'before') continue;
    if (state === 'after') {
      if (transactionRow && parseDate1(cell(dateRole), layout) !== undefined) {
        throw unreadable(
          `line ${fileLine}`,
          `a transaction row after the end of the table at line ${endedAt}`,
        );
      }
      continue;
    }
    if (record.every((c) => c === '')) continue;
    if (record.every((c) => RULE.test(c))) {
      if (sinceHeader > 0) {
        state = 'after';
        endedAt = fileLine;
      }
      continue;
    }
    if (layout.footer?.test(record.find((c) => c !== '') ?? '')) {
      state = 'after';
      endedAt = fileLine;
      continue;
    }
    const date = parseDate1(cell(dateRole), layout);
    if (date === undefined) {
      const notADate = `the ${headerOf(dateRole)} ${quote(cell(dateRole))} is not a date (${layout.dateFormats[0]})`;
      if (transactionRow) throw unreadable(`line ${fileLine}`, notADate);
      if (transactions > 0) {
        stray ??= {
          line: fileLine,
          why:
            cell(dateRole) !== '' && /\d/.test(cell(dateRole))
              ? notADate
              : `${quote(trimmed)} is not a transaction row`,
        };
      }
      continue;
    }
    if (stray) {
      throw unreadable(
        `line ${stray.line}`,
        `${stray.why}, yet transactions follow it (line ${fileLine})`,
      );
    }
    const where = `line ${fileLine}`;
    const bad = (role: CsvRole, what = 'an amount') =>
      unreadable(where, `the ${headerOf(role)} ${quote(cell(role))} is not ${what}`);

    let valueDate = date;
    if (dateRole === 'bookingDate' && roles.has('valueDate') && cell('valueDate') !== '') {
      const parsed = parseDate1(cell('valueDate'), layout);
      if (parsed === undefined) throw bad('valueDate', `a date (${layout.dateFormats[0]})`);
      valueDate = parsed;
    }
    let amount: string | null;
    let direction: Direction;
    if (roles.has('amount')) {
      const parsed = parseAmount(cell('amount'));
      if (parsed === undefined) throw bad('amount');
      amount = parsed;
      const drcr = cell('drcr').toUpperCase();
      if (/^(CR|C|CREDIT|DEPOSIT)\.?$/.test(drcr)) direction = 'CREDIT';
      else if (/^(DR|D|DEBIT|WITHDRAWAL)\.?$/.test(drcr)) direction = 'DEBIT';
      else if (amount === null || /^0\.00$/.test(amount)) direction = 'CREDIT';
      else throw bad('drcr', 'CR or DR');
    } else {
      const debit = parseAmount(cell('debit'));
      const credit = parseAmount(cell('credit'));
      if (debit === undefined) throw bad('debit');
      if (credit === undefined) throw bad('credit');
      const isSet = (a: string | null) => a !== null && !/^0\.00$/.test(a);
      if (isSet(debit) && isSet(credit)) {
        throw unreadable(
          where,
          `both ${headerOf('debit')} and ${headerOf('credit')} hold an amount (${debit}, ${credit})`,
        );
      }
      direction = isSet(credit) ? 'CREDIT' : 'DEBIT';
      amount = isSet(credit) ? credit : isSet(debit) ? debit : null;
    }
    const balance = roles.has('balance') ? parseBalance(cell('balance')) : null;
    if (balance === undefined) throw bad('balance');
    if (amount === null || /^0\.00$/.test(amount)) {
      // A dated row without an amount: an opening balance row, or a zero entry; not a line.
      if (balance !== null) chain.openingRow(balance);
      continue;
    }
    const line: ParsedLine = {
      fileLine,
      valueDate,
      bookingDate: dateRole === 'bookingDate' ? date : valueDate,
      direction,
      amount,
      narration: cell('narration'),
      reference: cell('reference') === '-' ? '' : cell('reference'),
      balance,
      reversal: false,
      raw: trimmed,
    };
    chain.add(line);
    transactions++;
    sinceHeader++;
    yield line;
  }
  if (state === 'before') {
    throw STATEMENT_LAYOUT_UNKNOWN.error(`The ${layout.name} header row was not read`, CSV_LAYOUTS);
  }
  return { layout: layout.name, pending: 0, ...chain.totals() };
}

/** The date in the layout's first form that reads it. */
function parseDate1(text: string, layout: CsvLayout): string | undefined {
  if (text === '') return undefined;
  for (const format of layout.dateFormats) {
    const date = parseDate(text, format);
    if (date !== undefined) return date;
  }
  return undefined;
}
