import { currencySymbol, toMoney } from './money';

/**
 * The Money object (money.ts `toMoney`) made in SQL as JSON text, byte for byte what
 * `JSON.stringify(toMoney(amount, currency, locale))` prints, for events built set-based in one
 * statement (bank matching's thousands of `receipt.realised`).
 *
 * `formatted` is Intl's: the locale's separators, grouping, minus sign and digits are read from
 * Intl here (MoneyFormat), and a locale whose output that does not reproduce for a set of probe
 * amounts gets no MoneyFormat (null): the caller then builds its events in TypeScript.
 */
export interface MoneyFormat {
  currency: string;
  symbol: string;
  group: string;
  decimal: string;
  /** Digits in the group next to the decimal separator (3), and in the groups before it (3; 2 in en-IN). */
  primary: number;
  secondary: number;
  /** The integer part is grouped from `primary + minimumGrouping` digits (2 in es: 1234,00). */
  minimumGrouping: number;
  negativePrefix: string;
  negativeSuffix: string;
  positivePrefix: string;
  positiveSuffix: string;
  /** The locale's digits 0-9, one character each. */
  digits: string;
}

/** Amounts the derived format must print exactly as Intl does before it is used. */
const PROBES = [
  '0.00',
  '0.05',
  '1.00',
  '12.30',
  '999.99',
  '1000.00',
  '1234.56',
  '12345.67',
  '123456.78',
  '1234567.89',
  '12345678.90',
  '123456789012.34',
  '-0.01',
  '-1.50',
  '-1234.00',
  '-12345678.09',
];

const cache = new Map<string, MoneyFormat | null>();

/** The MoneyFormat of a currency in a locale, or null when Intl's output is not reproduced. */
export function moneyFormat(currency: string, locale: string): MoneyFormat | null {
  const key = `${locale}|${currency}`;
  if (!cache.has(key)) cache.set(key, deriveFormat(currency, locale));
  return cache.get(key) ?? null;
}

function deriveFormat(currency: string, locale: string): MoneyFormat | null {
  const intl = new Intl.NumberFormat(locale, {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  });
  const parts = (amount: string) => intl.formatToParts(amount as Intl.StringNumericLiteral);
  const around = (amount: string) => {
    const p = parts(amount);
    const first = p.findIndex((x) => x.type === 'integer');
    const last = p.map((x) => x.type).lastIndexOf('fraction');
    if (first < 0 || last < 0) return null;
    return {
      prefix: p
        .slice(0, first)
        .map((x) => x.value)
        .join(''),
      suffix: p
        .slice(last + 1)
        .map((x) => x.value)
        .join(''),
    };
  };
  const positive = around('123456789.12');
  const negative = around('-123456789.12');
  if (!positive || !negative) return null;
  const big = parts('123456789.12');
  const integers = big.filter((x) => x.type === 'integer').map((x) => x.value.length);
  const group = big.find((x) => x.type === 'group')?.value ?? '';
  const decimal = big.find((x) => x.type === 'decimal')?.value;
  if (decimal === undefined) return null;
  const primary = integers[integers.length - 1];
  const secondary = integers.length > 2 ? integers[integers.length - 2] : primary;
  const digits = Array.from({ length: 10 }, (_, d) =>
    parts(`${d}.00`)
      .filter((x) => x.type === 'integer')
      .map((x) => x.value)
      .join(''),
  );
  if (digits.some((d) => [...d].length !== 1)) return null;
  let minimumGrouping = 1;
  while (
    minimumGrouping < 4 &&
    !parts(`${'1'.repeat(primary + minimumGrouping)}.00`).some((x) => x.type === 'group')
  ) {
    minimumGrouping++;
  }
  const format: MoneyFormat = {
    currency,
    symbol: currencySymbol(currency, locale),
    group,
    decimal,
    primary,
    secondary,
    minimumGrouping,
    negativePrefix: negative.prefix,
    negativeSuffix: negative.suffix,
    positivePrefix: positive.prefix,
    positiveSuffix: positive.suffix,
    digits: digits.join(''),
  };
  const same = PROBES.every(
    (amount) => formatted(amount, format) === toMoney(amount, currency, locale).formatted,
  );
  // One character each: moneyJsonSql swaps them in with translate(); and nothing JSON escapes
  // (the text goes into its string as it is).
  const single = [...group].length === 1 && [...decimal].length === 1;
  const text = Object.values(format)
    .filter((x) => typeof x === 'string')
    .join('');
  const plain = JSON.stringify(text) === `"${text}"`;
  return same && single && plain ? format : null;
}

/** What the SQL of moneyJsonSql prints as `formatted`, in TypeScript (to check it against Intl). */
export function formatted(fixed: string, f: MoneyFormat): string {
  const negative = fixed.startsWith('-') && /[1-9]/.test(fixed);
  const [int, fraction] = fixed.replace(/^-/, '').split('.');
  let grouped = int;
  if (int.length >= f.primary + f.minimumGrouping) {
    const head = int.slice(0, -f.primary);
    const re = new RegExp(`(\\d)(?=(\\d{${f.secondary}})+$)`, 'g');
    grouped = `${head.replace(re, `$1${f.group}`)}${f.group}${int.slice(-f.primary)}`;
  }
  const digits = (s: string) => s.replace(/\d/g, (d) => [...f.digits][Number(d)]);
  const body = `${digits(grouped)}${f.decimal}${digits(fraction)}`;
  return negative
    ? `${f.negativePrefix}${body}${f.negativeSuffix}`
    : `${f.positivePrefix}${body}${f.positiveSuffix}`;
}

/** A string as an SQL literal (standard_conforming_strings: only quotes are doubled). */
export const sqlText = (text: string): string => `'${text.replace(/'/g, "''")}'`;

/** Integer digits a numeric(20,2) can have (moneyJsonSql's patterns hold as many). */
const INTEGER_DIGITS = 18;

/** A to_char pattern of the format's grouping (`,` the group, `.` the decimal: translated after). */
function toCharPattern(f: MoneyFormat, grouped: boolean): string {
  let pattern = '0.00';
  for (let digit = 2; digit <= INTEGER_DIGITS; digit++) {
    const fromPrimary = digit - 1 - f.primary;
    const boundary =
      grouped && fromPrimary >= 0 && fromPrimary % (fromPrimary === 0 ? 1 : f.secondary) === 0;
    pattern = `9${boundary ? ',' : ''}${pattern}`;
  }
  return `FM${pattern}`;
}

/**
 * SQL: the JSON text of `toMoney(expr)`, `expr` a numeric of scale 2 (a numeric(18,2) column, or a
 * sum or difference of them; it is evaluated more than once). `amount` is the number JavaScript prints: the decimal
 * without trailing zeros, exact below 10^13 (15 significant digits; above, float8's shortest
 * text as a decimal, which is JavaScript's too). `formatted`: to_char with the locale's grouping,
 * then its separators and digits by one translate() (a few times cheaper than a regular
 * expression: 14,000 events carry ~60,000 amounts).
 */
export function moneyJsonSql(expr: string, f: MoneyFormat): string {
  const v = `(${expr})`;
  const grouped = `to_char(abs(${v}), ${sqlText(toCharPattern(f, true))})`;
  const digits =
    f.minimumGrouping === 1
      ? grouped
      : `CASE WHEN abs(${v}) < 1e${f.primary + f.minimumGrouping - 1} THEN to_char(abs(${v}), ${sqlText(toCharPattern(f, false))}) ELSE ${grouped} END`;
  const body = `translate(${digits}, ',.0123456789', ${sqlText(f.group + f.decimal + f.digits)})`;
  const text = `CASE WHEN ${v} < 0 THEN ${sqlText(f.negativePrefix)} || ${body} || ${sqlText(f.negativeSuffix)}
    ELSE ${sqlText(f.positivePrefix)} || ${body} || ${sqlText(f.positiveSuffix)} END`;
  const amount = `CASE WHEN abs(${v}) < 1e13 THEN trim_scale(${v})::text ELSE trim_scale((${v})::float8::text::numeric)::text END`;
  const head = `,"currency":${JSON.stringify(f.currency)},"currencySymbol":${JSON.stringify(f.symbol)},"formatted":`;
  return `('{"amount":' || ${amount} || ${sqlText(head + '"')} || ${text} || '"}')`;
}
