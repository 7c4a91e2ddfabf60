/**
 * Money as whole paise (hundredths) in a BigInt: exact at any size numeric(18,2) holds, and a
 * sum is one machine operation where decimal.js allocates an object. For hot loops over many
 * amounts (a statement's ledger); money crosses in and out as two-decimal text only.
 */

/** `12.5`, `-0.07`, `100`: numeric text with at most two decimals, as PostgreSQL prints it. */
const MONEY_TEXT = /^(-?)(\d+)(?:\.(\d{1,2}))?$/;

export function toPaise(text: string): bigint {
  const m = MONEY_TEXT.exec(text);
  if (!m) throw new RangeError(`not an amount with at most two decimals: ${text}`);
  const paise = BigInt(m[2] + (m[3] ?? '').padEnd(2, '0'));
  return m[1] === '-' ? -paise : paise;
}

/** `-12.50`, `0.00`: what Decimal#toFixed(2) prints for the same amount. */
export function paiseText(paise: bigint): string {
  const negative = paise < 0n;
  const digits = (negative ? -paise : paise).toString().padStart(3, '0');
  return `${negative ? '-' : ''}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/** n / d rounded half-up (to the paisa when n is paise times a rate), for n >= 0 and d > 0. */
export function divideHalfUp(n: bigint, d: bigint): bigint {
  return (2n * n + d) / (2n * d);
}
