import { toPaise } from '@/common/money/paise';
import { paymentModeLabel } from '@/common/domain/payment-modes';
import { printedPayerName } from '@/common/domain/printed-names';

/**
 * The ledger of a booking as a statement of account shows it (docs/statement.md), pure: no
 * database, no clock. From a booking's demands and receipts (as-of.ts statementRecords, from
 * LEDGER_RECORDS_SQL) it makes the entries as they happened,
 * orders them, and sums the running balance, the opening and closing balances and the totals.
 *
 * - DEMAND: a debit on the demand date (INTEREST demands too); DEMAND_CANCELLED: a credit of the
 *   same amount on the cancel date.
 * - RECEIPT: a credit on the received date; RECEIPT_REVERSED: a debit of the same amount on the
 *   date the receipt was cancelled or bounced. So a cancelled or bounced receipt shows twice.
 * - A cancel or bounce is never dated before what it reverses (a receipt bounced "before" it was
 *   received, a demand cancelled before its date, which no write allows, would otherwise owe less
 *   than nothing for a while): its entry is dated no earlier than the original.
 * - Everything dated after `to` is left out (`to` <= asOf: on asOf, what is dated later has not
 *   happened yet).
 */

/**
 * Money is whole paise in a BigInt (common/money/paise.ts): exact for any booking, and a
 * 300-entry ledger sums in microseconds where decimal.js took milliseconds.
 */

export const ENTRY_KINDS = [
  'DEMAND',
  'RECEIPT',
  'RECEIPT_REVERSED',
  'DEMAND_CANCELLED',
  'CANCELLATION',
  'REFUND_INTEREST',
  'REFUND',
] as const;
export type EntryKind = (typeof ENTRY_KINDS)[number];

/**
 * Same date: demands first, then receipts, then reversals (a receipt's, then a demand's cancel,
 * which can only follow its receipts' reversals); then by document number.
 */
const RANK: Readonly<Record<EntryKind, number>> = {
  DEMAND: 0,
  RECEIPT: 1,
  RECEIPT_REVERSED: 2,
  DEMAND_CANCELLED: 3,
  CANCELLATION: 4,
  REFUND_INTEREST: 5,
  REFUND: 6,
};

export interface LedgerEntry {
  date: string;
  kind: EntryKind;
  documentNumber: string;
  particulars: string;
  /** The due date of the demand the entry is (or pays). */
  dueDate: string;
  /** Paise. */
  debit: bigint | null;
  credit: bigint | null;
  /** Running debit minus credit, from the opening balance (paise). */
  balance: bigint;
  ref: { type: 'demand' | 'receipt' | 'cancellation'; id: string };
}

/** Paise, each. */
export interface LedgerTotals {
  /** Demand debits - cancellation credits. */
  demanded: bigint;
  /** Receipt credits - reversal debits. */
  received: bigint;
  /** demanded - received (= closingBalance). */
  outstanding: bigint;
  /** The part of outstanding on demands due before asOf. */
  overdue: bigint;
  /** outstanding - overdue. */
  notYetDue: bigint;
}

export interface Ledger {
  from: string;
  to: string;
  asOf: string;
  /** Paise. */
  openingBalance: bigint;
  entries: LedgerEntry[];
  /** Paise. */
  closingBalance: bigint;
  totals: LedgerTotals;
}

/** A demand as the ledger reads it. */
export interface LedgerDemand {
  id: string;
  number: string;
  type: string;
  /** demandDate. */
  date: string;
  dueDate: string;
  /** Numeric text: the splits' sum (or the payer's). */
  amount: string;
  remarks: string;
  milestone: string | null;
  /** The cancel's date in the tenant's zone; null while not cancelled. */
  cancelledOn: string | null;
  cancelReason: string | null;
  /** A taxed demand's invoice number; null (and tax 0.00) while untaxed. */
  invoiceNumber?: string | null;
  /** Numeric text: the GST included in `amount` (the payer's share with a payer). */
  tax?: string;
}

/** A receipt as the ledger reads it. */
export interface LedgerReceipt {
  id: string;
  number: string;
  /** receivedDate. */
  date: string;
  /** Its demand's due date. */
  dueDate: string;
  /** Numeric text. */
  amount: string;
  mode: string;
  ref: string;
  payerType: string;
  /** The name given on its split; null when none was (printed-names.ts decides what to print). */
  payerName: string | null;
  status: string;
  /** When it left ACTIVE (a bounce's bouncedOn); null while ACTIVE. */
  statusChangedOn: string | null;
  statusReason: string | null;
}

/**
 * A booking's cancellation after payment as the ledger reads it (the payer's shares with a
 * payer); money as numeric text.
 */
export interface LedgerCancellation {
  id: string;
  cancelledOn: string;
  deduction: string;
  taxCredited: string;
  creditNotes: readonly string[];
  /** The demands it cancelled: no DEMAND_CANCELLED entries of their own. */
  demandIds: readonly string[];
  refund: string;
  refundDueDate?: string;
  /** Null while the refund is due. */
  refundPaidOn: string | null;
  interest: string | null;
  paidAmount: string | null;
  voucherNumber: string | null;
}

export interface LedgerRecords {
  /** Used for the payer of a BUYER receipt. */
  buyerName: string;
  demands: readonly LedgerDemand[];
  receipts: readonly LedgerReceipt[];
  cancellation?: LedgerCancellation | null;
}

export interface LedgerPeriod {
  /** Undefined: the first entry's date (or `to` when there is none), opening balance 0. */
  from?: string;
  to: string;
  asOf: string;
}

/** The milestone or remarks of a demand; a tax invoice's number and GST after them. */
export function demandParticulars(demand: LedgerDemand): string {
  const what =
    demand.remarks.trim() !== ''
      ? demand.remarks
      : demand.milestone
        ? `Milestone ${demand.milestone}`
        : `${demand.type.charAt(0)}${demand.type.slice(1).toLowerCase()} demand`;
  if (!demand.invoiceNumber) return what;
  return `${what}; tax invoice ${demand.invoiceNumber}, GST ${demand.tax ?? '0.00'} included`;
}

/** Payment mode, reference and payer; a TDS receipt as section 194-IA reads it. */
export function receiptParticulars(receipt: LedgerReceipt, buyerName: string): string {
  if (receipt.mode === 'TDS') return `TDS deducted u/s 194-IA, 26QB ${receipt.ref}`;
  const mode = paymentModeLabel(receipt.mode);
  const payer = printedPayerName({
    payerName: receipt.payerName,
    payerType: receipt.payerType,
    buyerName,
  });
  return [mode, receipt.ref].filter((p) => p !== '').join(' ') + ` from ${payer}`;
}

/** Cancelled or bounced, and why. */
export function reversalParticulars(receipt: LedgerReceipt): string {
  const what = receipt.status === 'BOUNCED' ? 'bounced' : 'cancelled';
  const reason = receipt.statusReason ? `: ${receipt.statusReason}` : '';
  return `Receipt ${receipt.number} ${what}${reason}`;
}

const later = (a: string, b: string) => (a > b ? a : b);

/** What the developer kept, the GST credited and the credit notes. */
export function cancellationParticulars(c: LedgerCancellation): string {
  const notes = c.creditNotes.length > 0 ? ` (credit notes ${c.creditNotes.join(', ')})` : '';
  return `Booking cancelled: deduction ${c.deduction} retained, GST ${c.taxCredited} credited${notes}; refund ${c.refund} due`;
}

/** Every entry of the records, in statement order (dates after `to` included). */
export function ledgerEntries(records: LedgerRecords): Omit<LedgerEntry, 'balance'>[] {
  const entries: Omit<LedgerEntry, 'balance'>[] = [];
  const cancellation = records.cancellation ?? null;
  const byCancellation = new Set(cancellation?.demandIds ?? []);
  for (const d of records.demands) {
    const amount = toPaise(d.amount);
    const ref = { type: 'demand' as const, id: d.id };
    // A demand dated after the booking's cancellation never fell due: the cancellation settles it.
    if (cancellation && byCancellation.has(d.id) && d.date > cancellation.cancelledOn) continue;
    entries.push({
      date: d.date,
      kind: 'DEMAND',
      documentNumber: d.number,
      particulars: demandParticulars(d),
      dueDate: d.dueDate,
      debit: amount,
      credit: null,
      ref,
    });
    if (d.cancelledOn !== null && !byCancellation.has(d.id)) {
      entries.push({
        date: later(d.cancelledOn, d.date),
        kind: 'DEMAND_CANCELLED',
        documentNumber: d.number,
        particulars: `Demand cancelled${d.cancelReason ? `: ${d.cancelReason}` : ''}`,
        dueDate: d.dueDate,
        debit: null,
        credit: amount,
        ref,
      });
    }
  }
  for (const r of records.receipts) {
    const amount = toPaise(r.amount);
    const ref = { type: 'receipt' as const, id: r.id };
    entries.push({
      date: r.date,
      kind: 'RECEIPT',
      documentNumber: r.number,
      particulars: receiptParticulars(r, records.buyerName),
      dueDate: r.dueDate,
      debit: null,
      credit: amount,
      ref,
    });
    if (r.status !== 'ACTIVE' && r.statusChangedOn !== null) {
      entries.push({
        date: later(r.statusChangedOn, r.date),
        kind: 'RECEIPT_REVERSED',
        documentNumber: r.number,
        particulars: reversalParticulars(r),
        dueDate: r.dueDate,
        debit: amount,
        credit: null,
        ref,
      });
    }
  }
  entries.sort(compareEntries);
  if (cancellation) entries.push(...cancellationEntries(cancellation, entries));
  return entries.sort(compareEntries);
}

/**
 * The cancellation's entries: CANCELLATION, crediting the balance before it plus the refund (the
 * balance becomes minus the refund: the developer owes the buyer), then, once paid, the refund's
 * interest (a credit) and the refund paid (a debit), closing at 0.
 */
function cancellationEntries(
  c: LedgerCancellation,
  sorted: readonly Omit<LedgerEntry, 'balance'>[],
): Omit<LedgerEntry, 'balance'>[] {
  const ref = { type: 'cancellation' as const, id: c.id };
  const entry = {
    date: c.cancelledOn,
    kind: 'CANCELLATION' as const,
    documentNumber: '',
    particulars: cancellationParticulars(c),
    dueDate: c.cancelledOn,
    debit: null,
    ref,
  };
  const before = sorted
    .filter((e) => compareEntries(e, entry) < 0)
    .reduce((sum, e) => sum + (e.debit ?? 0n) - (e.credit ?? 0n), 0n);
  const result: Omit<LedgerEntry, 'balance'>[] = [{ ...entry, credit: before + toPaise(c.refund) }];
  if (c.refundPaidOn === null) return result;
  const interest = toPaise(c.interest ?? '0.00');
  const paid = toPaise(c.paidAmount ?? '0.00');
  const voucher = c.voucherNumber ?? '';
  if (interest > 0n) {
    result.push({
      date: c.refundPaidOn,
      kind: 'REFUND_INTEREST',
      documentNumber: voucher,
      particulars: 'Interest on the refund',
      dueDate: c.refundPaidOn,
      debit: null,
      credit: interest,
      ref,
    });
  }
  if (paid > 0n) {
    result.push({
      date: c.refundPaidOn,
      kind: 'REFUND',
      documentNumber: voucher,
      particulars: `Refund paid${voucher ? `, voucher ${voucher}` : ''}`,
      dueDate: c.refundPaidOn,
      debit: paid,
      credit: null,
      ref,
    });
  }
  return result;
}

/** Date, then kind (demands, receipts, reversals), then document number, then id. */
export function compareEntries(
  a: Pick<LedgerEntry, 'date' | 'kind' | 'documentNumber' | 'ref'>,
  b: Pick<LedgerEntry, 'date' | 'kind' | 'documentNumber' | 'ref'>,
): number {
  if (a.date !== b.date) return a.date < b.date ? -1 : 1;
  if (a.kind !== b.kind) return RANK[a.kind] - RANK[b.kind];
  // Numbers sort as numbers do when their series grows a digit (…/99999 before …/100000).
  if (a.documentNumber.length !== b.documentNumber.length)
    return a.documentNumber.length - b.documentNumber.length;
  if (a.documentNumber !== b.documentNumber) return a.documentNumber < b.documentNumber ? -1 : 1;
  return a.ref.id < b.ref.id ? -1 : a.ref.id > b.ref.id ? 1 : 0;
}

/** The statement of `records` for `period`: entries from..to with their balance, and totals. */
export function buildLedger(records: LedgerRecords, period: LedgerPeriod): Ledger {
  const all = ledgerEntries(records).filter((e) => e.date <= period.to);
  const from = period.from ?? (all.length > 0 ? all[0].date : period.to);
  let opening = 0n;
  let balance = 0n;
  const entries: LedgerEntry[] = [];
  let demanded = 0n;
  let received = 0n;
  let overdue = 0n;
  for (const entry of all) {
    const net = (entry.debit ?? 0n) - (entry.credit ?? 0n);
    if (
      entry.kind === 'DEMAND' ||
      entry.kind === 'DEMAND_CANCELLED' ||
      entry.kind === 'CANCELLATION'
    ) {
      demanded += net;
    } else {
      received -= net;
    }
    if (entry.dueDate < period.asOf) overdue += net;
    if (entry.date < from) {
      opening += net;
      balance = opening;
    } else {
      balance += net;
      entries.push({ ...entry, balance });
    }
  }
  const outstanding = demanded - received;
  // Once cancelled, nothing is overdue or due: what remains is the refund the developer owes.
  const cancelled =
    records.cancellation !== undefined &&
    records.cancellation !== null &&
    records.cancellation.cancelledOn <= period.asOf;
  return {
    from,
    to: period.to,
    asOf: period.asOf,
    openingBalance: opening,
    entries,
    closingBalance: balance,
    totals: {
      demanded,
      received,
      outstanding,
      overdue: cancelled ? 0n : overdue,
      notYetDue: cancelled ? 0n : outstanding - overdue,
    },
  };
}
