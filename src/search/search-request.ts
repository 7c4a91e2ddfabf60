/**
 * A search request (POST /receipts/search, /demands/search, /bookings/search): `page`, `size`
 * and `sort` from the query string, and the filter array from the body, parsed and validated
 * against the resource's SearchCatalogue. The result only ever refers to catalogue entries, and
 * every value in it is normalised and validated (search-values.ts), so the SQL compiler can bind
 * it without further checks.
 *
 * All problems of one request are collected and thrown as a single 400 (search.errors.ts). Its
 * code is the code of the first problem, in the order page, size, sort, then filters in body
 * order; `errors` lists every problem with its own path (`page`, `sort[1]`, `filters[2].query`).
 */
import { validationFailed } from '@/http/errors/validation';
import { FieldError } from '@/common/app-error';

import {
  ListOperator,
  NullOperator,
  SEARCH_OPERATORS,
  SearchCatalogue,
  SearchFieldDef,
  SearchOperator,
  SingleOperator,
  SortDirection,
  SortKey,
  allowedOperators,
  normaliseOperator,
} from '@/search/search-catalogue';
import { SEARCH_ERROR_CODES, SEARCH_PROBLEMS, SearchErrorCode } from '@/search/search.errors';
import { VALUE_LIMITS, compareValues, parseValue, show } from '@/search/search-values';

export type { SortKey } from '@/search/search-catalogue';
export { SEARCH_ERROR_CODES } from '@/search/search.errors';
export type { SearchErrorCode } from '@/search/search.errors';

export const SEARCH_LIMITS = Object.freeze({
  defaultPage: 0,
  maxPage: 10_000_000,
  defaultSize: 20,
  minSize: 1,
  maxSize: 500,
  maxFilters: 50,
  maxListValues: 100,
  maxTextLength: VALUE_LIMITS.maxTextLength,
  /** Guard on the raw `query` string before it is split (100 values of 200 chars fit). */
  maxQueryLength: 25_000,
  /** More `sort` parameters than this is rejected outright (there are only 9 sort fields). */
  maxSortParams: 20,
  /** numeric(18,2): the absolute value must stay below 10^16. */
  maxAbsAmountExclusive: VALUE_LIMITS.maxAbsAmountExclusive,
});

// ---------------------------------------------------------------------------------------------
// Parsed types
// ---------------------------------------------------------------------------------------------

interface FilterBase {
  /** Position of the filter in the request body (for messages). */
  readonly index: number;
  readonly field: SearchFieldDef;
}

/** IS_NULL / IS_NOT_NULL: no value. */
export interface NullFilter extends FilterBase {
  readonly operator: NullOperator;
}

/**
 * One value. Normalised per field type: uuid lower case, date `YYYY-MM-DD`, number a plain
 * decimal string (decimal.js `toFixed()`), enum upper case, text/keyword as given.
 */
export interface SingleFilter extends FilterBase {
  readonly operator: SingleOperator;
  readonly value: string;
}

/** Inclusive range, `from <= to`, both normalised as for SingleFilter. */
export interface BetweenFilter extends FilterBase {
  readonly operator: 'BETWEEN';
  readonly from: string;
  readonly to: string;
}

/** 1..100 values, trimmed and normalised as for SingleFilter (duplicates removed). */
export interface ListFilter extends FilterBase {
  readonly operator: ListOperator;
  readonly values: readonly string[];
}

export type ParsedFilter = NullFilter | SingleFilter | BetweenFilter | ListFilter;

export interface SearchPaging {
  /** 0-based page number. */
  readonly page: number;
  readonly size: number;
}

export interface ParsedSearchRequest extends SearchPaging {
  /** Sort keys; always ends with (or contains) the `id` tie-breaker. */
  readonly sort: readonly SortKey[];
  /** AND-ed filters, in body order. */
  readonly filters: readonly ParsedFilter[];
}

/** The query-string part as it arrives (strings, or string arrays when repeated). */
export interface RawSearchQuery {
  readonly page?: unknown;
  readonly size?: unknown;
  readonly sort?: unknown;
}

const TIE_BREAKER: SortKey = Object.freeze({ field: 'id', direction: 'desc' });

// ---------------------------------------------------------------------------------------------
// Problem collection
// ---------------------------------------------------------------------------------------------

interface Problem extends FieldError {
  readonly code: SearchErrorCode;
}

type Problems = Problem[];

function throwIfAny(problems: Problems): void {
  if (problems.length === 0) return;
  const errors = problems.map(({ field, message }) => ({ field, message }));
  throw SEARCH_PROBLEMS[problems[0].code].errorWith({ errors }, errors);
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

// ---------------------------------------------------------------------------------------------
// Paging
// ---------------------------------------------------------------------------------------------

function parseIntegerParam(
  name: 'page' | 'size',
  raw: unknown,
  defaultValue: number,
  min: number,
  max: number,
  problems: Problems,
): number {
  const allowed = `an integer between ${min} and ${max} (default ${defaultValue})`;
  const fail = (message: string): number => {
    problems.push({ code: SEARCH_ERROR_CODES.invalidPaging, field: name, message });
    return defaultValue;
  };
  if (raw === undefined) return defaultValue;
  if (Array.isArray(raw)) {
    return fail(`${name} was given ${raw.length} times; give it once, as ${allowed}`);
  }
  let value: number;
  if (typeof raw === 'number') {
    if (!Number.isInteger(raw)) return fail(`${name} ${show(raw)} is not ${allowed}`);
    value = raw;
  } else if (typeof raw === 'string') {
    if (!/^\d+$/.test(raw)) return fail(`${name} ${show(raw)} is not ${allowed}`);
    value = Number(raw);
  } else {
    return fail(`${name} must be ${allowed}, got ${describeType(raw)}`);
  }
  if (value < min || value > max)
    return fail(`${name} ${show(raw)} is out of range; expected ${allowed}`);
  return value;
}

function collectPaging(query: RawSearchQuery, problems: Problems): SearchPaging {
  const page = parseIntegerParam(
    'page',
    query.page,
    SEARCH_LIMITS.defaultPage,
    0,
    SEARCH_LIMITS.maxPage,
    problems,
  );
  const size = parseIntegerParam(
    'size',
    query.size,
    SEARCH_LIMITS.defaultSize,
    SEARCH_LIMITS.minSize,
    SEARCH_LIMITS.maxSize,
    problems,
  );
  return { page, size };
}

/** Parses `page` (0-based, default 0) and `size` (default 20, 1..500). */
export function parsePaging(query: RawSearchQuery = {}): SearchPaging {
  const problems: Problems = [];
  const paging = collectPaging(query, problems);
  throwIfAny(problems);
  return paging;
}

// ---------------------------------------------------------------------------------------------
// Sort
// ---------------------------------------------------------------------------------------------

function sortAllowed(catalogue: SearchCatalogue): string {
  const example = catalogue.defaultSort[0];
  return (
    `allowed sort fields: ${catalogue.sortFields.join(', ')}; ` +
    `format "field" or "field,asc|desc" (direction asc or desc, default asc), e.g. "${example.field},${example.direction}"`
  );
}

function collectSort(catalogue: SearchCatalogue, raw: unknown, problems: Problems): SortKey[] {
  const defaults = catalogue.defaultSort;
  const allowedSorts = sortAllowed(catalogue);
  if (raw === undefined || raw === null) return [...defaults];
  const items: unknown[] = Array.isArray(raw) ? raw : [raw];
  const fail = (field: string, message: string): void => {
    problems.push({ code: SEARCH_ERROR_CODES.invalidSort, field, message });
  };
  if (items.length === 0) return [...defaults];
  if (items.length > SEARCH_LIMITS.maxSortParams) {
    fail(
      'sort',
      `sort was given ${items.length} times; at most ${SEARCH_LIMITS.maxSortParams} are allowed; ${allowedSorts}`,
    );
    return [...defaults];
  }

  const keys: SortKey[] = [];
  const seen = new Set<string>();
  items.forEach((item, i) => {
    const path = `sort[${i}]`;
    if (typeof item !== 'string') {
      fail(path, `sort must be a string, got ${describeType(item)}; ${allowedSorts}`);
      return;
    }
    const parts = item.split(',').map((p) => p.trim());
    if (parts.length > 2) {
      fail(path, `sort ${show(item)} has ${parts.length} comma-separated parts; ${allowedSorts}`);
      return;
    }
    const [name, dir] = parts;
    const field = catalogue.findSortField(name);
    let direction: SortDirection | undefined = 'asc';
    if (dir !== undefined) {
      const lower = dir.toLowerCase();
      direction = lower === 'asc' || lower === 'desc' ? lower : undefined;
    }
    if (!field) {
      fail(path, `unknown sort field ${show(name)}; ${allowedSorts}`);
    }
    if (!direction) {
      fail(
        path,
        `unknown sort direction ${show(dir)} in ${show(item)}; allowed directions: asc, desc; ${allowedSorts}`,
      );
    }
    if (!field || !direction) return;
    if (seen.has(field)) {
      fail(path, `sort field ${show(field)} is given more than once; ${allowedSorts}`);
      return;
    }
    seen.add(field);
    keys.push({ field, direction });
  });

  if (!seen.has('id')) keys.push(TIE_BREAKER);
  return keys;
}

/**
 * Parses Spring-style `sort` (string or repeated strings, `field[,asc|desc]`). Without `sort`
 * the catalogue's default applies. An `id desc` tie-breaker is appended unless `id` already is
 * a key, so the order is always total.
 */
export function parseSort(catalogue: SearchCatalogue, raw: unknown): SortKey[] {
  const problems: Problems = [];
  const keys = collectSort(catalogue, raw, problems);
  throwIfAny(problems);
  return keys;
}

// ---------------------------------------------------------------------------------------------
// Filters
// ---------------------------------------------------------------------------------------------

const FILTER_KEYS = ['field', 'query', 'type'] as const;
const FILTER_SHAPE =
  'expected an object { "field": string, "type": string, "query": string } ' +
  '("query" may be omitted for IS_NULL / IS_NOT_NULL)';
const OPERATORS_ALLOWED = `allowed operators: ${SEARCH_OPERATORS.join(', ')}`;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseQueryFor(
  def: SearchFieldDef,
  operator: SearchOperator,
  query: string | undefined,
  index: number,
  fail: (message: string) => void,
): ParsedFilter | undefined {
  if (operator === 'IS_NULL' || operator === 'IS_NOT_NULL') {
    return { index, field: def, operator };
  }
  if (query === undefined) {
    fail(`query is required for operator ${operator}; only IS_NULL and IS_NOT_NULL may omit it`);
    return undefined;
  }
  if (query.length > SEARCH_LIMITS.maxQueryLength) {
    fail(
      `query is ${query.length} characters long; at most ${SEARCH_LIMITS.maxQueryLength} are allowed`,
    );
    return undefined;
  }

  if (operator === 'BETWEEN') {
    const parts = query.split(',');
    if (parts.length !== 2) {
      fail(
        `BETWEEN needs exactly two comma-separated values "from,to" (inclusive, from <= to), got ${parts.length}: ${show(query)}`,
      );
      return undefined;
    }
    const from = parseValue(parts[0], def);
    const to = parseValue(parts[1], def);
    if (!from.ok || !to.ok) {
      const messages: string[] = [];
      if (!from.ok) messages.push(`BETWEEN lower bound: ${from.message}`);
      if (!to.ok) messages.push(`BETWEEN upper bound: ${to.message}`);
      fail(messages.join('; '));
      return undefined;
    }
    if (compareValues(from.value, to.value, def) > 0) {
      fail(
        `BETWEEN lower bound ${from.value} is greater than upper bound ${to.value}; expected "from,to" with from <= to (both inclusive)`,
      );
      return undefined;
    }
    return { index, field: def, operator, from: from.value, to: to.value };
  }

  if (operator === 'IN' || operator === 'NOT_IN') {
    const allowed = `${operator} needs 1 to ${SEARCH_LIMITS.maxListValues} comma-separated values`;
    if (query.trim() === '') {
      fail(`${allowed}, got none`);
      return undefined;
    }
    const parts = query.split(',').map((p) => p.trim());
    if (parts.length > SEARCH_LIMITS.maxListValues) {
      fail(`${allowed}, got ${parts.length}`);
      return undefined;
    }
    const values: string[] = [];
    const bad: string[] = [];
    parts.forEach((part, i) => {
      if (part === '') {
        bad.push(`value ${i + 1} of ${parts.length} is empty`);
        return;
      }
      const result = parseValue(part, def);
      if (result.ok) values.push(result.value);
      else bad.push(`value ${i + 1} of ${parts.length}: ${result.message}`);
    });
    if (bad.length > 0) {
      const more = bad.length > 1 ? ` (and ${bad.length - 1} more invalid values)` : '';
      fail(`${bad[0]}${more}; ${allowed}`);
      return undefined;
    }
    return { index, field: def, operator, values: [...new Set(values)] };
  }

  const result = parseValue(query, def);
  if (!result.ok) {
    fail(result.message);
    return undefined;
  }
  return { index, field: def, operator, value: result.value };
}

function collectFilter(
  catalogue: SearchCatalogue,
  item: unknown,
  index: number,
  problems: Problems,
): ParsedFilter | undefined {
  const allowedFields = `allowed fields: ${catalogue.fieldNames.join(', ')}`;
  const base = `filters[${index}]`;
  const push = (code: SearchErrorCode, field: string, message: string): void => {
    problems.push({ code, field, message });
  };
  if (!isPlainObject(item)) {
    push(
      SEARCH_ERROR_CODES.invalidBody,
      base,
      `filter ${index} is ${describeType(item)}; ${FILTER_SHAPE}`,
    );
    return undefined;
  }

  let shapeOk = true;
  for (const key of Object.keys(item)) {
    if (!(FILTER_KEYS as readonly string[]).includes(key)) {
      push(
        SEARCH_ERROR_CODES.invalidBody,
        `${base}.${key}`,
        `filter ${index} has unknown property ${show(key)}; ${FILTER_SHAPE}`,
      );
      shapeOk = false;
    }
  }
  const { field: rawField, type: rawType, query: rawQuery } = item;
  if (typeof rawField !== 'string') {
    push(
      SEARCH_ERROR_CODES.invalidBody,
      `${base}.field`,
      `filter ${index}: field must be a string, got ${describeType(rawField)}; ${allowedFields}`,
    );
    shapeOk = false;
  }
  if (typeof rawType !== 'string') {
    push(
      SEARCH_ERROR_CODES.invalidBody,
      `${base}.type`,
      `filter ${index}: type must be a string, got ${describeType(rawType)}; ${OPERATORS_ALLOWED}`,
    );
    shapeOk = false;
  }
  if (rawQuery !== undefined && rawQuery !== null && typeof rawQuery !== 'string') {
    push(
      SEARCH_ERROR_CODES.invalidBody,
      `${base}.query`,
      `filter ${index}: query must be a string, got ${describeType(rawQuery)}; ` +
        'lists and ranges are comma-separated strings, e.g. "a,b"',
    );
    shapeOk = false;
  }
  if (!shapeOk || typeof rawField !== 'string' || typeof rawType !== 'string') return undefined;
  const query = typeof rawQuery === 'string' ? rawQuery : undefined;

  const def = catalogue.findField(rawField);
  if (!def) {
    push(
      SEARCH_ERROR_CODES.unknownField,
      `${base}.field`,
      `filter ${index}: unknown field ${show(rawField)}; ${allowedFields}`,
    );
  }
  const operator = normaliseOperator(rawType);
  if (!operator) {
    const allowed = def
      ? `allowed operators for ${def.name}: ${allowedOperators(def).join(', ')}`
      : OPERATORS_ALLOWED;
    push(
      SEARCH_ERROR_CODES.unknownOperator,
      `${base}.type`,
      `filter ${index}: unknown operator ${show(rawType)}; ${allowed}`,
    );
  }
  if (!def || !operator) return undefined;

  const allowed = allowedOperators(def);
  if (!allowed.includes(operator)) {
    push(
      SEARCH_ERROR_CODES.operatorNotAllowed,
      `${base}.type`,
      `filter ${index}: operator ${operator} is not allowed for field ${def.name} (${def.type}); ` +
        `allowed operators for ${def.name}: ${allowed.join(', ')}`,
    );
    return undefined;
  }

  return parseQueryFor(def, operator, query, index, (message) =>
    push(
      SEARCH_ERROR_CODES.invalidQuery,
      `${base}.query`,
      `filter ${index} (${def.name} ${operator}): ${message}`,
    ),
  );
}

function collectFilters(
  catalogue: SearchCatalogue,
  body: unknown,
  problems: Problems,
): ParsedFilter[] {
  if (body === undefined || body === null) return [];
  if (!Array.isArray(body)) {
    // The wrong shape of body altogether, not a bad filter: the same answer as any route's.
    throw validationFailed([
      {
        field: 'body',
        message: `body must be a JSON array of filters (or empty), got ${describeType(body)}; each filter is ${FILTER_SHAPE.replace(/^expected /, '')}`,
      },
    ]);
  }
  if (body.length > SEARCH_LIMITS.maxFilters) {
    problems.push({
      code: SEARCH_ERROR_CODES.invalidBody,
      field: 'filters',
      message: `at most ${SEARCH_LIMITS.maxFilters} filters are allowed, got ${body.length}`,
    });
    return [];
  }
  const filters: ParsedFilter[] = [];
  body.forEach((item, index) => {
    const filter = collectFilter(catalogue, item, index, problems);
    if (filter) filters.push(filter);
  });
  return filters;
}

/** Parses the filter array of the body (`undefined`, `null` or `[]` mean no filter). */
export function parseFilters(catalogue: SearchCatalogue, body: unknown): ParsedFilter[] {
  const problems: Problems = [];
  const filters = collectFilters(catalogue, body, problems);
  throwIfAny(problems);
  return filters;
}

// ---------------------------------------------------------------------------------------------
// Whole request
// ---------------------------------------------------------------------------------------------

/**
 * Parses and validates a whole search request. Throws one 400 (search.errors.ts) listing every
 * problem of the request; see the file comment for how its code is chosen.
 */
export function parseSearchRequest(
  catalogue: SearchCatalogue,
  query: RawSearchQuery | undefined,
  body: unknown,
): ParsedSearchRequest {
  const problems: Problems = [];
  const q = query ?? {};
  const paging = collectPaging(q, problems);
  const sort = collectSort(catalogue, q.sort, problems);
  const filters = collectFilters(catalogue, body, problems);
  throwIfAny(problems);
  return { ...paging, sort, filters };
}
