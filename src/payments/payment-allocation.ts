import Decimal from 'decimal.js';

/** A split as the payment sees it, locked (PaymentSplitRow in decimals). */
export interface OpenSplit {
  id: string;
  /** What the split still owes (total - paid). */
  pending: Decimal;
}

/** This much of the payment to that split. */
export interface Part {
  splitId: string;
  amount: Decimal;
}

/**
 * Spreads `amount` over `splits` in the order given (oldest due first), each split taking what
 * it still owes until the amount is used up; splits that owe nothing are skipped. Null when the
 * splits owe less than `amount` altogether.
 */
export function allocateOldestFirst(amount: Decimal, splits: readonly OpenSplit[]): Part[] | null {
  const parts: Part[] = [];
  let left = amount;
  for (const split of splits) {
    if (left.lte(0)) break;
    if (split.pending.lte(0)) continue;
    const take = Decimal.min(left, split.pending);
    parts.push({ splitId: split.id, amount: take });
    left = left.minus(take);
  }
  return left.gt(0) ? null : parts;
}

/** The sum of the pending amounts. */
export function outstanding(splits: readonly OpenSplit[]): Decimal {
  return splits.reduce((sum, s) => (s.pending.gt(0) ? sum.plus(s.pending) : sum), new Decimal(0));
}

/** The sum of the parts' amounts. */
export function total(parts: readonly Part[]): Decimal {
  return parts.reduce((sum, p) => sum.plus(p.amount), new Decimal(0));
}

/** The first split id listed twice, or null. */
export function firstRepeated(ids: readonly string[]): string | null {
  const seen = new Set<string>();
  for (const id of ids) {
    const key = id.toLowerCase();
    if (seen.has(key)) return id;
    seen.add(key);
  }
  return null;
}
