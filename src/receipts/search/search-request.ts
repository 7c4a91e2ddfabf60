/**
 * POST /receipts/search requests: the shared parser (src/search/search-request.ts) bound
 * to the receipt catalogue.
 */
import {
  parseFilters as parseFiltersOf,
  parseSearchRequest as parseSearchRequestOf,
  parseSort as parseSortOf,
  ParsedFilter,
  ParsedSearchRequest,
  RawSearchQuery,
  SortKey,
} from '@/search/search-request';
import { RECEIPT_SEARCH } from './search-fields';

export { parsePaging, SEARCH_ERROR_CODES, SEARCH_LIMITS } from '@/search/search-request';
export type {
  BetweenFilter,
  ListFilter,
  NullFilter,
  ParsedFilter,
  ParsedSearchRequest,
  RawSearchQuery,
  SearchErrorCode,
  SearchPaging,
  SingleFilter,
  SortKey,
} from '@/search/search-request';
export { DEFAULT_SORT } from './search-fields';

export function parseSearchRequest(
  query: RawSearchQuery | undefined,
  body: unknown,
): ParsedSearchRequest {
  return parseSearchRequestOf(RECEIPT_SEARCH, query, body);
}

export function parseSort(raw: unknown): SortKey[] {
  return parseSortOf(RECEIPT_SEARCH, raw);
}

export function parseFilters(body: unknown): ParsedFilter[] {
  return parseFiltersOf(RECEIPT_SEARCH, body);
}
