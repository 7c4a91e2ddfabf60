import { FieldError } from '@/common/app-error';
import type { MediaFormat } from '@/http/accept-format';

/** GET /gst/gstr1: what the return is served as. */
export const GSTR1_FORMATS = ['json', 'xlsx'] as const;
export type Gstr1Format = (typeof GSTR1_FORMATS)[number];

export const XLSX_MEDIA_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The media type of each format, for a request that says Accept instead of format=. */
export const GSTR1_MEDIA_TYPES: readonly MediaFormat<Gstr1Format>[] = [
  ['application/json', 'json'],
  [XLSX_MEDIA_TYPE, 'xlsx'],
];

export interface Gstr1Query {
  /** `YYYY-MM`. */
  period: string;
  /** The period's first and last days, `YYYY-MM-DD`. */
  from: string;
  to: string;
  format: Gstr1Format;
}

const PERIOD = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** The last day of a month (`2026-02` -> 28). */
function lastDay(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * The query of GET /gst/gstr1, pure. `period` is required, a month `YYYY-MM` (year 2017 on: GST
 * began in July 2017) not after `currentMonth` (the tenant's, `YYYY-MM`); `format` json (default)
 * or xlsx. Each bad parameter adds an error naming it to `errors`.
 */
export function parseGstr1Query(
  raw: { period?: unknown; format?: unknown },
  currentMonth: string,
  errors: FieldError[],
): Gstr1Query {
  let period = '';
  const match = typeof raw.period === 'string' ? PERIOD.exec(raw.period) : null;
  if (raw.period === undefined) {
    errors.push({ field: 'period', message: 'is required: the month of the return, as YYYY-MM' });
  } else if (!match || Number(match[1]) < 2017) {
    errors.push({ field: 'period', message: 'must be a month as YYYY-MM (2017 or later)' });
  } else if (match[0] > currentMonth) {
    errors.push({
      field: 'period',
      message: `must not be after the current month (${currentMonth})`,
    });
  } else {
    period = match[0];
  }

  let format: Gstr1Format = 'json';
  if (raw.format !== undefined) {
    if ((GSTR1_FORMATS as readonly unknown[]).includes(raw.format))
      format = raw.format as Gstr1Format;
    else errors.push({ field: 'format', message: `must be one of ${GSTR1_FORMATS.join(', ')}` });
  }

  if (period === '') return { period, from: '', to: '', format };
  const [year, month] = [Number(period.slice(0, 4)), Number(period.slice(5, 7))];
  return {
    period,
    from: `${period}-01`,
    to: `${period}-${String(lastDay(year, month)).padStart(2, '0')}`,
    format,
  };
}
