import { normaliseAccountNumber } from '@/bank/account-number';

/** The account number a CSV's account block states, and where. */
export interface StatedAccount {
  /** The label as written (`Account No`), for the error. */
  label: string;
  /** 1-based line of the file. */
  line: number;
  /** Letters and digits, upper case; masked characters kept as `X`. */
  identifier: string;
  /** Written masked (`XXXXXXXXXX5678`): only its visible digits can be compared. */
  masked: boolean;
}

/** `Account No`, `Account Number`, `A/C No`, with what banks put around them (`Statement of`). */
const LABEL = /(?:^|[^A-Z])(ACCOUNT\s*NO\b\.?|ACCOUNT\s*NUMBER\b|A\/C\s*NO\b\.?)/i;
/** A number written masked but its last digits. */
const MASKED = /^[X*]{2,}\d{4,}$/i;

/** Cells of a line split naively: account blocks are plain text. */
const cells = (line: string, delimiter: string) =>
  line.split(delimiter).map((c) => c.trim().replace(/^"(.*)"$/, '$1'));

/**
 * The first account number given after a label in the lines above the header row: in the label's
 * own cell (`Account No : 50200012345678   OTHER`) or the next non-blank one
 * (`Account No.,4512345678`). The number is the run of words with digits after the label, so a
 * product code (`OTHER`) or the rest of a sentence (`for the period ...`) is not part of it.
 */
export function statedAccount(
  preamble: readonly string[],
  delimiter: string,
): StatedAccount | undefined {
  for (const [index, line] of preamble.entries()) {
    const row = cells(line, delimiter);
    for (const [c, cell] of row.entries()) {
      const label = LABEL.exec(cell);
      if (!label) continue;
      const rest = cell.slice(label.index + label[0].length);
      const value = /\d/.test(rest) ? rest : (row.slice(c + 1).find((x) => x !== '') ?? '');
      const words: string[] = [];
      for (const word of value.replace(/^[\s:.\-=#]+/, '').split(/\s+/)) {
        if (!/\d/.test(word)) break;
        words.push(word);
      }
      const written = words.join('');
      if (written === '') continue;
      const masked = MASKED.test(written);
      return {
        label: label[1].trim(),
        line: index + 1,
        identifier: masked
          ? written.toUpperCase().replace(/\*/g, 'X')
          : normaliseAccountNumber(written),
        masked,
      };
    }
  }
  return undefined;
}

/**
 * Whether the stated number is this account's: compared without separators, it ends with the
 * account's number (a bank may prefix a branch code or zeros); a masked one's visible digits end
 * the account's number.
 */
export function namesAccount(stated: StatedAccount, accountNumber: string): boolean {
  if (!stated.masked) return stated.identifier.endsWith(accountNumber);
  const visible = stated.identifier.replace(/^X+/, '');
  return accountNumber.endsWith(visible);
}
