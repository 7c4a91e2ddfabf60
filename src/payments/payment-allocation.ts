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

/** A listed split as the payment reads it under its lock. */
export interface ListedSplit {
  id: string;
  bookingId: string;
  payerId: string;
  cancelled: boolean;
  pending: Decimal;
  /** A taxed demand's invoice date (its demand date): nothing may pay it earlier. Null untaxed. */
  invoiceDate: string | null;
}

/** Why a listed allocation cannot be recorded, the first reason found (in the order listed). */
export type ListedRefusal =
  | { kind: 'INVALID'; splitId: string; why: string }
  | { kind: 'BEFORE_INVOICE'; splitId: string; invoiceDate: string }
  | { kind: 'EXCEEDS'; splitId: string; amount: Decimal; pending: Decimal };

/**
 * Whether `parts` may be recorded as listed for `payerId` on `bookingId`, given the listed splits
 * read under their locks (by lower-case id): each split must exist, be of that booking and payer
 * and not be cancelled (every part checked for that first), then no taxed split may be paid before
 * its invoice's date, then no part may exceed its split's pending amount. Null when all may be recorded. Ids compare case-insensitively.
 */
export function refuseListed(
  parts: readonly Part[],
  splits: ReadonlyMap<string, ListedSplit>,
  owner: { bookingId: string; payerId: string; receivedDate: string },
): ListedRefusal | null {
  for (const part of parts) {
    const split = splits.get(part.splitId.toLowerCase());
    const why = !split
      ? 'it was not found'
      : split.bookingId.toLowerCase() !== owner.bookingId.toLowerCase()
        ? 'it is of another booking'
        : split.payerId.toLowerCase() !== owner.payerId.toLowerCase()
          ? 'it is of another payer'
          : split.cancelled
            ? 'it is cancelled'
            : null;
    if (why !== null) return { kind: 'INVALID', splitId: part.splitId, why };
  }
  for (const part of parts) {
    const split = splits.get(part.splitId.toLowerCase()) as ListedSplit;
    if (split.invoiceDate !== null && owner.receivedDate < split.invoiceDate) {
      return { kind: 'BEFORE_INVOICE', splitId: part.splitId, invoiceDate: split.invoiceDate };
    }
  }
  for (const part of parts) {
    const split = splits.get(part.splitId.toLowerCase()) as ListedSplit;
    if (part.amount.gt(split.pending)) {
      return {
        kind: 'EXCEEDS',
        splitId: part.splitId,
        amount: part.amount,
        pending: split.pending,
      };
    }
  }
  return null;
}
