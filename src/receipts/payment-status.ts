import Decimal from 'decimal.js';
import { DemandStatus } from '@/common/domain/enums';

/** What is owed on a split or a demand, as locked and read from the database. */
export interface Payable {
  /** The amount owed (split amount, demand total), a numeric(18,2) decimal string. */
  total: string;
  /** What active receipts have paid so far. */
  paid: string;
  status: DemandStatus;
}

export interface PayableUpdate {
  /** The new paid amount, two decimals, as stored. */
  paid: string;
  status: DemandStatus;
}

/** PENDING with nothing paid, PAID when paid in full, PARTIALLY_PAID in between. */
export function paymentStatus(
  total: Decimal.Value,
  paid: Decimal.Value,
): Exclude<DemandStatus, 'CANCELLED'> {
  const t = new Decimal(total);
  const p = new Decimal(paid);
  if (p.isNegative() || p.gt(t)) {
    throw new RangeError(`paid amount ${p.toFixed(2)} is outside 0..${t.toFixed(2)}`);
  }
  if (p.isZero()) return 'PENDING';
  return p.eq(t) ? 'PAID' : 'PARTIALLY_PAID';
}

export function pendingAmount(payable: Pick<Payable, 'total' | 'paid'>): Decimal {
  return new Decimal(payable.total).minus(payable.paid);
}

/**
 * Adds (a receipt) or subtracts (a cancellation: negative delta) an amount and recomputes the
 * status exactly. A CANCELLED split or demand stays CANCELLED.
 */
export function applyPayment(payable: Payable, delta: Decimal.Value): PayableUpdate {
  const paid = new Decimal(payable.paid).plus(delta);
  const computed = paymentStatus(payable.total, paid);
  return { paid: paid.toFixed(2), status: payable.status === 'CANCELLED' ? 'CANCELLED' : computed };
}
