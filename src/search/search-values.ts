/**
 * One value of a search filter, parsed and normalised by its field's type: uuid lower case, date
 * `YYYY-MM-DD` (a real calendar date), number a plain decimal string (decimal.js `toFixed()`),
 * enum upper case, text and keyword as given. A failure carries the message a client is shown.
 */
import Decimal from 'decimal.js';

import { isValidLocalDate, localDateFields } from '@/common/dates/local-date';
import { SearchFieldDef } from '@/search/search-catalogue';

export const VALUE_LIMITS = Object.freeze({
  maxTextLength: 200,
  /** numeric(18,2): the absolute value must stay below 10^16. */
  maxAbsAmountExclusive: '10000000000000000',
});

export type ValueResult = { ok: true; value: string } | { ok: false; message: string };

/** Quotes a user value for a message, shortened so messages stay readable. */
export function show(value: unknown): string {
  const cut = (text: string): string => (text.length > 40 ? `${text.slice(0, 40)}…` : text);
  if (typeof value === 'string') return JSON.stringify(cut(value));
  if (value === undefined) return 'undefined';
  try {
    return cut(JSON.stringify(value) ?? typeof value);
  } catch {
    return typeof value;
  }
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DECIMAL_RE = /^-?\d+(\.\d+)?$/;
const MAX_ABS_AMOUNT = new Decimal(VALUE_LIMITS.maxAbsAmountExclusive);

function parseUuid(raw: string): ValueResult {
  const value = raw.trim();
  if (!UUID_RE.test(value)) {
    return {
      ok: false,
      message: `${show(raw)} is not a valid UUID; expected 32 hexadecimal digits as 8-4-4-4-12, e.g. 123e4567-e89b-12d3-a456-426614174000`,
    };
  }
  return { ok: true, value: value.toLowerCase() };
}

function parseDate(raw: string): ValueResult {
  const value = raw.trim();
  const date = localDateFields(value);
  const expected = 'expected a real calendar date as YYYY-MM-DD, e.g. 2025-01-31';
  if (!date)
    return { ok: false, message: `${show(raw)} is not a date in the form YYYY-MM-DD; ${expected}` };
  if (!isValidLocalDate(date)) {
    return { ok: false, message: `${show(raw)} is not a real calendar date; ${expected}` };
  }
  return { ok: true, value };
}

function parseDecimal(raw: string): ValueResult {
  const value = raw.trim();
  const expected =
    'expected a plain decimal number with an optional leading "-" and at most 2 decimal places, ' +
    'e.g. 1500 or -1500.50';
  if (!DECIMAL_RE.test(value)) {
    return { ok: false, message: `${show(raw)} is not a valid number; ${expected}` };
  }
  const fraction = value.split('.')[1];
  if (fraction !== undefined && fraction.length > 2) {
    return {
      ok: false,
      message: `${show(raw)} has ${fraction.length} decimal places; at most 2 are allowed (${expected})`,
    };
  }
  const decimal = new Decimal(value);
  if (decimal.abs().gte(MAX_ABS_AMOUNT)) {
    return {
      ok: false,
      message: `${show(raw)} is out of range; amounts are numeric(18,2), so the absolute value must be below ${VALUE_LIMITS.maxAbsAmountExclusive}`,
    };
  }
  return { ok: true, value: decimal.toFixed() };
}

function parseEnum(raw: string, def: SearchFieldDef): ValueResult {
  const value = raw.trim().toUpperCase();
  const allowed = def.enumValues ?? [];
  if (!allowed.includes(value)) {
    return {
      ok: false,
      message: `${show(raw)} is not a valid value for ${def.name}; allowed values (case-insensitive): ${allowed.join(', ')}`,
    };
  }
  return { ok: true, value };
}

function parseText(raw: string): ValueResult {
  const length = Array.from(raw).length;
  if (length > VALUE_LIMITS.maxTextLength) {
    return {
      ok: false,
      message: `text is ${length} characters long; at most ${VALUE_LIMITS.maxTextLength} characters are allowed`,
    };
  }
  if (raw.includes('\u0000')) {
    return {
      ok: false,
      message: 'text must not contain NUL characters; any other text is allowed',
    };
  }
  return { ok: true, value: raw };
}

/** Parses one value of `def`'s type (see the file comment for the normal forms). */
export function parseValue(raw: string, def: SearchFieldDef): ValueResult {
  switch (def.type) {
    case 'uuid':
      return parseUuid(raw);
    case 'date':
      return parseDate(raw);
    case 'number':
      return parseDecimal(raw);
    case 'enum':
      return parseEnum(raw, def);
    case 'text':
    case 'keyword':
      return parseText(raw);
  }
}

/** Orders two normalised values of a range type (number or date). */
export function compareValues(a: string, b: string, def: SearchFieldDef): number {
  if (def.type === 'number') return new Decimal(a).cmp(new Decimal(b));
  return a < b ? -1 : a > b ? 1 : 0; // YYYY-MM-DD sorts lexically
}
