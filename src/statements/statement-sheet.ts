/**
 * The statement of account as an XLSX worksheet (format=xlsx), pure: a header block saying whose
 * statement it is and for which period, then the entries between an opening-balance row and a
 * closing-balance row, so that a statement cut with from= adds up on its own (opening + debits -
 * credits = closing) without the JSON beside it.
 */
import { paiseText } from '@/common/money/paise';
import type { XlsxRecord, XlsxSheet } from '@/exports/xlsx-sheet';
import { Ledger } from '@/ledger/booking-ledger';

const COLUMNS: XlsxSheet['columns'] = [
  { key: 'date', width: 12, type: 'date' },
  { key: 'kind', width: 18, type: 'text' },
  { key: 'documentNumber', width: 20, type: 'text' },
  { key: 'particulars', width: 48, type: 'text' },
  { key: 'dueDate', width: 12, type: 'date' },
  { key: 'debit', width: 16, type: 'money' },
  { key: 'credit', width: 16, type: 'money' },
  { key: 'balance', width: 16, type: 'money' },
  { key: 'currency', width: 9, type: 'text' },
  { key: 'refType', width: 9, type: 'text' },
  { key: 'refId', width: 38, type: 'text' },
];

export interface StatementSheetInput {
  tenantName: string;
  bookingNumber: string;
  unit: string;
  buyerName: string;
  /** Only this payer's splits; undefined: every payer. */
  payerId?: string;
  currency: string;
  ledger: Ledger;
}

/** The worksheet (with its header block) and its rows, opening and closing balance included. */
export function statementSheet(input: StatementSheetInput): {
  sheet: XlsxSheet;
  rows: XlsxRecord[];
} {
  const { ledger, currency } = input;
  const balanceRow = (date: string, kind: string, particulars: string, paise: bigint) => ({
    date,
    kind,
    documentNumber: null,
    particulars,
    dueDate: null,
    debit: null,
    credit: null,
    balance: paiseText(paise),
    currency,
    refType: null,
    refId: null,
  });
  const rows: XlsxRecord[] = [
    balanceRow(ledger.from, 'OPENING_BALANCE', 'Opening balance', ledger.openingBalance),
    ...ledger.entries.map((e) => ({
      date: e.date,
      kind: e.kind,
      documentNumber: e.documentNumber,
      particulars: e.particulars,
      dueDate: e.dueDate,
      debit: e.debit === null ? null : paiseText(e.debit),
      credit: e.credit === null ? null : paiseText(e.credit),
      balance: paiseText(e.balance),
      currency,
      refType: e.ref.type,
      refId: e.ref.id,
    })),
    balanceRow(ledger.to, 'CLOSING_BALANCE', 'Closing balance', ledger.closingBalance),
  ];
  const preamble: [string, string][] = [
    ['tenant', input.tenantName],
    ['bookingNumber', input.bookingNumber],
    ['unit', input.unit],
    ['buyer', input.buyerName],
    ...(input.payerId !== undefined ? [['payer', input.payerId] as [string, string]] : []),
    ['period', `${ledger.from} to ${ledger.to}`],
    ['asOf', ledger.asOf],
  ];
  return { sheet: { name: 'Statement', columns: COLUMNS, preamble }, rows };
}
