/**
 * Every statement GSTR-1 reads (tax invoices, credit notes, the non-GST demands of EXEMPT
 * bookings, the numbering series' counter keys), with row types and parameter builders. All
 * scoped by tenant, read-only.
 */
import type { CreditNoteDocumentRecord, TaxInvoiceDocument } from '@/demands/demands.sql';

/** The tenant and the period's first and last days (`YYYY-MM-DD`). */
export const periodParams = (p: { tenantId: string; from: string; to: string }): unknown[] => [
  p.tenantId,
  p.from,
  p.to,
];

/** The tax invoices dated in the period, in issue order. Params: periodParams. */
export const PERIOD_INVOICES_SQL = `SELECT number, invoice_date::text AS date, document
  FROM tax_invoices
 WHERE tenant_id = $1 AND invoice_date BETWEEN $2::date AND $3::date
 ORDER BY invoice_date, length(number), number`;

export interface PeriodInvoiceRow {
  number: string;
  date: string;
  document: TaxInvoiceDocument;
}

/** The credit notes dated in the period, in issue order. Params: periodParams. */
export const PERIOD_CREDIT_NOTES_SQL = `SELECT number, note_date::text AS date, document
  FROM credit_notes
 WHERE tenant_id = $1 AND note_date BETWEEN $2::date AND $3::date
 ORDER BY note_date, length(number), number`;

export interface PeriodCreditNoteRow {
  number: string;
  date: string;
  document: CreditNoteDocumentRecord;
}

/**
 * The untaxed construction and interest demands of EXEMPT bookings dated in the period (non-GST
 * supplies: the whole consideration is received after the completion certificate), counted and
 * summed. Untaxed OTHER_CHARGES are a bounce's charges, a penalty and no supply. Params:
 * periodParams.
 */
export const PERIOD_NON_GST_SQL = `SELECT count(*)::int AS count, COALESCE(sum(d.total_amount), 0)::text AS amount
  FROM demands d
  JOIN bookings b ON b.tenant_id = d.tenant_id AND b.id = d.booking_id
 WHERE d.tenant_id = $1 AND d.demand_date BETWEEN $2::date AND $3::date
   AND d.tax IS NULL AND d.charge_type IN ('CONSTRUCTION', 'INTEREST') AND b.gst_exempt`;

export interface PeriodNonGstRow {
  count: number;
  /** Numeric text. */
  amount: string;
}

/** The counter keys (`INV/26-27/{SEQ}`) of the tax-invoice and credit-note series. Params: [tenant]. */
export const SERIES_KEYS_SQL = `SELECT document_type, counter_key
  FROM number_counters
 WHERE tenant_id = $1 AND document_type IN ('tax-invoice', 'credit-note')`;

export const tenantParams = (p: { tenantId: string }): unknown[] => [p.tenantId];

export interface SeriesKeyRow {
  document_type: 'tax-invoice' | 'credit-note';
  counter_key: string;
}
