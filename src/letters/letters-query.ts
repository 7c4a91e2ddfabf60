import { FieldError } from '@/common/app-error';
import { isValidLocalDate, localDateFields } from '@/common/dates/local-date';
import type { MediaFormat } from '@/http/accept-format';

/** GET /demands/{id}/letter: what the letter is served as (pdf by default). */
export const LETTER_FORMATS = ['pdf', 'json'] as const;
export type LetterFormat = (typeof LETTER_FORMATS)[number];
/** The media type of each format, for a request that says Accept instead of format=. */
export const LETTER_MEDIA_TYPES: readonly MediaFormat<LetterFormat>[] = [
  ['application/pdf', 'pdf'],
  ['application/json', 'json'],
];

export interface LetterQuery {
  asOf: string;
  /** Lower case; undefined: every payer of the demand. */
  payerId?: string;
  format: LetterFormat;
}

export interface RawLetterQuery {
  asOf?: unknown;
  payerId?: unknown;
  format?: unknown;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A `YYYY-MM-DD` date, or an error naming `field`. */
export function parseDate(field: string, value: unknown, errors: FieldError[]): string | undefined {
  if (value === undefined) return undefined;
  const fields = typeof value === 'string' ? localDateFields(value) : undefined;
  if (fields && isValidLocalDate(fields)) return value as string;
  errors.push({ field, message: 'must be a real calendar date as YYYY-MM-DD' });
  return undefined;
}

/** The letter's query with its defaults (asOf: `today`; format: pdf); errors name each field. */
export function parseLetterQuery(
  raw: RawLetterQuery,
  today: string,
  errors: FieldError[],
): LetterQuery {
  const asOf = parseDate('asOf', raw.asOf, errors) ?? today;
  let payerId: string | undefined;
  if (raw.payerId !== undefined) {
    if (typeof raw.payerId === 'string' && UUID.test(raw.payerId))
      payerId = raw.payerId.toLowerCase();
    else errors.push({ field: 'payerId', message: 'must be a UUID' });
  }
  let format: LetterFormat = 'pdf';
  if (raw.format !== undefined) {
    if ((LETTER_FORMATS as readonly unknown[]).includes(raw.format))
      format = raw.format as LetterFormat;
    else errors.push({ field: 'format', message: `must be one of ${LETTER_FORMATS.join(', ')}` });
  }
  return { asOf, payerId, format };
}
