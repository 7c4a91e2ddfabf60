import { STATEMENT_UNREADABLE } from '@/bank/bank.errors';
import { AppError } from '@/common/app-error';

/** The formats a statement file may be in (`format=`). */
export const STATEMENT_FORMATS = ['csv', 'camt053', 'mt940'] as const;
export type StatementFormat = (typeof STATEMENT_FORMATS)[number];

export type Direction = 'CREDIT' | 'DEBIT';

/** One transaction as a parser read it from the file. */
export interface ParsedLine {
  /** 1-based line of the file where the transaction starts. */
  fileLine: number;
  valueDate: string;
  /** When the bank booked it, if the file says (null: MT940 without an entry date). */
  bookingDate: string | null;
  direction: Direction;
  /** Positive, exactly two decimals (`150000.00`). */
  amount: string;
  narration: string;
  reference: string;
  /** The running balance the file printed after this line (CSV), else null. */
  balance: string | null;
  /** A reversal marked by the format (MT940 RC/RD, camt RvslInd). */
  reversal: boolean;
  /** More text a UTR or cheque number may be in, not shown (MT940's other reference). */
  hints?: string;
  /** A cheque number the format states outright (camt ChqNb), not read from text. */
  chequeNumber?: string;
  /** The text of the transaction in the file, as written (line ends normalised). */
  raw: string;
}

/** What a parser reports once every line has been read. */
export interface StatementTotals {
  /** The CSV layout that read the file (null for camt and MT940). */
  layout: string | null;
  /** Opening balance of the first statement, closing of the last (null when the file has none). */
  openingBalance: string | null;
  closingBalance: string | null;
  /** CSV: file line; MT940: the line of the :62F:/:62M:; camt: the 1-based Stmt. Null: chain holds. */
  firstMismatchLine: number | null;
  /** Entries the bank marked pending (camt PDNG), not imported. */
  pending: number;
}

/**
 * Lines one by one, then the totals: parsers stream, so memory stays bounded by the file. CSV is
 * asynchronous (csv-parse's stream); MT940 and camt are read synchronously.
 */
export type StatementParser =
  SyncStatementParser | AsyncGenerator<ParsedLine, StatementTotals, void>;
export type SyncStatementParser = Generator<ParsedLine, StatementTotals, void>;

/** The bank account a file must belong to. */
export interface ExpectedAccount {
  /** Normalised (letters and digits, upper case). */
  accountNumber: string;
  currency: string;
}

/** 400 STATEMENT_UNREADABLE at `where` (a line or element) with a field error naming it. */
export function unreadable(where: string, what: string): AppError {
  return STATEMENT_UNREADABLE.errorWith({ errors: [{ field: where, message: what }] }, where, what);
}

/** The 1-based line of `offset` in `text`, counting from a known (line, offset) onwards. */
export function lineAt(text: string, offset: number, from = { line: 1, offset: 0 }): number {
  let line = from.line;
  for (
    let i = text.indexOf('\n', from.offset);
    i !== -1 && i < offset;
    i = text.indexOf('\n', i + 1)
  ) {
    line++;
  }
  return line;
}

/** Text shown in an error: at most 60 characters, quoted. */
export function quote(text: string): string {
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 57)}...` : text);
}
