import { FieldError } from '@/common/app-error';
import { localDateFields, isValidLocalDate } from '@/common/dates/local-date';

/** GET /receivables/ageing: how the outstanding is grouped. */
export const AGEING_GROUPS = ['none', 'booking', 'payerType', 'demandType'] as const;
export type AgeingGroupBy = (typeof AGEING_GROUPS)[number];

export const DEFAULT_EDGES = [30, 60, 90] as const;
export const MAX_EDGES = 8;
/** A bucket edge, in days (about 270 years: any real due date fits). */
export const MAX_EDGE = 99999;
export const AGEING_PAGE = { defaultSize: 50, maxSize: 500, maxPage: 1_000_000 } as const;

export interface AgeingQuery {
  asOf: string;
  edges: number[];
  groupBy: AgeingGroupBy;
  page: number;
  size: number;
}

export interface RawAgeingQuery {
  asOf?: unknown;
  buckets?: unknown;
  groupBy?: unknown;
  page?: unknown;
  size?: unknown;
}

/**
 * The query of GET /receivables/ageing with its defaults (asOf: `today`, the tenant's date).
 * Each bad parameter adds an error naming it to `errors`.
 */
export function parseAgeingQuery(
  raw: RawAgeingQuery,
  today: string,
  errors: FieldError[],
): AgeingQuery {
  let asOf = today;
  if (raw.asOf !== undefined) {
    const fields = typeof raw.asOf === 'string' ? localDateFields(raw.asOf) : undefined;
    if (fields && isValidLocalDate(fields)) asOf = raw.asOf as string;
    else errors.push({ field: 'asOf', message: 'must be a real calendar date as YYYY-MM-DD' });
  }

  let edges: number[] = [...DEFAULT_EDGES];
  if (raw.buckets !== undefined) {
    const parsed = parseEdges(raw.buckets);
    if (parsed) edges = parsed;
    else
      errors.push({
        field: 'buckets',
        message: `must be 1 to ${MAX_EDGES} ascending whole numbers of days from 1 to ${MAX_EDGE}, comma-separated (e.g. 30,60,90)`,
      });
  }

  let groupBy: AgeingGroupBy = 'none';
  if (raw.groupBy !== undefined) {
    if ((AGEING_GROUPS as readonly unknown[]).includes(raw.groupBy))
      groupBy = raw.groupBy as AgeingGroupBy;
    else errors.push({ field: 'groupBy', message: `must be one of ${AGEING_GROUPS.join(', ')}` });
  }

  const integer = (name: string, value: unknown, fallback: number, min: number, max: number) => {
    if (value === undefined) return fallback;
    if (typeof value !== 'string' || !/^\d{1,9}$/.test(value) || +value < min || +value > max) {
      errors.push({ field: name, message: `must be an integer from ${min} to ${max}` });
      return fallback;
    }
    return Number(value);
  };
  return {
    asOf,
    edges,
    groupBy,
    page: integer('page', raw.page, 0, 0, AGEING_PAGE.maxPage),
    size: integer('size', raw.size, AGEING_PAGE.defaultSize, 1, AGEING_PAGE.maxSize),
  };
}

function parseEdges(raw: unknown): number[] | undefined {
  if (typeof raw !== 'string' || !/^\d{1,5}(,\d{1,5})*$/.test(raw)) return undefined;
  const edges = raw.split(',').map(Number);
  if (edges.length > MAX_EDGES) return undefined;
  if (edges.some((e, i) => e < 1 || e > MAX_EDGE || (i > 0 && e <= edges[i - 1]))) return undefined;
  return edges;
}

/** The bucket labels: NOT_DUE, 1-e1, (e1+1)-e2, ..., (ek+1)+. Index i = the SQL's bucket i. */
export function bucketLabels(edges: readonly number[]): string[] {
  return [
    'NOT_DUE',
    ...edges.map((e, i) => `${i === 0 ? 1 : edges[i - 1] + 1}-${e}`),
    `${edges[edges.length - 1] + 1}+`,
  ];
}
