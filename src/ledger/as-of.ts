import { paiseText, toPaise } from '@/common/money/paise';
import { shareTax } from '@/gst/gst-tax';
import type { LedgerCancellation, LedgerDemand, LedgerReceipt } from './booking-ledger';
import type {
  LedgerCancellationRow,
  LedgerDemandRow,
  LedgerReceiptRow,
  LedgerRecordsRow,
  LedgerRecordsSqlRow,
  LedgerSplitRow,
} from './ledger.sql';

/**
 * "Owed as of a date", pure: the one set of rules every per-booking reader (the statement of
 * account, interest, letters) applies to a booking's records (LEDGER_RECORDS_SQL). They work on
 * business dates, not on when rows were written:
 *
 * - a demand dated after asOf does not exist yet;
 * - a receipt has paid on asOf when it was received on or before asOf and is ACTIVE, or left
 *   ACTIVE (cancelled, bounced) after asOf;
 * - a split owes on asOf when its demand exists and it is not cancelled, or its demand was
 *   cancelled after asOf;
 * - what it owes is its amount less what its receipts had paid on asOf.
 *
 * The set-based readers (ageing, reminders) use the same rules in SQL (ledger.sql.ts).
 */

export type BookingRecords = LedgerRecordsRow;

/**
 * The records as LEDGER_RECORDS_SQL returns them, each receipt given its split's payer (and the
 * name on that split) and its demand's due date. Every receipt's split is among the booking's: a
 * receipt is recorded against a split of its booking.
 */
export function withSplitFacts(row: LedgerRecordsSqlRow): BookingRecords {
  const splits = new Map<string, { payerId: string; payerName: string | null; dueDate: string }>();
  for (const d of row.demands) {
    for (const s of d.splits) {
      splits.set(s.id, { payerId: s.payerId, payerName: s.payerName, dueDate: d.dueDate });
    }
  }
  return {
    ...row,
    receipts: row.receipts.map((r) => {
      const split = splits.get(r.split);
      if (!split) throw new Error(`receipt ${r.id}: its split ${r.split} is not its booking's`);
      return { ...r, ...split };
    }),
  };
}

export function demandExistsOn(demand: Pick<LedgerDemandRow, 'date'>, asOf: string): boolean {
  return demand.date <= asOf;
}

export function receiptPaidOn(
  receipt: Pick<LedgerReceiptRow, 'date' | 'status' | 'statusChangedOn'>,
  asOf: string,
): boolean {
  if (receipt.date > asOf) return false;
  return (
    receipt.status === 'ACTIVE' ||
    (receipt.statusChangedOn !== null && receipt.statusChangedOn > asOf)
  );
}

export function splitOwesOn(
  demand: Pick<LedgerDemandRow, 'date' | 'cancelledOn'>,
  split: Pick<LedgerSplitRow, 'cancelled'>,
  asOf: string,
): boolean {
  if (!demandExistsOn(demand, asOf)) return false;
  return !split.cancelled || (demand.cancelledOn !== null && demand.cancelledOn > asOf);
}

/**
 * The split was cancelled on or before asOf: from then on it counts for nothing, even with ACTIVE
 * receipts (a booking's cancellation keeps them: its refund settles them).
 */
export function splitGoneOn(
  demand: Pick<LedgerDemandRow, 'cancelledOn'>,
  split: Pick<LedgerSplitRow, 'cancelled'>,
  asOf: string,
): boolean {
  return split.cancelled && demand.cancelledOn !== null && demand.cancelledOn <= asOf;
}

/** One split that owes on asOf, with what its receipts had paid it then (paise). */
export interface SplitStanding {
  demand: LedgerDemandRow;
  split: LedgerSplitRow;
  amount: bigint;
  paid: bigint;
  /** amount - paid. */
  outstanding: bigint;
  /** The receipts that had paid it on asOf, summed per received date, oldest first. */
  payments: { date: string; amount: bigint }[];
}

/** Natural order of document numbers: a series that grows a digit sorts after its shorter part. */
function compareNumbers(a: string, b: string): number {
  if (a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Every split of the records that owes on asOf (of `payerId` alone when given), by due date,
 * then demand number, then split number.
 */
export function splitsOwingOn(
  records: Pick<BookingRecords, 'demands' | 'receipts'>,
  asOf: string,
  payerId?: string,
): SplitStanding[] {
  const paidBySplit = new Map<string, Map<string, bigint>>();
  for (const r of records.receipts) {
    if (!receiptPaidOn(r, asOf)) continue;
    let byDate = paidBySplit.get(r.split);
    if (!byDate) paidBySplit.set(r.split, (byDate = new Map<string, bigint>()));
    byDate.set(r.date, (byDate.get(r.date) ?? 0n) + toPaise(r.amount));
  }
  const result: SplitStanding[] = [];
  for (const demand of records.demands) {
    for (const split of demand.splits) {
      if (payerId !== undefined && split.payerId !== payerId) continue;
      if (!splitOwesOn(demand, split, asOf)) continue;
      const payments = [...(paidBySplit.get(split.id) ?? new Map<string, bigint>())]
        .map(([date, amount]) => ({ date, amount }))
        .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
      const amount = toPaise(split.amount);
      const paid = payments.reduce((sum, p) => sum + p.amount, 0n);
      result.push({ demand, split, amount, paid, outstanding: amount - paid, payments });
    }
  }
  return result.sort(
    (a, b) =>
      (a.demand.dueDate < b.demand.dueDate ? -1 : a.demand.dueDate > b.demand.dueDate ? 1 : 0) ||
      compareNumbers(a.demand.number, b.demand.number) ||
      compareNumbers(a.split.number, b.split.number),
  );
}

/**
 * What each split counts for towards what the booking owes on asOf (paise): its amount when it
 * owes then, less what its receipts had paid it then. A split that does not owe but was paid
 * something (money received before its demand's date: an advance) counts negative, as the
 * statement of account's credits do; the ageing's SQL (ledger.sql.ts balanceOn) sums the same.
 */
export function splitBalances(
  records: Pick<BookingRecords, 'demands' | 'receipts'>,
  asOf: string,
): { demand: LedgerDemandRow; split: LedgerSplitRow; balance: bigint }[] {
  const paid = new Map<string, bigint>();
  for (const r of records.receipts) {
    if (receiptPaidOn(r, asOf)) paid.set(r.split, (paid.get(r.split) ?? 0n) + toPaise(r.amount));
  }
  return records.demands.flatMap((demand) =>
    demand.splits
      .map((split) => ({
        demand,
        split,
        balance:
          (splitOwesOn(demand, split, asOf) ? toPaise(split.amount) : 0n) -
          (paid.get(split.id) ?? 0n),
      }))
      .filter(
        (s) =>
          splitOwesOn(s.demand, s.split, asOf) ||
          (s.balance !== 0n && !splitGoneOn(s.demand, s.split, asOf)),
      ),
  );
}

/**
 * The records as a statement of account reads them (booking-ledger.ts): each demand with its
 * amount (the sum of its splits, or of the payer's; a demand with none of the payer's splits is
 * left out), the receipts of the payer's splits.
 */
export function statementRecords(
  records: Pick<BookingRecords, 'demands' | 'receipts'> &
    Partial<Pick<BookingRecords, 'cancellation'>>,
  payerId?: string,
): { demands: LedgerDemand[]; receipts: LedgerReceipt[]; cancellation: LedgerCancellation | null } {
  const demands: LedgerDemand[] = [];
  for (const d of records.demands) {
    const splits = payerId === undefined ? d.splits : d.splits.filter((s) => s.payerId === payerId);
    if (splits.length === 0) continue;
    demands.push({
      id: d.id,
      number: d.number,
      type: d.type,
      date: d.date,
      dueDate: d.dueDate,
      amount: paiseText(splits.reduce((sum, s) => sum + toPaise(s.amount), 0n)),
      remarks: d.remarks,
      milestone: d.milestone,
      cancelledOn: d.cancelledOn,
      cancelReason: d.cancelReason,
      invoiceNumber: d.invoiceNumber,
      tax: paiseText(
        splits.reduce((sum, s) => sum + toPaise(s.amount) - toPaise(s.consideration), 0n),
      ),
    });
  }
  const receipts = records.receipts
    .filter((r) => payerId === undefined || r.payerId === payerId)
    .map((r): LedgerReceipt => ({
      id: r.id,
      number: r.number,
      date: r.date,
      dueDate: r.dueDate,
      amount: r.amount,
      mode: r.mode,
      ref: r.ref,
      payerType: r.payerType,
      payerName: r.payerName,
      status: r.status,
      statusChangedOn: r.statusChangedOn,
      statusReason: r.statusReason,
    }));
  return {
    demands,
    receipts,
    cancellation: cancellationShare(records.cancellation ?? null, payerId),
  };
}

/**
 * The cancellation as a statement reads it: whole, or a payer's share (its byPayer refund, and the
 * refund's interest shared as the refund is, by largest remainder).
 */
function cancellationShare(
  c: LedgerCancellationRow | null,
  payerId: string | undefined,
): LedgerCancellation | null {
  if (c === null) return null;
  const base = {
    id: c.id,
    cancelledOn: c.cancelledOn,
    deduction: c.deduction,
    taxCredited: c.taxCredited,
    creditNotes: c.creditNotes,
    demandIds: c.demandIds,
    refundPaidOn: c.refundPaidOn,
    voucherNumber: c.voucherNumber,
  };
  if (payerId === undefined) {
    return {
      ...base,
      refund: c.refund,
      interest: c.refundInterest,
      paidAmount: c.refundPaidAmount,
    };
  }
  const refunds = c.byPayer.map((p) => toPaise(p.refund));
  const index = c.byPayer.findIndex((p) => p.payerId === payerId);
  const refund = index < 0 ? 0n : refunds[index];
  const interest = toPaise(c.refundInterest ?? '0.00');
  const shares =
    interest === 0n || refunds.every((r) => r === 0n)
      ? refunds.map(() => 0n)
      : shareTax(interest, refunds);
  const share = index < 0 ? 0n : shares[index];
  return {
    ...base,
    refund: paiseText(refund),
    interest: c.refundPaidOn === null ? null : paiseText(share),
    paidAmount: c.refundPaidOn === null ? null : paiseText(refund + share),
  };
}
