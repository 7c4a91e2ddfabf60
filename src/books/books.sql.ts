/**
 * Every statement of the books: the tenant's books settings, and the cursor of business events
 * the vouchers are made from (vouchers.ts), with row types and parameter builders.
 */
import type { BooksLedgers, VoucherSourceRow } from './vouchers';

/** The settings' values as stored; `company` null: the tenant's name. */
export interface BooksSettingsValues {
  company: string | null;
  partyLedger: string;
  partyGroup: string;
  ledgers: BooksLedgers;
}

/** Settings columns are null when the tenant stored none (BOOKS_SETTINGS_SQL's LEFT JOIN). */
export interface BooksSettingsRow {
  version: number;
  company: string | null;
  party_ledger: string | null;
  party_group: string | null;
  ledgers: Partial<BooksLedgers> | null;
  /** The tenant's name (the default company). */
  tenant_name: string;
}

export const tenantParams = (p: { tenantId: string }): unknown[] => [p.tenantId];

/** The tenant's name and its stored settings (null columns: none stored). Params: tenantParams. */
export const BOOKS_SETTINGS_SQL = `SELECT s.version, s.company, s.party_ledger, s.party_group, s.ledgers,
       t.name AS tenant_name
  FROM tenants t
  LEFT JOIN books_settings s ON s.tenant_id = t.id
 WHERE t.id = $1`;

/** A row to lock (version 0, the defaults) before the first PUT. Params: ensureBooksSettingsParams. */
export const ENSURE_BOOKS_SETTINGS_SQL = `INSERT INTO books_settings (tenant_id, version, company, party_ledger, party_group, ledgers, modified_by)
       VALUES ($1, 0, $2, $3, $4, $5::jsonb, $6)
       ON CONFLICT (tenant_id) DO NOTHING`;

const valueParams = (v: BooksSettingsValues): unknown[] => [
  v.company,
  v.partyLedger,
  v.partyGroup,
  JSON.stringify(v.ledgers),
];

export const ensureBooksSettingsParams = (
  p: { tenantId: string; actor: string } & BooksSettingsValues,
): unknown[] => [p.tenantId, ...valueParams(p), p.actor];

/** The settings locked until commit, with the tenant's name. Params: tenantParams. */
export const LOCK_BOOKS_SETTINGS_SQL = `SELECT s.version, s.company, s.party_ledger, s.party_group, s.ledgers,
       t.name AS tenant_name
  FROM books_settings s
  JOIN tenants t ON t.id = s.tenant_id
 WHERE s.tenant_id = $1
   FOR UPDATE OF s`;

/** Stores a new version. Params: replaceBooksSettingsParams. */
export const REPLACE_BOOKS_SETTINGS_SQL = `UPDATE books_settings
   SET version = $2, company = $3, party_ledger = $4, party_group = $5, ledgers = $6::jsonb,
       modified_at = now(), modified_by = $7
 WHERE tenant_id = $1`;

export const replaceBooksSettingsParams = (
  p: { tenantId: string; version: number; actor: string } & BooksSettingsValues,
): unknown[] => [p.tenantId, p.version, ...valueParams(p), p.actor];

// ---------------------------------------------------------------------------------------------
// The business events of a period

/**
 * The demands a booking's cancellation (§14) cancelled, with its date: their DEMAND entries show
 * only when dated on or before it, and they get no DEMAND_CANCELLED entry (the cancellation's
 * own vouchers settle them).
 */
const BY_CANCELLATION = `SELECT (x ->> 'demand')::uuid AS demand_id, c.cancelled_on
           FROM cancellations c, jsonb_array_elements(c.figures -> 'demands') x
          WHERE c.tenant_id = $1`;

/** A receipt's bank account ledger: the account its bank line is in (null: not realised). */
const RECEIPT_BANK = `(SELECT ba.name FROM bank_lines bl
                   JOIN bank_accounts ba ON ba.tenant_id = bl.tenant_id AND ba.id = bl.bank_account_id
                  WHERE bl.tenant_id = r.tenant_id AND bl.id = r.bank_line_id)`;

/**
 * Every event dated in [$2, $3] as one VoucherSourceRow each, in statement order (date; demands,
 * receipts, reversals, demand cancels, a booking's cancellation, refunds; then document number).
 * A cancel or bounce is dated no earlier than what it reverses, as the statement dates it.
 * $1 tenant, $2 from, $3 to, $4 the tenant's zone (a demand's cancel date), $5 its currency
 * (the collection account refunds are paid from). Declared as the `books` cursor.
 */
export const DECLARE_VOUCHERS_CURSOR_SQL = `DECLARE books NO SCROLL CURSOR FOR
WITH by_cancellation AS MATERIALIZED (${BY_CANCELLATION}),
events AS (
  SELECT 'SALE'::text AS kind, d.id, d.demand_date AS date, 0 AS rank,
         coalesce(d.invoice_number, d.demand_number) AS number, d.booking_id,
         d.charge_type, d.total_amount::text AS amount,
         d.tax ->> 'cgst' AS cgst, d.tax ->> 'sgst' AS sgst, NULL::boolean AS time_barred,
         NULL::text AS mode, NULL::text AS bank_ledger, NULL::text AS interest,
         NULL::text AS paid_amount, NULL::text AS status,
         nullif(d.remarks, '') AS particulars, NULL::json AS lines
    FROM demands d
    LEFT JOIN by_cancellation bc ON bc.demand_id = d.id
   WHERE d.tenant_id = $1 AND d.demand_date BETWEEN $2::date AND $3::date
     AND (bc.demand_id IS NULL OR d.demand_date <= bc.cancelled_on)
  UNION ALL
  SELECT 'RECEIPT', r.id, r.received_date, 1, r.receipt_number, r.booking_id,
         NULL, r.amount::text, NULL, NULL, NULL, r.payment_mode, ${RECEIPT_BANK}, NULL, NULL, NULL,
         nullif(r.transaction_ref, ''), NULL
    FROM receipts r
   WHERE r.tenant_id = $1 AND r.received_date BETWEEN $2::date AND $3::date
  UNION ALL
  SELECT 'REVERSAL', r.id, greatest(r.status_changed_on, r.received_date), 2, r.receipt_number,
         r.booking_id, NULL, r.amount::text, NULL, NULL, NULL, r.payment_mode, ${RECEIPT_BANK},
         NULL, NULL, r.status, r.status_reason, NULL
    FROM receipts r
   WHERE r.tenant_id = $1 AND r.status <> 'ACTIVE' AND r.status_changed_on IS NOT NULL
     AND greatest(r.status_changed_on, r.received_date) BETWEEN $2::date AND $3::date
  UNION ALL
  SELECT 'DEMAND_CANCEL', d.id,
         greatest((d.cancelled_at AT TIME ZONE $4::text)::date, d.demand_date), 3,
         coalesce(d.invoice_number, d.demand_number), d.booking_id, d.charge_type,
         d.total_amount::text, d.tax ->> 'cgst', d.tax ->> 'sgst', d.gst_credit_time_barred,
         NULL, NULL, NULL, NULL, NULL, d.cancel_reason, NULL
    FROM demands d
   WHERE d.tenant_id = $1 AND d.status = 'CANCELLED'
     AND (d.tax IS NULL OR d.gst_credit_time_barred)
     AND NOT EXISTS (SELECT 1 FROM by_cancellation bc WHERE bc.demand_id = d.id)
     AND greatest((d.cancelled_at AT TIME ZONE $4::text)::date, d.demand_date)
         BETWEEN $2::date AND $3::date
  UNION ALL
  SELECT 'CREDIT_NOTE', n.id, n.note_date, CASE WHEN n.cancellation_id IS NULL THEN 3 ELSE 4 END,
         n.number, n.booking_id, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
         n.document ->> 'reason',
         (SELECT json_agg(json_build_object(
                   'chargeType', d.charge_type, 'consideration', l.line ->> 'consideration',
                   'cgst', l.line ->> 'cgst', 'sgst', l.line ->> 'sgst') ORDER BY l.ord)
            FROM jsonb_array_elements(n.document -> 'lines') WITH ORDINALITY AS l(line, ord)
                 LEFT JOIN demands d
                   ON d.tenant_id = $1 AND d.booking_id = n.booking_id
                  AND d.invoice_number = l.line ->> 'invoice')
    FROM credit_notes n
   WHERE n.tenant_id = $1 AND n.note_date BETWEEN $2::date AND $3::date
  UNION ALL
  SELECT 'CANCELLATION', c.id, c.cancelled_on, 4, '', c.booking_id, NULL, NULL, NULL, NULL, NULL,
         NULL, NULL, NULL, NULL, NULL, c.reason,
         (SELECT json_agg(json_build_object(
                   'demandNumber', x.item ->> 'demandNumber',
                   'invoiceNumber', x.item -> 'invoice' ->> 'number',
                   'chargeType', x.item ->> 'chargeType', 'dated', d.demand_date <= c.cancelled_on,
                   'consideration', x.item ->> 'consideration',
                   'grossAmount', x.item ->> 'grossAmount', 'paid', x.item ->> 'paid',
                   'paidTax', x.item ->> 'paidTax', 'retained', x.item ->> 'retained',
                   'refund', x.item ->> 'refund', 'creditCgst', x.item -> 'credit' ->> 'cgst',
                   'creditSgst', x.item -> 'credit' ->> 'sgst',
                   'timeBarred', (x.item ->> 'timeBarred')::boolean) ORDER BY x.ord)
            FROM jsonb_array_elements(c.figures -> 'demands') WITH ORDINALITY AS x(item, ord)
                 JOIN demands d ON d.tenant_id = $1 AND d.id = (x.item ->> 'demand')::uuid)
    FROM cancellations c
   WHERE c.tenant_id = $1 AND c.cancelled_on BETWEEN $2::date AND $3::date
  UNION ALL
  SELECT 'REFUND', c.id, c.refund_paid_on, 5, coalesce(c.refund_voucher_number, ''), c.booking_id,
         NULL, c.refund_amount::text, NULL, NULL, NULL, c.refund_payment_mode,
         (SELECT ba.name FROM bank_accounts ba
           WHERE ba.tenant_id = $1 AND ba.collection AND ba.currency = $5),
         c.refund_interest::text, c.refund_paid_amount::text, NULL,
         nullif(c.refund_transaction_ref, ''), NULL
    FROM cancellations c
   WHERE c.tenant_id = $1 AND c.refund_paid_on BETWEEN $2::date AND $3::date)
SELECT e.kind, e.id, e.date::text AS date, e.number, e.booking_id, b.booking_number,
       b.buyer_name, coalesce(nullif(b.unit_name, ''), b.unit_id::text) AS unit, e.charge_type,
       e.amount, e.cgst, e.sgst, e.time_barred, e.mode, e.bank_ledger, e.interest, e.paid_amount,
       e.status, e.particulars, e.lines
  FROM events e
  JOIN bookings b ON b.tenant_id = $1 AND b.id = e.booking_id
 ORDER BY e.date, e.rank, length(e.number), e.number, e.id`;

export const vouchersParams = (p: {
  tenantId: string;
  from: string;
  to: string;
  timezone: string;
  currency: string;
}): unknown[] => [p.tenantId, p.from, p.to, p.timezone, p.currency];

/** The next `rows` events of the `books` cursor. */
export const fetchVouchersSql = (rows: number): string => `FETCH ${rows} FROM books`;

export type VouchersCursorRow = VoucherSourceRow;

/** One snapshot for the whole file; the books never write. */
export const BEGIN_BOOKS_SQL = 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY';
export const COMMIT_SQL = 'COMMIT';
export const ROLLBACK_SQL = 'ROLLBACK';
