/**
 * Totals for a receipt search (POST /receipts/summary): the exact count and sum of every receipt
 * a search with the same filters matches, optionally per group (SUMMARY_GROUPS), in one
 * statement (receipt-summary.sql.ts), kept up to date between requests (summary-cache.ts).
 */
import { validationFailed } from '@/http/errors/validation';
import { SUMMARY_GROUPS, SummaryGroup } from './receipt-summary.sql';

export {
  SUMMARY_GROUPS,
  summaryDependencies,
  summaryStatement,
  type SummaryGroup,
  type SummaryRow,
} from './receipt-summary.sql';

/** `groupBy` from the query string: absent, or exactly one of SUMMARY_GROUPS. */
export function parseGroupBy(raw: unknown): SummaryGroup | undefined {
  if (raw === undefined) return undefined;
  const match = SUMMARY_GROUPS.find((g) => g === raw);
  if (match === undefined) {
    const message = `must be one of ${SUMMARY_GROUPS.join(', ')}`;
    throw validationFailed([{ field: 'groupBy', message }]);
  }
  return match;
}
