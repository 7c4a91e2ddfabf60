import Decimal from 'decimal.js';

/** The Money object of the interface document. */
export interface Money {
  amount: number;
  currency: string;
  currencySymbol: string;
  formatted: string;
}

/** `-12.50`, `0.00`: already what `Decimal#toFixed(2)` would print (no leading zeros, no `+`). */
const TWO_DECIMALS = /^-?(0|[1-9]\d*)\.\d\d$/;

const formatters = new Map<string, Intl.NumberFormat>();
const symbols = new Map<string, string>();

function formatter(locale: string): Intl.NumberFormat {
  let f = formatters.get(locale);
  if (!f) {
    f = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    formatters.set(locale, f);
  }
  return f;
}

export function currencySymbol(currency: string, locale: string): string {
  const cacheKey = `${locale}|${currency}`;
  let symbol = symbols.get(cacheKey);
  if (symbol === undefined) {
    symbol =
      new Intl.NumberFormat(locale, {
        style: 'currency',
        currency,
        currencyDisplay: 'narrowSymbol',
      })
        .formatToParts(0)
        .find((p) => p.type === 'currency')?.value ?? currency;
    symbols.set(cacheKey, symbol);
  }
  return symbol;
}

/**
 * Builds Money from a numeric(18,2) decimal string. `formatted` is produced from the decimal
 * string itself (Intl formats string decimals exactly), never from a binary float.
 */
export function toMoney(amount: string | Decimal, currency: string, locale: string): Money {
  // numeric(18,2) columns arrive as exactly this text; only other shapes need decimal.js.
  const fixed =
    typeof amount === 'string' && TWO_DECIMALS.test(amount)
      ? amount
      : (amount instanceof Decimal ? amount : new Decimal(amount)).toFixed(2);
  return {
    amount: Number(fixed),
    currency,
    currencySymbol: currencySymbol(currency, locale),
    formatted: formatter(locale).format(fixed as Intl.StringNumericLiteral),
  };
}
