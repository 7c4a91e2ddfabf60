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
