/**
 * The raw statements of the tenant configuration (the configuration and its history are read and
 * written through their entities), with their parameter builders.
 */

/**
 * Moves a counter of one document type forward to a raised Starting, never back. Params:
 * raiseCounterParams.
 */
export const RAISE_COUNTER_SQL = `UPDATE number_counters SET next_value = GREATEST(next_value, $3::bigint), updated_at = now()
          WHERE tenant_id = $1 AND document_type = $2`;

export const raiseCounterParams = (p: {
  tenantId: string;
  documentType: string;
  /** The new Starting, as integer text. */
  starting: string;
}): unknown[] => [p.tenantId, p.documentType, p.starting];

/**
 * The counter of a document type that a Starting would move forward (its next value below it),
 * if any. Params: raiseCounterParams.
 */
export const COUNTER_BELOW_STARTING_SQL = `SELECT counter_key AS "counterKey", next_value::text AS "nextValue" FROM number_counters
          WHERE tenant_id = $1 AND document_type = $2 AND next_value < $3::bigint
          ORDER BY next_value, counter_key LIMIT 1`;

export interface CounterBelowStartingRow {
  counterKey: string;
  nextValue: string;
}
