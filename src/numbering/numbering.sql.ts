/**
 * Every statement of numbering, with its parameter builders. Those of issuing a document number
 * are shared by NumberingService and the benchmark's bare floor (bench/floor-server.ts), so both
 * run the same statements by construction.
 */
import { SETTINGS_FIELDS } from './numbering-settings';

/**
 * Takes the next value of a counter, locking its row until commit. next_value is the next
 * number to issue; Starting only ever moves a counter forward. Params: tenant, document type,
 * counter key, starting value. Returns `value`, the number to render.
 */
export const NEXT_COUNTER_VALUE_SQL = `INSERT INTO number_counters (tenant_id, document_type, counter_key, next_value)
         VALUES ($1, $2, $3, $4::bigint + 1)
         ON CONFLICT (tenant_id, document_type, counter_key) DO UPDATE
           SET next_value = GREATEST(number_counters.next_value, $4::bigint) + 1, updated_at = now()
         RETURNING (next_value - 1)::text AS value`;

export const nextCounterValueParams = (p: {
  tenantId: string;
  documentType: string;
  counterKey: string;
  /** The series' Starting, as integer text. */
  starting: string;
}): unknown[] => [p.tenantId, p.documentType, p.counterKey, p.starting];

/** Claims a rendered number; no row back when it is taken. Params: tenant, document type, number. */
export const CLAIM_NUMBER_SQL = `INSERT INTO issued_numbers (tenant_id, document_type, number) VALUES ($1, $2, $3)
         ON CONFLICT DO NOTHING RETURNING number`;

export const claimNumberParams = (p: {
  tenantId: string;
  documentType: string;
  number: string;
}): unknown[] => [p.tenantId, p.documentType, p.number];

/** A counter's next value without taking it (preview); no row for a counter not used yet. */
export const PEEK_COUNTER_SQL = `SELECT next_value::text AS value FROM number_counters
        WHERE tenant_id = $1 AND document_type = $2 AND counter_key = $3`;

export const peekCounterParams = (p: {
  tenantId: string;
  documentType: string;
  counterKey: string;
}): unknown[] => [p.tenantId, p.documentType, p.counterKey];

/** A row of NEXT_COUNTER_VALUE_SQL or PEEK_COUNTER_SQL. */
export interface CounterValueRow {
  value: string;
}

const snakeCase = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * A tenant's numbering settings, read by the numbering service on every number it issues (one
 * indexed row, raw SQL: the hottest read of a receipt write). The tenant configuration feature
 * owns the table; numbering owns what the settings mean. Starting values come back as numbers.
 * Params: tenant.
 */
export const NUMBERING_SETTINGS_SQL = `SELECT ${SETTINGS_FIELDS.map((f) =>
  f.endsWith('Starting') ? `${snakeCase(f)}::float8 AS "${f}"` : `${snakeCase(f)} AS "${f}"`,
).join(', ')} FROM tenant_configurations WHERE tenant_id = $1`;

export const numberingSettingsParams = (p: { tenantId: string }): unknown[] => [p.tenantId];
