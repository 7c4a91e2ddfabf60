import Decimal from 'decimal.js';
import { RECEIPT_NOT_FOUND } from '@/receipts/receipts.errors';
import {
  LINE_NOT_MATCHABLE,
  MATCH_AMOUNT_MISMATCH,
  RECEIPT_ALREADY_MATCHED,
  RECEIPT_NOT_MATCHABLE,
} from './bank.errors';
import type { LockedLineRow, LockedReceiptRow } from './bank-matching.sql';
import { canBounce, reachesBank } from '@/common/domain/payment-modes';

/** The line as the manual match sees it, locked. */
export type ManualMatchLine = Pick<
  LockedLineRow,
  'id' | 'direction' | 'status' | 'amount' | 'currency'
> & {
  /** A DEBIT line SUGGESTED with rule RETURN: a cheque the bank returned. */
  suggestedReturn: boolean;
};

export type ManualMatchReceipt = Pick<
  LockedReceiptRow,
  'id' | 'status' | 'payment_mode' | 'amount' | 'bank_line_id' | 'returned_by'
>;

/** What the match writes: a credit realising receipts (MANUAL), or a cheque's return. */
export interface ManualMatchDecision {
  kind: 'CREDIT' | 'RETURN';
  rule: 'MANUAL' | 'RETURN';
}

/**
 * Whether a line can be matched by hand, checked before its receipts are locked: a debit only as
 * a suggested cheque return, never a MATCHED or IGNORED line, nor a line of an account in another
 * currency than the receipts'. Throws 409 LINE_NOT_MATCHABLE.
 */
export function manualMatchLine(
  line: ManualMatchLine,
  tenantCurrency: string,
): ManualMatchDecision {
  const isReturn =
    line.direction === 'DEBIT' && line.status === 'SUGGESTED' && line.suggestedReturn;
  if (line.direction === 'DEBIT' && !isReturn) {
    throw LINE_NOT_MATCHABLE.error(line.id, 'it is a debit, not a cheque return');
  }
  if (line.status === 'MATCHED') {
    throw LINE_NOT_MATCHABLE.error(line.id, 'it is MATCHED; unmatch it first');
  }
  if (line.status === 'IGNORED') throw LINE_NOT_MATCHABLE.error(line.id, 'it is IGNORED');
  if (line.currency !== tenantCurrency) {
    throw LINE_NOT_MATCHABLE.error(
      line.id,
      `its account is in ${line.currency}, receipts in ${tenantCurrency}`,
    );
  }
  return isReturn ? { kind: 'RETURN', rule: 'RETURN' } : { kind: 'CREDIT', rule: 'MANUAL' };
}

/**
 * POST /bank-lines/{id}/match's rules, in the order the desk meets them: the line
 * (manualMatchLine), then each receipt asked for, in the order asked, then the sum.
 *
 * - A receipt not in `receipts` (not the tenant's): 404 RECEIPT_NOT_FOUND.
 * - CASH and TDS never reach the bank: 409 RECEIPT_NOT_MATCHABLE.
 * - For a credit, the receipt must be ACTIVE (409 RECEIPT_NOT_MATCHABLE) and not realised by
 *   another line (409 RECEIPT_ALREADY_MATCHED).
 * - For a cheque's return: a cheque or draft, not CANCELLED, realised by a credit line, and not
 *   returned by another debit already (409 RECEIPT_ALREADY_MATCHED).
 * - The amounts must add up to the line's: 422 MATCH_AMOUNT_MISMATCH.
 */
export function manualMatchDecision(
  line: ManualMatchLine,
  tenantCurrency: string,
  requested: readonly string[],
  receipts: ReadonlyMap<string, ManualMatchReceipt>,
): ManualMatchDecision {
  const decision = manualMatchLine(line, tenantCurrency);
  let sum = new Decimal(0);
  for (const id of requested) {
    const receipt = receipts.get(id);
    if (!receipt) throw RECEIPT_NOT_FOUND.error(id);
    if (!reachesBank(receipt.payment_mode)) {
      throw RECEIPT_NOT_MATCHABLE.error(id, `it is a ${receipt.payment_mode} receipt`);
    }
    if (decision.kind === 'RETURN') {
      if (!canBounce(receipt.payment_mode)) {
        throw RECEIPT_NOT_MATCHABLE.error(id, 'only a cheque or demand draft is returned');
      }
      if (receipt.status === 'CANCELLED') throw RECEIPT_NOT_MATCHABLE.error(id, 'it is CANCELLED');
      if (receipt.bank_line_id === null) {
        throw RECEIPT_NOT_MATCHABLE.error(id, 'it is not realised (no credit line)');
      }
      if (receipt.returned_by !== null) {
        throw RECEIPT_ALREADY_MATCHED.error(id, receipt.returned_by);
      }
    } else {
      if (receipt.status !== 'ACTIVE') {
        throw RECEIPT_NOT_MATCHABLE.error(id, `it is ${receipt.status}`);
      }
      if (receipt.bank_line_id !== null) {
        throw RECEIPT_ALREADY_MATCHED.error(id, receipt.bank_line_id);
      }
    }
    sum = sum.plus(receipt.amount);
  }
  if (!sum.eq(line.amount)) {
    throw MATCH_AMOUNT_MISMATCH.error(sum.toFixed(2), new Decimal(line.amount).toFixed(2));
  }
  return decision;
}
