import { canBounce, reachesBank } from '@/common/domain/payment-modes';

/**
 * The automatic matching rules of a statement's lines, line by line in plain TypeScript: the
 * reference the set-based SQL (bank-matching.sql.ts) is checked against. Same inputs, same
 * decisions; this one is written to be read, the SQL to run at a million receipts.
 *
 * 1. REFERENCE: a receipt's reference key equals one of the line's keys (UTR, cheque number, bank
 *    reference), amounts equal, value date from 3 days before to 30 days after receivedDate.
 * 2. GROUP: all open receipts sharing one reference key that matches the line, two or more, each
 *    dated as in 1, whose amounts add up to the line.
 *    A line with exactly one candidate (1 or 2), none of whose receipts is a candidate of
 *    another line, is MATCHED; otherwise every candidate is suggested, none matched.
 * 3. AMOUNT_DATE: a line with no candidate of 1 or 2 is suggested every open receipt of equal
 *    amount received 0-3 days before its value date (0-10 for a cheque or draft) and not matched
 *    by this run.
 *
 * RETURN: a debit that returns a cheque (a reversal, or a narration naming a return) and has a
 * cheque number is suggested every realised ACTIVE cheque or draft of that number and amount,
 * realised on or before the debit's value date and not yet returned.
 *
 * Money stays in paise (bigint); dates are `YYYY-MM-DD`.
 */

/** A narration naming a return (as RETURN_MARKER in the SQL). */
const RETURN_WORDS = /(RETURN|RTN|\bRET\b|BOUNCE|DISHONOU?R|UNPAID|REVERS)/i;

export type RuleName = 'REFERENCE' | 'GROUP' | 'AMOUNT_DATE' | 'RETURN';

export interface RuleLine {
  id: string;
  direction: 'CREDIT' | 'DEBIT';
  /** Positive, two decimals. */
  amount: string;
  valueDate: string;
  utr: string | null;
  chequeNumber: string | null;
  /** The bank reference as compared (referenceKey()). */
  referenceKey: string;
  narration: string;
  reversal: boolean;
}

export interface RuleReceipt {
  id: string;
  amount: string;
  receivedDate: string;
  paymentMode: string;
  transactionRef: string;
  status: string;
  /** The credit line it is realised by, and when (null: not realised). */
  bankLine: string | null;
  realisedOn: string | null;
  /** Matched to a RETURN debit already. */
  returned: boolean;
}

export interface Candidate {
  rule: RuleName;
  /** Sorted ids. */
  receipts: string[];
}

export interface LineDecision {
  status: 'UNMATCHED' | 'SUGGESTED' | 'MATCHED';
  /** The rule and receipts of a MATCHED line. */
  matched: Candidate | null;
  suggestions: Candidate[];
}

/** A receipt's transactionRef as compared with a line's keys (SQL bank_reference_key()). */
export function receiptReferenceKey(transactionRef: string): string {
  return transactionRef
    .toUpperCase()
    .replace(/^[^A-Z0-9]*((UTR|RRN|CHQ|NO)([^A-Z0-9]+|(?=[0-9])))+/, '')
    .replace(/[^A-Z0-9]/g, '')
    .replace(/^0+/, '');
}

/** The keys a line is matched by: its UTR, cheque number and reference, without leading zeros. */
export function lineKeys(line: RuleLine): string[] {
  const keys = [line.utr, line.chequeNumber, line.referenceKey].map((k) =>
    (k ?? '').replace(/^0+/, ''),
  );
  return [...new Set(keys.filter((k) => k !== ''))];
}

/** `1500.00` → 150000n. */
export function paise(amount: string): bigint {
  const [whole, fraction = ''] = amount.split('.');
  return BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0').slice(0, 2));
}

/** Days from `from` to `to` (both YYYY-MM-DD). */
function days(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

const isOpen = (r: RuleReceipt) =>
  r.status === 'ACTIVE' && r.bankLine === null && reachesBank(r.paymentMode);
const inReferenceWindow = (line: RuleLine, r: RuleReceipt) => {
  const d = days(r.receivedDate, line.valueDate);
  return d >= -3 && d <= 30;
};
const key = (c: Candidate) => `${c.rule}:${c.receipts.join(',')}`;

/**
 * Rules 1-3 over a run's open credit lines against the tenant's receipts. `amountDate` false: a
 * new receipt's check, rules 1 and 2 only.
 */
export function decideCredits(
  lines: readonly RuleLine[],
  receipts: readonly RuleReceipt[],
  { amountDate }: { amountDate: boolean },
): Map<string, LineDecision> {
  const open = receipts.filter(isOpen);
  const byKey = new Map<string, RuleReceipt[]>();
  for (const r of open) {
    if (r.transactionRef === '') continue;
    const k = receiptReferenceKey(r.transactionRef);
    byKey.set(k, [...(byKey.get(k) ?? []), r]);
  }
  const credits = lines.filter((l) => l.direction === 'CREDIT');
  const candidates = new Map<string, Candidate[]>();
  for (const line of credits) {
    const found = new Map<string, Candidate>();
    for (const k of lineKeys(line)) {
      const sharing = byKey.get(k) ?? [];
      for (const r of sharing) {
        if (paise(r.amount) === paise(line.amount) && inReferenceWindow(line, r)) {
          const c: Candidate = { rule: 'REFERENCE', receipts: [r.id] };
          found.set(key(c), c);
        }
      }
      const sum = sharing.reduce((s, r) => s + paise(r.amount), 0n);
      if (
        sharing.length >= 2 &&
        sum === paise(line.amount) &&
        sharing.every((r) => inReferenceWindow(line, r))
      ) {
        const c: Candidate = { rule: 'GROUP', receipts: sharing.map((r) => r.id).sort() };
        found.set(key(c), c);
      }
    }
    candidates.set(line.id, [...found.values()]);
  }
  // A receipt that is a candidate of two lines: neither line is matched.
  const linesOf = new Map<string, Set<string>>();
  for (const [lineId, cs] of candidates) {
    for (const c of cs) {
      for (const r of c.receipts) linesOf.set(r, (linesOf.get(r) ?? new Set()).add(lineId));
    }
  }
  const decisions = new Map<string, LineDecision>();
  const matchedReceipts = new Set<string>();
  for (const line of credits) {
    const cs = candidates.get(line.id) ?? [];
    const only = cs.length === 1 ? cs[0] : undefined;
    if (only && only.receipts.every((r) => linesOf.get(r)?.size === 1)) {
      decisions.set(line.id, { status: 'MATCHED', matched: only, suggestions: [] });
      only.receipts.forEach((r) => matchedReceipts.add(r));
    } else if (cs.length > 0) {
      decisions.set(line.id, { status: 'SUGGESTED', matched: null, suggestions: cs });
    }
  }
  for (const line of credits) {
    if (decisions.has(line.id)) continue;
    const suggestions: Candidate[] = amountDate
      ? open
          .filter((r) => !matchedReceipts.has(r.id) && paise(r.amount) === paise(line.amount))
          .filter((r) => {
            const d = days(r.receivedDate, line.valueDate);
            return d >= 0 && d <= (canBounce(r.paymentMode) ? 10 : 3);
          })
          .map((r) => ({ rule: 'AMOUNT_DATE', receipts: [r.id] }))
      : [];
    decisions.set(line.id, {
      status: suggestions.length > 0 ? 'SUGGESTED' : 'UNMATCHED',
      matched: null,
      suggestions,
    });
  }
  return decisions;
}

/** Rule RETURN over a run's open debit lines, against receipts as they stand after rules 1-3. */
export function decideReturns(
  lines: readonly RuleLine[],
  receipts: readonly RuleReceipt[],
): Map<string, LineDecision> {
  const decisions = new Map<string, LineDecision>();
  for (const line of lines) {
    if (line.direction !== 'DEBIT') continue;
    const cheque = (line.chequeNumber ?? '').replace(/^0+/, '');
    const returns = line.reversal || RETURN_WORDS.test(line.narration);
    const suggestions: Candidate[] =
      line.chequeNumber !== null && returns
        ? receipts
            .filter(
              (r) =>
                r.bankLine !== null &&
                r.realisedOn !== null &&
                r.realisedOn <= line.valueDate &&
                r.status === 'ACTIVE' &&
                canBounce(r.paymentMode) &&
                !r.returned &&
                paise(r.amount) === paise(line.amount) &&
                receiptReferenceKey(r.transactionRef) === cheque,
            )
            .map((r) => ({ rule: 'RETURN', receipts: [r.id] }))
        : [];
    decisions.set(line.id, {
      status: suggestions.length > 0 ? 'SUGGESTED' : 'UNMATCHED',
      matched: null,
      suggestions,
    });
  }
  return decisions;
}

/**
 * A statement's import: rules 1-3 over its credit lines, the receipts they match realised on the
 * line's value date, then RETURN over its debits.
 */
export function decideImport(
  lines: readonly RuleLine[],
  receipts: readonly RuleReceipt[],
): Map<string, LineDecision> {
  const credits = decideCredits(lines, receipts, { amountDate: true });
  const valueDate = new Map(lines.map((l) => [l.id, l.valueDate]));
  const realised = new Map<string, { line: string; on: string }>();
  for (const [lineId, d] of credits) {
    for (const r of d.matched?.receipts ?? []) {
      realised.set(r, { line: lineId, on: valueDate.get(lineId)! });
    }
  }
  const after = receipts.map((r) => {
    const now = realised.get(r.id);
    return now ? { ...r, bankLine: now.line, realisedOn: now.on } : r;
  });
  return new Map([...credits, ...decideReturns(lines, after)]);
}
