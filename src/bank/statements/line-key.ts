import { createHash } from 'node:crypto';
import type { ParsedLine } from './statement-line';

/** Whitespace runs as one space, trimmed: a re-export that re-wraps a narration is the same line. */
const normalise = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * The identity of a statement line (docs/bank.md): a SHA-256 of its value date, direction,
 * amount, reference, narration and running balance, plus its occurrence number among identical
 * lines of the same file (a reference alone is not unique: a cheque's deposit and its return
 * carry the same number; two equal UPI payments on one day differ only by position). An
 * overlapping statement, in the same format, yields the same keys for the lines it repeats.
 * One instance per file.
 */
export class LineKeys {
  private readonly seen = new Map<string, number>();

  next(line: ParsedLine): Buffer {
    const identity = [
      line.valueDate,
      line.direction,
      line.amount,
      normalise(line.reference),
      normalise(line.narration),
      line.balance ?? '',
    ].join('\u001f');
    const base = createHash('sha256').update(identity).digest('base64');
    const occurrence = (this.seen.get(base) ?? 0) + 1;
    this.seen.set(base, occurrence);
    return createHash('sha256').update(`${base}#${occurrence}`).digest();
  }
}
