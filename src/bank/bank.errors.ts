import { defineProblem } from '@/common/app-error';

/** Errors of bank accounts and statement import (docs/bank.md). */

export const BANK_ACCOUNT_NOT_FOUND = defineProblem({
  status: 404,
  code: 'BANK_ACCOUNT_NOT_FOUND',
  detail: (id: string) => `Bank account ${id} was not found.`,
  example: ['5a4b3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d'],
});

/** The tenant already has an account with this number (shown masked). */
export const BANK_ACCOUNT_EXISTS = defineProblem({
  status: 409,
  code: 'BANK_ACCOUNT_EXISTS',
  detail: (masked: string) => `The tenant already has a bank account numbered ${masked}.`,
  example: ['XXXXXXXXXX5678'],
});

export const BANK_LINE_NOT_FOUND = defineProblem({
  status: 404,
  code: 'BANK_LINE_NOT_FOUND',
  detail: (id: string) => `Bank statement line ${id} was not found.`,
  example: ['8d7c6b5a-4f3e-4d2c-9b1a-0f9e8d7c6b5a'],
});

export const STATEMENT_FORMAT_UNKNOWN = defineProblem({
  status: 400,
  code: 'STATEMENT_FORMAT_UNKNOWN',
  detail: (format: string, known: readonly string[]) =>
    `The statement format ${JSON.stringify(format)} is not known; use one of ${known.join(', ')}, or leave format out and the content decides.`,
  example: ['ofx', ['csv', 'camt053', 'mt940']],
});

/** An unknown layout, or a CSV whose header row matches no layout (or not the one asked for). */
export const STATEMENT_LAYOUT_UNKNOWN = defineProblem({
  status: 400,
  code: 'STATEMENT_LAYOUT_UNKNOWN',
  detail: (why: string, layouts: readonly string[]) =>
    `${why}; the layouts are ${layouts.join(', ')} (generic with columns= and dateFormat=).`,
  example: [
    'No header row of a known layout was found',
    ['hdfc', 'icici', 'sbi', 'axis', 'kotak', 'generic'],
  ],
});

/** The file cannot be read: `where` is a line of the file or an XML element. Nothing is imported. */
export const STATEMENT_UNREADABLE = defineProblem({
  status: 400,
  code: 'STATEMENT_UNREADABLE',
  detail: (where: string, what: string) =>
    `The statement cannot be read: ${where}: ${what}; nothing was imported.`,
  example: ['line 27', 'the deposit amount "1,50,000.0x" is not an amount'],
});

/** The file names another account (camt Acct/Id, MT940 :25:); both shown masked. */
export const STATEMENT_ACCOUNT_MISMATCH = defineProblem({
  status: 400,
  code: 'STATEMENT_ACCOUNT_MISMATCH',
  detail: (where: string, named: string, account: string) =>
    `The statement is of account ${named} (${where}), not of this bank account ${account}; nothing was imported.`,
  example: [':25: at line 3', 'XXXXXXXXXXXX9999', 'XXXXXXXXXX5678'],
});

export const STATEMENT_CURRENCY_MISMATCH = defineProblem({
  status: 400,
  code: 'STATEMENT_CURRENCY_MISMATCH',
  detail: (where: string, currency: string, accountCurrency: string) =>
    `The statement has amounts in ${currency} (${where}) but the bank account is in ${accountCurrency}; nothing was imported.`,
  example: ['Stmt[1]/Ntry[4]/Amt', 'USD', 'INR'],
});

/** A manual match whose receipts do not add up to the line (docs/bank.md). */
export const MATCH_AMOUNT_MISMATCH = defineProblem({
  status: 422,
  code: 'MATCH_AMOUNT_MISMATCH',
  detail: (sum: string, line: string) =>
    `The receipts add up to ${sum}, not to the line's amount ${line}.`,
  example: ['149000.00', '150000.00'],
});

/** The receipt is already matched to another credit line (or this one). */
export const RECEIPT_ALREADY_MATCHED = defineProblem({
  status: 409,
  code: 'RECEIPT_ALREADY_MATCHED',
  detail: (receipt: string, line: string) =>
    `Receipt ${receipt} is already matched to bank statement line ${line}; unmatch that line first.`,
  example: ['e7d6c5b4-a3f2-4e1d-9c0b-8a7f6e5d4c3b', '8d7c6b5a-4f3e-4d2c-9b1a-0f9e8d7c6b5a'],
});

/** A CASH or TDS receipt never reaches the bank; a receipt that is not ACTIVE is not matched. */
export const RECEIPT_NOT_MATCHABLE = defineProblem({
  status: 409,
  code: 'RECEIPT_NOT_MATCHABLE',
  detail: (receipt: string, why: string) => `Receipt ${receipt} cannot be matched: ${why}.`,
  example: ['e7d6c5b4-a3f2-4e1d-9c0b-8a7f6e5d4c3b', 'it is a CASH receipt'],
});

/** A debit (other than a cheque return), a MATCHED or IGNORED line, or another currency. */
export const LINE_NOT_MATCHABLE = defineProblem({
  status: 409,
  code: 'LINE_NOT_MATCHABLE',
  detail: (line: string, why: string) => `Bank statement line ${line} cannot be matched: ${why}.`,
  example: ['8d7c6b5a-4f3e-4d2c-9b1a-0f9e8d7c6b5a', 'it is MATCHED; unmatch it first'],
});

export const LINE_NOT_MATCHED = defineProblem({
  status: 409,
  code: 'LINE_NOT_MATCHED',
  detail: (line: string, status: string) =>
    `Bank statement line ${line} is ${status}, not MATCHED: there is nothing to unmatch.`,
  example: ['8d7c6b5a-4f3e-4d2c-9b1a-0f9e8d7c6b5a', 'UNMATCHED'],
});
