import { defineProblem } from '@/common/app-error';

/**
 * A malformed from, to or asOf, from after to, to after asOf, a payerId that is not a UUID or an
 * unknown format: one field error naming each.
 */
export const STATEMENT_QUERY_INVALID = defineProblem({
  status: 400,
  code: 'VALIDATION_FAILED',
  detail: (problems: string) => `The query is not valid: ${problems}.`,
  example: ['to must not be after asOf (2026-11-30)'],
});
