/**
 * Bank account numbers (docs/bank.md): Indian account numbers and IBANs, 6 to 34 letters and
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

/**
 * The error with the account number masked wherever the log would show it (the failed query's
 * parameters, PostgreSQL's message and "Failing row contains" detail): numbers are masked in
 * every log too (docs/bank.md).
 */
export function maskAccountNumberIn(error: unknown, accountNumber: string): unknown {
  const masked = maskAccountNumber(accountNumber);
  const scrub = (target: unknown) => {
    if (typeof target !== 'object' || target === null) return;
    const record = target as Record<string, unknown>;
    for (const key of ['message', 'detail', 'stack']) {
      const text = record[key];
      if (typeof text === 'string') record[key] = text.split(accountNumber).join(masked);
    }
    const parameters: unknown = record.parameters;
    if (Array.isArray(parameters)) {
      record.parameters = parameters.map((p: unknown) => (p === accountNumber ? masked : p));
    }
  };
  scrub(error);
  scrub((error as { driverError?: unknown } | null)?.driverError);
  return error;
}
