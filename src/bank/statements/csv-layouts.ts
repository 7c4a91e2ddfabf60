import type { FieldError } from '@/common/app-error';
import { DATE_FORMATS, DateFormat } from './values';

/**
 * The CSV layouts of docs/bank.md: each bank's header row as it writes it, the role of each
 * column, and how it writes dates. Headers are compared without case and whitespace and found by
 * name, so a column moved or an extra (empty) column does not matter.
 */

/** What a column holds. `bookingDate`: the transaction date; `valueDate`: when the money moved. */
export type CsvRole =
  | 'bookingDate'
  | 'valueDate'
  | 'narration'
  | 'reference'
  | 'debit'
  | 'credit'
  | 'amount'
  | 'drcr'
  | 'balance';

export interface CsvLayout {
  name: string;
  /** Header cells as the bank writes them, with the role each one plays (null: not read). */
  columns: readonly { header: string; role: CsvRole | null }[];
  /** The date form the bank uses first, then forms its other exports use. */
  dateFormats: readonly DateFormat[];
  /** The currency the header states, when it states one. */
  currency?: string;
  /**
   * The first cell of the bank's own summary or footer line after the table: the table ends
   * there, so the summary's figures (which stand in the amount columns) are not read as rows.
   */
  footer?: RegExp;
}

export const BANK_LAYOUTS: readonly CsvLayout[] = [
  {
    name: 'hdfc',
    columns: [
      { header: 'Date', role: 'bookingDate' },
      { header: 'Narration', role: 'narration' },
      { header: 'Chq./Ref.No.', role: 'reference' },
      { header: 'Value Dt', role: 'valueDate' },
      { header: 'Withdrawal Amt.', role: 'debit' },
      { header: 'Deposit Amt.', role: 'credit' },
      { header: 'Closing Balance', role: 'balance' },
    ],
    dateFormats: ['DD/MM/YY', 'DD/MM/YYYY'],
    footer: /^STATEMENT SUMMARY/i,
  },
  {
    name: 'icici',
    columns: [
      { header: 'S No.', role: null },
      { header: 'Value Date', role: 'valueDate' },
      { header: 'Transaction Date', role: 'bookingDate' },
      { header: 'Cheque Number', role: 'reference' },
      { header: 'Transaction Remarks', role: 'narration' },
      { header: 'Withdrawal Amount (INR )', role: 'debit' },
      { header: 'Deposit Amount (INR )', role: 'credit' },
      { header: 'Balance (INR )', role: 'balance' },
    ],
    dateFormats: ['DD/MM/YYYY', 'DD-MM-YYYY'],
    currency: 'INR',
  },
  {
    name: 'sbi',
    columns: [
      { header: 'Txn Date', role: 'bookingDate' },
      { header: 'Value Date', role: 'valueDate' },
      { header: 'Description', role: 'narration' },
      { header: 'Ref No./Cheque No.', role: 'reference' },
      { header: 'Debit', role: 'debit' },
      { header: 'Credit', role: 'credit' },
      { header: 'Balance', role: 'balance' },
    ],
    dateFormats: ['DD MMM YYYY', 'DD-MMM-YYYY'],
  },
  {
    name: 'axis',
    columns: [
      { header: 'Tran Date', role: 'bookingDate' },
      { header: 'CHQNO', role: 'reference' },
      { header: 'PARTICULARS', role: 'narration' },
      { header: 'DR', role: 'debit' },
      { header: 'CR', role: 'credit' },
      { header: 'BAL', role: 'balance' },
      { header: 'SOL', role: null },
    ],
    dateFormats: ['DD-MM-YYYY', 'DD/MM/YYYY'],
    footer: /^(TRANSACTION TOTAL|CLOSING BALANCE)/i,
  },
  {
    name: 'kotak',
    columns: [
      { header: 'Sl. No.', role: null },
      { header: 'Transaction Date', role: 'bookingDate' },
      { header: 'Value Date', role: 'valueDate' },
      { header: 'Description', role: 'narration' },
      { header: 'Chq / Ref No.', role: 'reference' },
      { header: 'Debit', role: 'debit' },
      { header: 'Credit', role: 'credit' },
      { header: 'Balance', role: 'balance' },
    ],
    dateFormats: ['DD-MM-YYYY', 'DD/MM/YYYY'],
  },
];

export const CSV_LAYOUTS = [...BANK_LAYOUTS.map((l) => l.name), 'generic'] as const;

/** A header cell as compared: lower case, no whitespace. */
export const headerKey = (cell: string): string => cell.toLowerCase().replace(/\s+/g, '');

/** The roles of `generic` columns=, in the order the contract lists them. */
const GENERIC_ROLES = [
  'date',
  'narration',
  'reference',
  'credit',
  'debit',
  'amount',
  'drcr',
  'balance',
] as const;
type GenericRole = (typeof GENERIC_ROLES)[number];

/**
 * `columns=date:<header>,narration:<header>,...` of the generic layout as a layout, or field
 * errors naming `columns`. Needs date and narration, and credit + debit or amount + drcr.
 */
export function genericLayout(
  columns: string,
  dateFormat: DateFormat,
  errors: FieldError[],
): CsvLayout | undefined {
  const fail = (message: string) => {
    errors.push({ field: 'columns', message });
    return undefined;
  };
  const byRole = new Map<GenericRole, string>();
  for (const part of columns.split(',')) {
    const colon = part.indexOf(':');
    const role = (colon === -1 ? part : part.slice(0, colon)).trim() as GenericRole;
    const header = colon === -1 ? '' : part.slice(colon + 1).trim();
    if (!GENERIC_ROLES.includes(role)) {
      return fail(
        `${JSON.stringify(role)} is not a column role; use role:header pairs with roles ${GENERIC_ROLES.join(', ')}`,
      );
    }
    if (header === '') return fail(`${role} names no header (role:header)`);
    if (byRole.has(role)) return fail(`${role} is given twice`);
    byRole.set(role, header);
  }
  for (const role of ['date', 'narration'] as const) {
    if (!byRole.has(role)) return fail(`${role}:<header> is required`);
  }
  const twoColumns = byRole.has('credit') || byRole.has('debit');
  const signed = byRole.has('amount') || byRole.has('drcr');
  if (twoColumns === signed || (twoColumns && !(byRole.has('credit') && byRole.has('debit')))) {
    return fail('give credit and debit, or amount and drcr (not both pairs)');
  }
  if (signed && !(byRole.has('amount') && byRole.has('drcr'))) {
    return fail('amount and drcr go together');
  }
  const roleOf: Record<GenericRole, CsvRole> = {
    date: 'valueDate',
    narration: 'narration',
    reference: 'reference',
    credit: 'credit',
    debit: 'debit',
    amount: 'amount',
    drcr: 'drcr',
    balance: 'balance',
  };
  const headers = [...byRole.values()].map(headerKey);
  if (new Set(headers).size !== headers.length) return fail('two roles name the same header');
  return {
    name: 'generic',
    columns: [...byRole.entries()].map(([role, header]) => ({ header, role: roleOf[role] })),
    dateFormats: [dateFormat],
  };
}

/** Where each role's column is in a header row, or undefined when the row is not that header. */
export function matchHeader(
  cells: readonly string[],
  layout: CsvLayout,
): Map<CsvRole, number> | undefined {
  const positions = new Map<string, number>();
  cells.forEach((cell, i) => {
    const key = headerKey(cell);
    if (key !== '' && !positions.has(key)) positions.set(key, i);
  });
  const roles = new Map<CsvRole, number>();
  for (const column of layout.columns) {
    const at = positions.get(headerKey(column.header));
    if (at === undefined) return undefined;
    if (column.role) roles.set(column.role, at);
  }
  return roles;
}

export { DATE_FORMATS };
