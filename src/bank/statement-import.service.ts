import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { createHash } from 'node:crypto';
import { toMoney } from '@/common/money/money';
import { TenantContext } from '@/common/tenant-context';
import { OutboxService } from '@/platform/outbox/outbox.service';
import { RoutingTransactionAdapter } from '@/platform/replicas/routing-transaction-adapter';
import { BankService } from './bank.service';
import { BankMatchingService } from './bank-matching.service';
import {
  FINISH_STATEMENT_SQL,
  finishStatementParams,
  IdRow,
  INSERT_LINES_SQL,
  INSERT_STATEMENT_SQL,
  InsertedLinesRow,
  insertLinesParams,
  insertStatementParams,
  LineColumns,
  LOCK_ACCOUNT_SQL,
  LockedAccountRow,
  accountParams,
  STATEMENT_BY_FILE_SQL,
  statementByFileParams,
  StatementRow,
} from './bank.sql';
import { StatementImportView } from './dto/statement-import.view';
import { ImportOptions, parseImportQuery, RawImportQuery } from './import-query';
import { parseCamt053 } from './statements/camt053';
import { parseCsvStatement } from './statements/csv-statement';
import { detectFormat } from './statements/detect-format';
import { LineKeys } from './statements/line-key';
import { parseMt940 } from './statements/mt940';
import { extractReferences, referenceKey } from './statements/references';
import {
  ExpectedAccount,
  ParsedLine,
  StatementFormat,
  StatementParser,
  StatementTotals,
  unreadable,
} from './statements/statement-line';
import { decodeStatement } from './statements/text-decoding';

/** Lines per INSERT: large enough to amortise the round trip, small enough to stream. */
export const LINES_PER_CHUNK = 2000;

export interface ImportOutcome {
  /** False when this very file was imported before: the first import is answered again. */
  created: boolean;
  view: StatementImportView;
}

/** A chunk of lines, column by column, as INSERT_LINES_SQL takes it. */
export const emptyColumns = (): LineColumns => ({
  lineKey: [],
  fileLine: [],
  valueDate: [],
  bookingDate: [],
  direction: [],
  amount: [],
  narration: [],
  reference: [],
  referenceKey: [],
  utr: [],
  chequeNumber: [],
  balance: [],
  reversal: [],
  raw: [],
});

/**
 * POST /bank-accounts/{id}/statements (docs/bank.md). One transaction:
 *
 * 1. The file's SHA-256: the same file again is answered with its first import (200), at once.
 * 2. The text (UTF-8, else Windows-1252) and its format (asked, else detected).
 * 3. The account row is taken (imports of one account queue), the import's row is written, and
 *    the parser streams lines into chunked INSERTs (the next chunk is parsed while PostgreSQL
 *    writes the last), so memory stays bounded by the file, not by its lines. Each line's key
 *    makes a repeated line a duplicate (ON CONFLICT DO NOTHING).
 * 4. The summary; the `bank-statement.imported` event.
 *
 * Any problem with the file (unreadable, another account, another currency) throws before the
 * commit, so nothing of it is imported.
 */
@Injectable()
export class StatementImportService {
  constructor(
    private readonly txHost: TransactionHost<RoutingTransactionAdapter>,
    private readonly outbox: OutboxService,
    private readonly bank: BankService,
    private readonly matching: BankMatchingService,
  ) {}

  async import(
    tenant: TenantContext,
    accountId: string,
    file: Buffer,
    query: RawImportQuery,
    { recordEvent = true } = {},
  ): Promise<ImportOutcome> {
    const options = parseImportQuery(query);
    const account = await this.bank.account(tenant, accountId);
    if (file.length === 0) throw unreadable('the file', 'is empty');
    const sha256 = createHash('sha256').update(file).digest();
    const keys = { tenantId: tenant.tenantId, accountId };
    const view = (row: StatementRow) => statementView(row, account.currency, tenant.locale);

    const again = await this.previous(keys, sha256);
    if (again) return { created: false, view: view(again) };

    const { text, encoding } = decodeStatement(file);
    const format = options.format ?? detectFormat(text);
    const em = this.txHost.tx;
    const [locked] = await em.query<LockedAccountRow[]>(LOCK_ACCOUNT_SQL, accountParams(keys));
    // A concurrent import of the same file may have committed while this one waited.
    const raced = await this.previous(keys, sha256);
    if (raced) return { created: false, view: view(raced) };

    const [{ id: statementId }] = await em.query<IdRow[]>(
      INSERT_STATEMENT_SQL,
      insertStatementParams({
        ...keys,
        sha256,
        bytes: file.length,
        format,
        encoding,
        actor: tenant.actor,
      }),
    );
    const expected: ExpectedAccount = {
      accountNumber: account.account_number,
      currency: account.currency,
    };
    const written = await this.writeLines(
      { ...keys, statementId, format, base: locked.last_line_sequence },
      openParser(format, text, options, expected),
    );
    const { totals } = written;
    // A balance computed from the file (opening = first balance - first line) must fit numeric(18,2).
    for (const balance of [totals.openingBalance, totals.closingBalance]) {
      if (balance !== null && !/^-?\d{1,16}\.\d{2}$/.test(balance)) {
        throw unreadable('the file', `the balance ${balance} has more than 16 digits`);
      }
    }
    // Matching (docs/bank.md) over this import's new lines, in one set-based run; only
    // accounts in the tenant's currency are matched (the others' lines stay UNMATCHED).
    const counts =
      account.currency === tenant.currency
        ? await this.matching.run(tenant, 'statement', statementId, {
            statuses: ['UNMATCHED'],
            amountDate: true,
            recordEvents: recordEvent,
          })
        : { auto: 0, suggested: 0, unmatched: written.credits };
    // Debits returning a realised cheque are suggested (rule RETURN).
    if (account.currency === tenant.currency) {
      counts.suggested += await this.matching.returns(tenant, 'statement', statementId);
    }
    const [row] = await em.query<StatementRow[]>(
      FINISH_STATEMENT_SQL,
      finishStatementParams({
        ...keys,
        statementId,
        layout: totals.layout,
        lines: written.lines,
        imported: written.imported,
        possibleDuplicates: written.possibleDuplicates,
        pending: totals.pending,
        from: written.from,
        to: written.to,
        openingBalance: totals.openingBalance,
        closingBalance: totals.closingBalance,
        balanceCheck: totals.firstMismatchLine === null ? 'OK' : 'MISMATCH',
        firstMismatchLine: totals.firstMismatchLine,
        auto: counts.auto,
        suggested: counts.suggested,
        unmatched: counts.unmatched,
        lastSequence: written.lastSequence,
      }),
    );
    const result = view(row);
    if (recordEvent) this.outbox.record('bank-statement.imported', result);
    return { created: true, view: result };
  }

  private async previous(
    keys: { tenantId: string; accountId: string },
    sha256: Buffer,
  ): Promise<StatementRow | undefined> {
    const [row] = await this.txHost.tx.query<StatementRow[]>(
      STATEMENT_BY_FILE_SQL,
      statementByFileParams({ ...keys, sha256 }),
    );
    return row;
  }

  /**
   * Streams the parser's lines into INSERTs of LINES_PER_CHUNK lines, keeping one INSERT in
   * flight while the next chunk is parsed.
   */
  private async writeLines(
    target: {
      tenantId: string;
      accountId: string;
      statementId: string;
      format: StatementFormat;
      base: string;
    },
    parser: StatementParser,
  ) {
    const em = this.txHost.tx;
    const lineKeys = new LineKeys();
    let chunk = emptyColumns();
    let lines = 0;
    let from: string | null = null;
    let to: string | null = null;
    const sums = { imported: 0, possibleDuplicates: 0, credits: 0, lastSequence: target.base };
    let writing: Promise<void> | undefined;

    const flush = async () => {
      await writing;
      if (chunk.lineKey.length === 0) return;
      const columns = chunk;
      const base = sums.lastSequence;
      chunk = emptyColumns();
      // Numbered after every line of the file before this chunk.
      sums.lastSequence = (BigInt(base) + BigInt(columns.lineKey.length)).toString();
      writing = em
        .query<InsertedLinesRow[]>(
          INSERT_LINES_SQL,
          insertLinesParams({ ...target, base, lines: columns }),
        )
        .then(([r]) => {
          sums.imported += r.imported;
          sums.possibleDuplicates += r.possible_duplicates;
          sums.credits += r.credits;
        });
      // Settled even when parsing the next chunk throws first (awaited before anything else).
      writing.catch(() => undefined);
    };

    let totals: StatementTotals;
    try {
      for (;;) {
        const next = await parser.next();
        if (next.done) {
          totals = next.value;
          break;
        }
        const line = next.value;
        lines++;
        if (from === null || line.valueDate < from) from = line.valueDate;
        if (to === null || line.valueDate > to) to = line.valueDate;
        append(chunk, line, lineKeys.next(line));
        if (chunk.lineKey.length >= LINES_PER_CHUNK) await flush();
      }
      await flush();
      await writing;
    } finally {
      await writing?.catch(() => undefined);
    }
    return { ...sums, lines, from, to, totals };
  }
}

/** Adds a parsed line to a chunk, with what is read from it (UTR, cheque number, reference key). */
export function append(columns: LineColumns, line: ParsedLine, key: Buffer): void {
  const found = extractReferences(
    line.reference,
    line.hints ? `${line.narration} ${line.hints}` : line.narration,
  );
  columns.lineKey.push(key);
  columns.fileLine.push(line.fileLine);
  columns.valueDate.push(line.valueDate);
  columns.bookingDate.push(line.bookingDate);
  columns.direction.push(line.direction);
  columns.amount.push(line.amount);
  columns.narration.push(line.narration);
  columns.reference.push(line.reference);
  columns.referenceKey.push(referenceKey(line.reference));
  columns.utr.push(found.utr);
  columns.chequeNumber.push(line.chequeNumber ?? found.chequeNumber);
  columns.balance.push(line.balance);
  columns.reversal.push(line.reversal);
  columns.raw.push(line.raw);
}

function openParser(
  format: StatementFormat,
  text: string,
  options: ImportOptions,
  expected: ExpectedAccount,
): StatementParser {
  switch (format) {
    case 'csv':
      return parseCsvStatement(text, { layout: options.layout }, expected);
    case 'camt053':
      return parseCamt053(text, expected);
    case 'mt940':
      return parseMt940(text, expected);
  }
}

export function statementView(
  row: StatementRow,
  currency: string,
  locale: string,
): StatementImportView {
  const money = (amount: string | null) =>
    amount === null ? null : toMoney(amount, currency, locale);
  return {
    id: row.id,
    format: row.format,
    layout: row.layout,
    lines: row.line_count,
    imported: row.imported,
    duplicates: row.duplicates,
    possibleDuplicates: row.possible_duplicates,
    pending: row.pending,
    from: row.from_date,
    to: row.to_date,
    openingBalance: money(row.opening_balance),
    closingBalance: money(row.closing_balance),
    balanceCheck: row.balance_check,
    firstMismatchLine: row.first_mismatch_line,
    matched: {
      auto: row.matched_auto,
      suggested: row.matched_suggested,
      unmatched: row.matched_unmatched,
    },
  };
}
