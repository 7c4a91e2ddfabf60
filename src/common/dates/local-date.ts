/**
 * Calendar dates without time or zone (the date a tenant sees on a document), and the date of an
 * instant in a tenant's IANA time zone. Pure functions, used by validation, numbering and search.
 */

/** A calendar date with no time and no zone: the document's date as the tenant sees it. */
export interface LocalDate {
  readonly year: number;
  readonly month: number;
  readonly day: number;
}

function daysInMonth(year: number, month: number): number {
  // Day 0 of the next month is the last day of this one; Date.UTC handles leap years.
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

export function isValidLocalDate(d: LocalDate): boolean {
  return (
    Number.isInteger(d.year) &&
    Number.isInteger(d.month) &&
    Number.isInteger(d.day) &&
    d.year >= 1 &&
    d.year <= 9999 &&
    d.month >= 1 &&
    d.month <= 12 &&
    d.day >= 1 &&
    d.day <= daysInMonth(d.year, d.month)
  );
}

export function assertLocalDate(d: LocalDate): void {
  if (!isValidLocalDate(d)) {
    throw new RangeError(`invalid date ${JSON.stringify(d)}; expected a real calendar date`);
  }
}

/**
 * The fields of `YYYY-MM-DD` text, not yet checked to be a real date (see isValidLocalDate);
 * undefined when the text has another form.
 */
export function localDateFields(text: string): LocalDate | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  return match
    ? { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) }
    : undefined;
}

/** Parses `YYYY-MM-DD` into a calendar date; throws RangeError on anything else. */
export function parseLocalDate(text: string): LocalDate {
  const date = localDateFields(text);
  if (!date || !isValidLocalDate(date)) {
    throw new RangeError(
      `invalid date ${JSON.stringify(text)}; expected a real calendar date as YYYY-MM-DD`,
    );
  }
  return date;
}

export function formatLocalDate(d: LocalDate): string {
  assertLocalDate(d);
  return `${String(d.year).padStart(4, '0')}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    try {
      formatter = new Intl.DateTimeFormat('en-US', {
        timeZone,
        calendar: 'gregory',
        numberingSystem: 'latn',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
      });
    } catch {
      throw new RangeError(`unknown time zone ${JSON.stringify(timeZone)}`);
    }
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The calendar date of `instant` in the IANA `timeZone` (e.g. `Asia/Kolkata`). */
export function localDateInZone(instant: Date, timeZone: string): LocalDate {
  if (Number.isNaN(instant.getTime())) {
    throw new RangeError('invalid instant');
  }
  const fields: Partial<Record<'year' | 'month' | 'day', number>> = {};
  for (const part of formatterFor(timeZone).formatToParts(instant)) {
    if (part.type === 'year' || part.type === 'month' || part.type === 'day') {
      fields[part.type] = Number(part.value);
    }
  }
  const date = { year: fields.year ?? NaN, month: fields.month ?? NaN, day: fields.day ?? NaN };
  assertLocalDate(date);
  return date;
}
