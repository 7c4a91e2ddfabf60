/**
 * An amount in words for the printed receipt. `en-IN` uses the Indian system
 * (thousand, lakh = 1,00,000, crore = 1,00,00,000): 150000.50 INR is "Rupees One Lakh Fifty
 * Thousand and Fifty Paise Only". Every other locale uses the international system (thousand,
 * million, billion, trillion) in the cheque style "One Hundred Fifty Thousand and 50/100".
 * Amounts are decimal strings with at most two places, never floats.
 */
import Decimal from 'decimal.js';

const ONES = [
  'Zero',
  'One',
  'Two',
  'Three',
  'Four',
  'Five',
  'Six',
  'Seven',
  'Eight',
  'Nine',
  'Ten',
  'Eleven',
  'Twelve',
  'Thirteen',
  'Fourteen',
  'Fifteen',
  'Sixteen',
  'Seventeen',
  'Eighteen',
  'Nineteen',
];
const TENS = ['', '', 'Twenty', 'Thirty', 'Forty', 'Fifty', 'Sixty', 'Seventy', 'Eighty', 'Ninety'];

/** 1..999 in words (empty for 0). */
function belowThousand(n: number): string[] {
  const words: string[] = [];
  if (n >= 100) {
    words.push(ONES[Math.floor(n / 100)], 'Hundred');
    n %= 100;
  }
  if (n >= 20) {
    words.push(TENS[Math.floor(n / 10)]);
    n %= 10;
  }
  if (n > 0) words.push(ONES[n]);
  return words;
}

/** A whole number in the Indian system; above 99 crore the crores are counted the same way. */
function indian(n: bigint): string[] {
  if (n === 0n) return [];
  const crore = n / 10_000_000n;
  let rest = Number(n % 10_000_000n);
  const words: string[] = crore > 0n ? [...indian(crore), 'Crore'] : [];
  const lakh = Math.floor(rest / 100_000);
  rest %= 100_000;
  if (lakh > 0) words.push(...belowThousand(lakh), 'Lakh');
  const thousand = Math.floor(rest / 1000);
  rest %= 1000;
  if (thousand > 0) words.push(...belowThousand(thousand), 'Thousand');
  words.push(...belowThousand(rest));
  return words;
}

const SCALES = ['', 'Thousand', 'Million', 'Billion', 'Trillion', 'Quadrillion'];

/** A whole number in the international system. */
function international(n: bigint): string[] {
  const groups: number[] = [];
  for (let rest = n; rest > 0n; rest /= 1000n) groups.push(Number(rest % 1000n));
  const words: string[] = [];
  for (let i = groups.length - 1; i >= 0; i--) {
    if (groups[i] === 0) continue;
    words.push(...belowThousand(groups[i]));
    if (SCALES[i]) words.push(SCALES[i]);
  }
  return words;
}

/** The currency's name in words, where the Indian system names it. */
const INDIAN_CURRENCY: Readonly<Record<string, { major: string; minor: string }>> = {
  INR: { major: 'Rupees', minor: 'Paise' },
};

function split(amount: string | Decimal): { whole: bigint; cents: number } {
  const value = new Decimal(amount);
  if (!value.isFinite() || value.isNegative()) {
    throw new RangeError(`amount in words: ${value.toString()} is not a non-negative amount`);
  }
  if (!value.times(100).isInteger()) {
    throw new RangeError(`amount in words: ${value.toString()} has more than two decimals`);
  }
  const fixed = value.toFixed(2);
  const [whole, cents] = fixed.split('.');
  return { whole: BigInt(whole), cents: Number(cents) };
}

/**
 * `amount` (≥ 0, at most two decimals) in words for `locale` and `currency`:
 * - en-IN, INR: "Rupees Twelve Thousand Five Hundred Only", "Rupees One Lakh and Fifty Paise
 *   Only"; paise alone: "Fifty Paise Only"; zero: "Rupees Zero Only";
 * - en-IN, another currency: the Indian system with the code, cheque style ("USD One Lakh and
 *   50/100 Only");
 * - any other locale: "One Hundred Fifty Thousand and 50/100" (zero: "Zero and 00/100").
 */
export function amountInWords(amount: string | Decimal, currency: string, locale: string): string {
  const { whole, cents } = split(amount);
  if (locale !== 'en-IN') {
    const words = whole === 0n ? ['Zero'] : international(whole);
    return `${words.join(' ')} and ${String(cents).padStart(2, '0')}/100`;
  }
  const names = INDIAN_CURRENCY[currency];
  const rupees = indian(whole);
  if (!names) {
    const words = rupees.length === 0 ? ['Zero'] : rupees;
    return `${currency} ${words.join(' ')} and ${String(cents).padStart(2, '0')}/100 Only`;
  }
  const paise = cents > 0 ? [...belowThousand(cents), names.minor] : [];
  if (rupees.length === 0 && paise.length > 0) return `${paise.join(' ')} Only`;
  const parts = [names.major, ...(rupees.length === 0 ? ['Zero'] : rupees)];
  if (paise.length > 0) parts.push('and', ...paise);
  return `${parts.join(' ')} Only`;
}
