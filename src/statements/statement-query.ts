import { FieldError } from '@/common/app-error';
import { isValidLocalDate, localDateFields } from '@/common/dates/local-date';
import type { MediaFormat } from '@/http/accept-format';

/** GET /bookings/{id}/statement: what the statement is served as. */
export const STATEMENT_FORMATS = ['json', 'pdf', 'xlsx'] as const;
export type StatementFormat = (typeof STATEMENT_FORMATS)[number];
/** The media type of each format, for a request that says Accept instead of format=. */
export const STATEMENT_MEDIA_TYPES: readonly MediaFormat<StatementFormat>[] = [
  ['application/json', 'json'],
  ['application/pdf', 'pdf'],
  ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'xlsx'],
];

export interface StatementQuery {
  /** Undefined: the first entry's date (opening balance 0). */
  from?: string;
  to: string;
  asOf: string;
  /** Lower case; undefined: every payer. */
  payerId?: string;
  format: StatementFormat;
}

export interface RawStatementQuery {
  from?: unknown;
  to?: unknown;
  asOf?: unknown;
  payerId?: unknown;
  format?: unknown;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE_MESSAGE = 'must be a real calendar date as YYYY-MM-DD';

/**
 * The query of GET /bookings/{id}/statement with its defaults (asOf: `today`, the tenant's date;
 * to: asOf; format: json). Each bad parameter adds an error naming it to `errors`: a malformed
 * date, `from` after `to`, `to` after `asOf`, a payerId that is not a UUID, an unknown format.
 */
export function parseStatementQuery(
  raw: RawStatementQuery,
  today: string,
  errors: FieldError[],
): StatementQuery {
  const date = (name: string, value: unknown): string | undefined => {
    if (value === undefined) return undefined;
    const fields = typeof value === 'string' ? localDateFields(value) : undefined;
    if (fields && isValidLocalDate(fields)) return value as string;
    errors.push({ field: name, message: DATE_MESSAGE });
    return undefined;
  };
  const asOfGiven = date('asOf', raw.asOf);
  const toGiven = date('to', raw.to);
  const from = date('from', raw.from);
  const asOf = asOfGiven ?? today;
  // A malformed asOf says nothing about `to`, nor a malformed `to` about `from`: each is judged
  // only against what was given well (or defaulted).
  const asOfKnown = raw.asOf === undefined || asOfGiven !== undefined;
  const toKnown = raw.to === undefined ? asOfKnown : toGiven !== undefined;
  if (toGiven !== undefined && asOfKnown && toGiven > asOf)
    errors.push({ field: 'to', message: `must not be after asOf (${asOf})` });
  const to = toGiven ?? asOf;
  if (from !== undefined && toKnown && from > to)
    errors.push({ field: 'from', message: `must not be after to (${to})` });

  let payerId: string | undefined;
  if (raw.payerId !== undefined) {
    if (typeof raw.payerId === 'string' && UUID.test(raw.payerId))
      payerId = raw.payerId.toLowerCase();
    else errors.push({ field: 'payerId', message: 'must be a UUID' });
  }

  let format: StatementFormat = 'json';
  if (raw.format !== undefined) {
    if ((STATEMENT_FORMATS as readonly unknown[]).includes(raw.format))
      format = raw.format as StatementFormat;
    else
      errors.push({ field: 'format', message: `must be one of ${STATEMENT_FORMATS.join(', ')}` });
  }
  return { from, to, asOf, payerId, format };
}
