import { defineProblem } from '@/common/app-error';

/** A bad asOf, buckets, groupBy, page or size: one field error naming each. */
export const AGEING_QUERY_INVALID = defineProblem({
  status: 400,
  code: 'VALIDATION_FAILED',
  detail: (problems: string) => `The query is not valid: ${problems}.`,
  example: ['groupBy must be one of none, booking, payerType, demandType'],
});
