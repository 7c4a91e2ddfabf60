/**
 * Bank account numbers (CONTRACT §11.1): Indian account numbers and IBANs, 6 to 34 letters and
 * digits, stored without spaces and hyphens (upper case), and shown masked everywhere but their
 * last four characters.
 */

export const ACCOUNT_NUMBER = /^[A-Z0-9]{6,34}$/;

/** Letters and digits only, upper case: `5020 0012-3456 78` → `50200012345678`. */
export function normaliseAccountNumber(text: string): string {
  return text.toUpperCase().replace(/[^A-Z0-9]/g, '');
}

/** `XXXXXXXXXX5678`: every character but the last four replaced by X. */
export function maskAccountNumber(accountNumber: string): string {
  const visible = accountNumber.slice(-4);
  return `${'X'.repeat(Math.max(accountNumber.length - 4, 0))}${visible}`;
}
