import { isValidLocalDate } from '@/common/dates/local-date';

/** Amounts fit numeric(18,2): at most 16 digits before the point. */
const MAX_INTEGER_DIGITS = 16;

/**
 * A non-negative amount as banks print it: thousands separators in any grouping (`1,50,000.00`),
 * spaces, at most two decimals. Returns it with exactly two decimals (`150000.00`), `null` for a
 * blank cell, `undefined` when it is not an amount.
 */
export function parseAmount(text: string): string | null | undefined {
  const cleaned = text.replace(/[,\s\u00A0]/g, '');
  if (cleaned === '' || cleaned === '-') return null;
  const m = /^(\d+)(?:\.(\d{0,2}))?$/.exec(cleaned);
  if (!m) return undefined;
  const integer = m[1].replace(/^0+(?=\d)/, '');
  if (integer.length > MAX_INTEGER_DIGITS) return undefined;
  return `${integer}.${(m[2] ?? '').padEnd(2, '0')}`;
}

/**
 * A running balance: an amount with a sign (`-1,234.00`) or a trailing `Cr`/`Dr` (`1,234.00 Cr`,
 * `1,234.00(Dr)`); `Dr` is negative. Same results as parseAmount.
 */
export function parseBalance(text: string): string | null | undefined {
  let body = text.trim();
  let negative = false;
  const suffix = /\(?\s*(CR|DR)\s*\.?\s*\)?$/i.exec(body);
  if (suffix && suffix.index > 0) {
    negative = suffix[1].toUpperCase() === 'DR';
    body = body.slice(0, suffix.index).trim();
  }
  if (body.startsWith('-')) {
    negative = !negative;
    body = body.slice(1);
  } else if (body.startsWith('+')) {
    body = body.slice(1);
  }
  const amount = parseAmount(body);
  if (amount === null && body !== '') return undefined;
  if (!amount) return amount;
  return negative && !/^0\.00$/.test(amount) ? `-${amount}` : amount;
}

/** An amount with a comma as the decimal mark, as SWIFT writes it (`1234,56`, `1234,`). */
export function parseSwiftAmount(text: string): string | undefined {
  const m = /^(\d{1,15}),(\d{0,2})$/.exec(text);
  if (!m) return undefined;
  return `${m[1].replace(/^0+(?=\d)/, '')}.${m[2].padEnd(2, '0')}`;
}

/** `dateFormat=` of the generic layout, and the forms the bank layouts use. */
export const DATE_FORMATS = [
  'YYYY-MM-DD',
  'DD/MM/YYYY',
  'DD/MM/YY',
  'DD-MMM-YYYY',
  'DD MMM YYYY',
] as const;
export type DateFormat = (typeof DATE_FORMATS)[number] | 'DD-MM-YYYY';

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

const PATTERNS: Record<DateFormat, RegExp> = {
  'YYYY-MM-DD': /^(?<y>\d{4})-(?<m>\d{1,2})-(?<d>\d{1,2})$/,
  'DD/MM/YYYY': /^(?<d>\d{1,2})\/(?<m>\d{1,2})\/(?<y>\d{4})$/,
  'DD/MM/YY': /^(?<d>\d{1,2})\/(?<m>\d{1,2})\/(?<y>\d{2})$/,
  'DD-MM-YYYY': /^(?<d>\d{1,2})-(?<m>\d{1,2})-(?<y>\d{4})$/,
  'DD-MMM-YYYY': /^(?<d>\d{1,2})-(?<mon>[A-Za-z]{3})-(?<y>\d{4}|\d{2})$/,
  'DD MMM YYYY': /^(?<d>\d{1,2}) +(?<mon>[A-Za-z]{3}) +(?<y>\d{4})$/,
};

/**
 * A calendar date written as `format` (a time after it, as some exports add, is ignored) as
 * `YYYY-MM-DD`, or undefined when it is not one. Two-digit years are 20YY.
 */
export function parseDate(text: string, format: DateFormat): string | undefined {
  const dateText = text.trim().replace(/[ T]\d{1,2}:\d{2}(:\d{2})?( ?[AP]M)?$/i, '');
  const m = PATTERNS[format].exec(dateText);
  if (!m?.groups) return undefined;
  const { d, m: mm, mon, y } = m.groups;
  const month = mon ? MONTHS.indexOf(mon.toUpperCase()) + 1 : Number(mm);
  const year = y.length === 2 ? 2000 + Number(y) : Number(y);
  return isoDate(year, month, Number(d));
}

/** `YYMMDD` of SWIFT MT940 (years 20YY). */
export function parseSwiftDate(text: string): string | undefined {
  const m = /^(\d{2})(\d{2})(\d{2})$/.exec(text);
  return m ? isoDate(2000 + Number(m[1]), Number(m[2]), Number(m[3])) : undefined;
}

/** `YYYY-MM-DD` (ISO 20022 `Dt`, or the date of a `DtTm`). */
export function parseIsoDate(text: string): string | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})(T.*)?$/.exec(text.trim());
  return m ? isoDate(Number(m[1]), Number(m[2]), Number(m[3])) : undefined;
}

function isoDate(year: number, month: number, day: number): string | undefined {
  if (!isValidLocalDate({ year, month, day })) return undefined;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}
