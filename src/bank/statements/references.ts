/**
 * What a statement line's reference and narration say about the payment (docs/bank.md): the
 * UTR of a NEFT/RTGS transfer, the RRN of a UPI/IMPS payment (returned as `utr`) and the number
 * of a cheque. Pure: the same text always gives the same answer.
 *
 * - UTR: 4 letters, `N` (NEFT) or `R` (RTGS), then 11 or 17 letters and digits (16 or 22 in all;
 *   RTGS also `XXXXRC` + 16 digits, which that shape covers). At least one digit after the
 *   N/R, so an ordinary word of that length is not taken for one.
 * - RRN: exactly 12 digits.
 * - Cheque number: 6 digits.
 *
 * The reference column is read first: a value of digits only is read without its leading zeros
 * (HDFC pads to 16), 12 digits then being an RRN and up to 6 a cheque number (shown with 6 digits).
 * The narration is read next, token by token (runs of letters and digits): a UTR anywhere; an RRN
 * only when the narration names a UPI/IMPS payment, and a cheque number only when it names a
 * cheque or clearing, so an account number, PIN code or date is not taken for either.
 */

export interface LineReferences {
  utr: string | null;
  chequeNumber: string | null;
}

const UTR = /^[A-Z]{4}[NR][A-Z0-9]{11}(?:[A-Z0-9]{6})?$/;
const UPI_MARKERS = /\b(UPI|IMPS|RRN|MMT|P2A|P2M|P2P|BHIM)\b/;
const CHEQUE_MARKERS =
  /\b(CHQ|CHQS|CHEQUE|CHECK|CLG|CLEARING|CTS|MICR|INWARD|OUTWARD|INW|OW|IW|INST)\b|CHQ|CHEQUE/;

const tokensOf = (text: string): string[] =>
  text
    .toUpperCase()
    .split(/[^A-Z0-9]+/)
    .filter(Boolean);

function isUtr(token: string): boolean {
  return UTR.test(token) && /\d/.test(token.slice(5));
}

/** The UTR, RRN or cheque number a reference column holds, if it is one. */
function fromReference(reference: string): LineReferences {
  const none: LineReferences = { utr: null, chequeNumber: null };
  const compact = reference.toUpperCase().replace(/[\s-]/g, '');
  if (/^\d+$/.test(compact)) {
    const digits = compact.replace(/^0+/, '');
    if (digits.length === 12) return { utr: digits, chequeNumber: null };
    if (digits.length >= 1 && digits.length <= 6 && compact.length >= 6) {
      return { utr: null, chequeNumber: digits.padStart(6, '0') };
    }
    return none;
  }
  for (const token of tokensOf(reference)) {
    if (isUtr(token)) return { utr: token, chequeNumber: null };
  }
  // A labelled reference: "UTR:512345678901", "CHQ NO 004512".
  const tokens = tokensOf(reference);
  const rrn = tokens.find((t) => /^\d{12}$/.test(t));
  if (rrn) return { utr: rrn, chequeNumber: null };
  const cheque = tokens.find((t) => /^\d{6}$/.test(t));
  if (cheque && CHEQUE_MARKERS.test(reference.toUpperCase())) {
    return { utr: null, chequeNumber: cheque };
  }
  return none;
}

/** The references of one statement line: reference column first, then the narration. */
export function extractReferences(reference: string, narration: string): LineReferences {
  const fromColumn = fromReference(reference);
  let utr = fromColumn.utr;
  let chequeNumber = fromColumn.chequeNumber;
  const upper = narration.toUpperCase();
  const tokens = tokensOf(narration);
  if (utr === null) utr = tokens.find(isUtr) ?? null;
  if (utr === null && UPI_MARKERS.test(upper)) {
    utr = tokens.find((t) => /^\d{12}$/.test(t)) ?? null;
  }
  if (chequeNumber === null && utr === null && CHEQUE_MARKERS.test(upper)) {
    chequeNumber = tokens.find((t) => /^\d{6}$/.test(t)) ?? null;
  }
  return { utr, chequeNumber };
}

/**
 * The reference as compared across formats (a possible duplicate): upper case,
 * letters and digits only, leading zeros dropped, so HDFC's `0000512345678901` and an MT940's
 * `512345678901` compare equal.
 */
export function referenceKey(reference: string): string {
  return reference
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '')
    .replace(/^0+/, '');
}
