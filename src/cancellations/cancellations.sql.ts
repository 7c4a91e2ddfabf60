/**
 * Every statement of a cancel, with its row types and parameter builders. A cancel targets one
 * demand or one booking (`CancelTarget`); the statements that differ by target are picked here,
 * keyed by it, so no SQL text travels between functions.
 */
import type { TaxInvoiceDocument } from '@/demands/demands.sql';

/** What is cancelled: one demand, or one booking with all its demands. */
export type CancelTarget = 'demand' | 'booking';

/** Parameters of the statements that take only the target: tenant, then the target's id. */
export const targetParams = (p: { tenantId: string; id: string }): unknown[] => [p.tenantId, p.id];

/** Locks the booking to cancel (first in the lock order). */
export const LOCK_BOOKING_SQL = `SELECT status FROM bookings WHERE tenant_id = $1 AND id = $2 FOR UPDATE`;

export interface LockedBookingRow {
  status: string;
}

/**
 * Locks the splits of the target's demands, in id order (second in the lock order). Params:
 * targetParams.
 */
export const LOCK_SPLITS_SQL: Record<CancelTarget, string> = {
  demand: `SELECT s.id FROM demand_splits s
        WHERE s.tenant_id = $1
          AND s.demand_id IN (SELECT d.id FROM demands d WHERE d.tenant_id = $1 AND d.id = $2)
        ORDER BY s.id FOR UPDATE`,
  booking: `SELECT s.id FROM demand_splits s
        WHERE s.tenant_id = $1
          AND s.demand_id IN (SELECT d.id FROM demands d WHERE d.tenant_id = $1 AND d.booking_id = $2)
        ORDER BY s.id FOR UPDATE`,
};

/** Locks the target's demands, in id order (third in the lock order). Params: targetParams. */
export const LOCK_DEMANDS_SQL: Record<CancelTarget, string> = {
  demand: `SELECT d.id, d.status FROM demands d WHERE d.tenant_id = $1 AND d.id = $2
        ORDER BY d.id FOR UPDATE`,
  booking: `SELECT d.id, d.status FROM demands d WHERE d.tenant_id = $1 AND d.booking_id = $2
        ORDER BY d.id FOR UPDATE`,
};

export interface LockedDemandRow {
  id: string;
  status: string;
}

/** One row when the target has an ACTIVE receipt (which refuses the cancel). Params: targetParams. */
export const ACTIVE_RECEIPT_SQL: Record<CancelTarget, string> = {
  demand: `SELECT 1 FROM receipts WHERE tenant_id = $1 AND demand_id = $2 AND status = 'ACTIVE' LIMIT 1`,
  booking: `SELECT 1 FROM receipts WHERE tenant_id = $1 AND booking_id = $2 AND status = 'ACTIVE' LIMIT 1`,
};

const cancelDemandsSql = (where: string) => `WITH d AS (
         UPDATE demands SET status = 'CANCELLED', cancel_reason = $3, cancelled_at = $5::timestamptz,
                cancelled_by = $4, modified_at = now()
          WHERE tenant_id = $1 AND ${where}
         RETURNING id),
       s AS (
         UPDATE demand_splits SET status = 'CANCELLED', modified_at = now()
          WHERE tenant_id = $1 AND demand_id IN (SELECT id FROM d))
       SELECT ARRAY(SELECT id FROM d ORDER BY id) AS ids`;

/**
 * Cancels the target's demands (a booking's: those not cancelled yet) and all their splits, in
 * one statement; returns the ids of the demands it cancelled. Params: cancelParams.
 */
export const CANCEL_DEMANDS_SQL: Record<CancelTarget, string> = {
  demand: cancelDemandsSql('id = $2'),
  booking: cancelDemandsSql(`booking_id = $2 AND status <> 'CANCELLED'`),
};

export interface CancelledDemandsRow {
  ids: string[];
}

export const CANCEL_BOOKING_SQL = `UPDATE bookings SET status = 'CANCELLED', cancel_reason = $3,
              cancelled_at = $5::timestamptz, cancelled_by = $4
        WHERE tenant_id = $1 AND id = $2`;

/** Parameters of CANCEL_DEMANDS_SQL and CANCEL_BOOKING_SQL. */
export const cancelParams = (p: {
  tenantId: string;
  id: string;
  reason: string;
  cancelledBy: string;
  /** The clock's now: its date in the tenant's zone is the cancel's date. */
  at: Date;
}): unknown[] => [p.tenantId, p.id, p.reason, p.cancelledBy, p.at.toISOString()];

/** The tax invoices of some demands, as issued. Params: demandIdsParams. */
export const INVOICES_OF_DEMANDS_SQL = `SELECT demand_id, document FROM tax_invoices
 WHERE tenant_id = $1 AND demand_id = ANY ($2::uuid[])`;

export interface InvoiceOfDemandRow {
  demand_id: string;
  document: TaxInvoiceDocument;
}

export const demandIdsParams = (p: {
  tenantId: string;
  demandIds: readonly string[];
}): unknown[] => [p.tenantId, p.demandIds];

/** A credit note as issued (its document frozen). Params: insertCreditNoteParams. */
export const INSERT_CREDIT_NOTE_SQL = `INSERT INTO credit_notes (tenant_id, booking_id, number, note_date, recipient_gstin, document, created_by,
                          cancellation_id)
       VALUES ($1, $2, $3, $4::date, $5, $6::jsonb, $7, $8)
       RETURNING id`;

export const insertCreditNoteParams = (p: {
  tenantId: string;
  bookingId: string;
  number: string;
  date: string;
  recipientGstin: string | null;
  document: unknown;
  createdBy: string;
  cancellationId: string | null;
}): unknown[] => [
  p.tenantId,
  p.bookingId,
  p.number,
  p.date,
  p.recipientGstin,
  JSON.stringify(p.document),
  p.createdBy,
  p.cancellationId,
];

/** Marks cancelled demands whose tax could not be credited. Params: demandIdsParams. */
export const MARK_TIME_BARRED_SQL = `UPDATE demands SET gst_credit_time_barred = true
 WHERE tenant_id = $1 AND id = ANY ($2::uuid[])`;

/** The booking a demand belongs to. Params: targetParams. */
export const BOOKING_OF_DEMAND_SQL = `SELECT booking_id FROM demands WHERE tenant_id = $1 AND id = $2`;

export interface BookingOfDemandRow {
  booking_id: string;
}
