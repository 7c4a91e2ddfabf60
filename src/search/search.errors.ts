/**
 * The 400s of a search request (POST /receipts/search, /demands/search, /bookings/search). All
 * problems of one request make one error: its code is the first problem's, its `errors` list every
 * problem with its path, and its detail is the one problem or all of them, in request order.
 */
import { defineProblem, FieldError } from '@/common/app-error';

/** The codes of a search 400, as README.md lists them. */
export const SEARCH_ERROR_CODES = {
  invalidBody: 'SEARCH_INVALID_BODY',
  unknownField: 'SEARCH_UNKNOWN_FIELD',
  unknownOperator: 'SEARCH_UNKNOWN_OPERATOR',
  operatorNotAllowed: 'SEARCH_OPERATOR_NOT_ALLOWED',
  invalidQuery: 'SEARCH_INVALID_QUERY',
  invalidSort: 'SEARCH_INVALID_SORT',
  invalidPaging: 'SEARCH_INVALID_PAGING',
} as const;

export type SearchErrorCode = (typeof SEARCH_ERROR_CODES)[keyof typeof SEARCH_ERROR_CODES];

/** `field: message` for one problem; `The search request has N problems: ...` for several. */
export function searchProblemsDetail(problems: readonly FieldError[]): string {
  return problems.length === 1
    ? `${problems[0].field}: ${problems[0].message}`
    : `The search request has ${problems.length} problems: ` +
        problems.map((p) => `${p.field}: ${p.message}`).join('; ');
}

const searchProblem = (code: SearchErrorCode, example: FieldError) =>
  defineProblem({
    status: 400,
    code,
    detail: (problems: readonly FieldError[]) => searchProblemsDetail(problems),
    example: [[example]],
  });

export const SEARCH_INVALID_BODY = searchProblem(SEARCH_ERROR_CODES.invalidBody, {
  field: 'filters',
  message: 'at most 50 filters are allowed, got 51',
});

export const SEARCH_UNKNOWN_FIELD = searchProblem(SEARCH_ERROR_CODES.unknownField, {
  field: 'filters[0].field',
  message: 'filter 0: unknown field "buyer"; allowed fields: id, amount, receivedDate, keyword',
});

export const SEARCH_UNKNOWN_OPERATOR = searchProblem(SEARCH_ERROR_CODES.unknownOperator, {
  field: 'filters[0].type',
  message:
    'filter 0: unknown operator "approx"; allowed operators for status: EQUALS, NOT_EQUALS, IN, NOT_IN, IS_NULL, IS_NOT_NULL',
});

export const SEARCH_OPERATOR_NOT_ALLOWED = searchProblem(SEARCH_ERROR_CODES.operatorNotAllowed, {
  field: 'filters[0].type',
  message:
    'filter 0: operator GT is not allowed for field status (enum); allowed operators for status: EQUALS, NOT_EQUALS, IN, NOT_IN, IS_NULL, IS_NOT_NULL',
});

export const SEARCH_INVALID_QUERY = searchProblem(SEARCH_ERROR_CODES.invalidQuery, {
  field: 'filters[0].query',
  message:
    'filter 0 (amount EQUALS): "1.234" has 3 decimal places; at most 2 are allowed (expected a plain decimal number with an optional leading "-" and at most 2 decimal places, e.g. 1500 or -1500.50)',
});

export const SEARCH_INVALID_SORT = searchProblem(SEARCH_ERROR_CODES.invalidSort, {
  field: 'sort[0]',
  message:
    'unknown sort field "nope"; allowed sort fields: receivedDate, amount, id; format "field" or "field,asc|desc" (direction asc or desc, default asc), e.g. "receivedDate,desc"',
});

export const SEARCH_INVALID_PAGING = searchProblem(SEARCH_ERROR_CODES.invalidPaging, {
  field: 'size',
  message: 'size "501" is out of range; expected an integer between 1 and 500 (default 20)',
});

/** Every search 400 by its code. */
export const SEARCH_PROBLEMS = {
  [SEARCH_ERROR_CODES.invalidBody]: SEARCH_INVALID_BODY,
  [SEARCH_ERROR_CODES.unknownField]: SEARCH_UNKNOWN_FIELD,
  [SEARCH_ERROR_CODES.unknownOperator]: SEARCH_UNKNOWN_OPERATOR,
  [SEARCH_ERROR_CODES.operatorNotAllowed]: SEARCH_OPERATOR_NOT_ALLOWED,
  [SEARCH_ERROR_CODES.invalidQuery]: SEARCH_INVALID_QUERY,
  [SEARCH_ERROR_CODES.invalidSort]: SEARCH_INVALID_SORT,
  [SEARCH_ERROR_CODES.invalidPaging]: SEARCH_INVALID_PAGING,
} as const;
