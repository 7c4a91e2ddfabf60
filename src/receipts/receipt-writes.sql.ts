/**
 * The SQL of recording, cancelling and bouncing receipts, shared by ReceiptWritesService and the
 * benchmark's bare floor (bench/floor-server.ts), so both run the same statements by
 * construction. Statements are combined where one round trip can do the work of several: every
 * round trip inside a write is time the tenant's number counter row stays locked.
 */
import Decimal from 'decimal.js';
import { DemandStatus, PaymentMode } from '@/common/domain/enums';
import { TenantContext } from '@/common/tenant-context';
import { applyPayment } from './payment-status';
import { RECEIPT_ROW_COLUMNS, RECEIPT_ROW_JOINS } from './receipts.sql';
import { RECEIPT_WRITE_VERSION_SQL, ReceiptWriteChanges } from './search/exact-counts';

/** Binds of RECEIPT_WRITE_VERSION_SQL: the tenant and which statuses the write changed. */
export const receiptWriteVersionParams = (p: {
  tenantId: string;
  changes: ReceiptWriteChanges;
}): unknown[] => [p.tenantId, p.changes.receiptStatus, p.changes.demandStatus];

/** A split and its demand, locked (LOCK_SPLIT_AND_DEMAND_SQL). */
export interface LockedSplitRow {
  id: string;
  demand_id: string;
  payer_type: string;
  payer_id: string;
  /** What the split owes in all: its amount plus its share of the tax (gross_amount). */
  amount: string;
  paid_amount: string;
  status: DemandStatus;
  d_booking_id: string;
  /** What the demand owes in all: totalAmount plus its tax (gross_amount). */
  d_total_amount: string;
  d_received_amount: string;
  d_status: DemandStatus;
  d_demand_date: string;
  /** Whether the demand is taxed (a tax invoice): no receipt may be dated before it. */
  d_taxed: boolean;
}

/**
 * Locks a split and then its demand (the first two places of the lock order: FOR UPDATE locks
 * the rows of one result row in the order of the OF list). Params: lockSplitAndDemandParams.
 */
export const LOCK_SPLIT_AND_DEMAND_SQL = `SELECT s.id, s.demand_id, s.payer_type, s.payer_id, s.gross_amount::text AS amount,
       s.paid_amount::text AS paid_amount, s.status,
       d.booking_id AS d_booking_id, d.gross_amount::text AS d_total_amount,
       d.received_amount::text AS d_received_amount, d.status AS d_status,
       d.demand_date::text AS d_demand_date, d.tax IS NOT NULL AS d_taxed
  FROM demand_splits s
  JOIN demands d ON d.tenant_id = s.tenant_id AND d.id = s.demand_id
 WHERE s.tenant_id = $1 AND s.id = $2
   FOR UPDATE OF s, d`;

export const lockSplitAndDemandParams = (p: { tenantId: string; splitId: string }): unknown[] => [
  p.tenantId,
  p.splitId,
];

/**
 * Sets what a split and its demand have been paid (both already locked). Params: tenant, split
 * id, split paid, split status, demand id, demand received, demand status.
 */
export const UPDATE_SPLIT_AND_DEMAND_SQL = `WITH split AS (
       UPDATE demand_splits SET paid_amount = $3::numeric, status = $4, modified_at = now()
        WHERE tenant_id = $1 AND id = $2 RETURNING 1),
     demand AS (
       UPDATE demands SET received_amount = $6::numeric, status = $7, modified_at = now()
        WHERE tenant_id = $1 AND id = $5 RETURNING 1)
SELECT (SELECT count(*) FROM split)::int + (SELECT count(*) FROM demand)::int AS updated`;

/**
 * Bumps the tenant's search version (RECEIPT_WRITE_VERSION_SQL: last in the lock order, held
 * until commit), inserts the receipt stamped with it, and returns the receipt as a ReceiptRow
 * (joined to its split and demand as this transaction left them). Params: tenant, receipt
 * status changed, demand status changed, split, demand, booking, payer type, number, amount,
 * payment mode, transaction ref, received date, actor.
 */
export const INSERT_RECEIPT_SQL = `WITH version AS (${RECEIPT_WRITE_VERSION_SQL}),
     r AS (
       INSERT INTO receipts (tenant_id, demand_split_id, demand_id, booking_id, payer_type,
                             receipt_number, amount, payment_mode, transaction_ref, received_date,
                             status, created_by, inserted_version)
       SELECT $1::uuid, $4::uuid, $5::uuid, $6::uuid, $7::text, $8::text, $9::numeric, $10::text,
              $11::text, $12::date, 'ACTIVE', $13::text, version.version::bigint
         FROM version
       RETURNING *)
SELECT ${RECEIPT_ROW_COLUMNS} FROM r ${RECEIPT_ROW_JOINS}`;

/** What recording (amount > 0) or cancelling (amount < 0) does to a locked split and demand. */
export interface SplitAndDemandPayment {
  /** Binds of UPDATE_SPLIT_AND_DEMAND_SQL. */
  params: unknown[];
  /** Whether the split's or the demand's status changes (a filter on them must recount). */
  statusChanged: boolean;
}

export function splitAndDemandPayment(
  tenantId: string,
  split: LockedSplitRow,
  amount: Decimal,
): SplitAndDemandPayment {
  const s = applyPayment(
    { total: split.amount, paid: split.paid_amount, status: split.status },
    amount,
  );
  const d = applyPayment(
    { total: split.d_total_amount, paid: split.d_received_amount, status: split.d_status },
    amount,
  );
  return {
    params: [tenantId, split.id, s.paid, s.status, split.demand_id, d.paid, d.status],
    statusChanged: s.status !== split.status || d.status !== split.d_status,
  };
}

/** The receipt's own fields, as the request gives them. */
export interface NewReceipt {
  paymentMode: PaymentMode;
  transactionRef: string;
  receivedDate: string;
}

/** Binds of INSERT_RECEIPT_SQL for a receipt of `amount` on a locked split. */
export function insertReceiptParams(p: {
  tenant: TenantContext;
  split: LockedSplitRow;
  receiptNumber: string;
  amount: Decimal;
  receipt: NewReceipt;
  /** Whether paying the split changed its or its demand's status (the version records it). */
  demandStatusChanged: boolean;
}): unknown[] {
  return [
    ...receiptWriteVersionParams({
      tenantId: p.tenant.tenantId,
      changes: { receiptStatus: false, demandStatus: p.demandStatusChanged },
    }),
    p.split.id,
    p.split.demand_id,
    p.split.d_booking_id,
    p.split.payer_type,
    p.receiptNumber,
    p.amount.toFixed(2),
    p.receipt.paymentMode,
    p.receipt.transactionRef,
    p.receipt.receivedDate,
    p.tenant.actor,
  ];
}

/** What leaving ACTIVE needs to know of a receipt (RECEIPT_REF_SQL, LOCK_RECEIPT_REF_SQL). */
export interface ReceiptRefRow {
  id: string;
  demand_split_id: string;
  booking_id: string;
  amount: string;
  status: string;
  payment_mode: string;
  receipt_number: string;
  received_date: string;
  /** The bank line that realised it (docs/bank.md), or null. */
  bank_line_id: string | null;
}

const RECEIPT_REF_COLUMNS = `id, demand_split_id, booking_id, amount::text AS amount, status,
       payment_mode, receipt_number, received_date::text AS received_date, bank_line_id`;

/** A receipt, unlocked: where to start the lock order. Params: receiptRefParams. */
export const RECEIPT_REF_SQL = `SELECT ${RECEIPT_REF_COLUMNS}
  FROM receipts WHERE tenant_id = $1 AND id = $2`;

/** The same receipt, locked (after its split and demand). Params: receiptRefParams. */
export const LOCK_RECEIPT_REF_SQL = `SELECT ${RECEIPT_REF_COLUMNS}
  FROM receipts WHERE tenant_id = $1 AND id = $2 FOR UPDATE`;

export const receiptRefParams = (p: { tenantId: string; id: string }): unknown[] => [
  p.tenantId,
  p.id,
];

/**
 * Takes the receipt's booking FOR SHARE, as raising a demand on it does (a bounce with charges
 * takes it first, so the two never lock in opposite orders). Params: shareBookingParams.
 */
export const SHARE_BOOKING_SQL =
  'SELECT 1 FROM bookings WHERE tenant_id = $1 AND id = $2 FOR SHARE';

export const shareBookingParams = (p: { tenantId: string; bookingId: string }): unknown[] => [
  p.tenantId,
  p.bookingId,
];

/** Takes a receipt out of ACTIVE (cancelled or bounced). Params: leaveActiveParams. */
export const LEAVE_ACTIVE_SQL = `UPDATE receipts
          SET status = $3, status_reason = $4, status_changed_on = $5::date,
              status_changed_at = now(), status_changed_by = $6, modified_at = now()
        WHERE tenant_id = $1 AND id = $2`;

export const leaveActiveParams = (p: {
  tenantId: string;
  id: string;
  status: 'CANCELLED' | 'BOUNCED';
  reason: string;
  /** The business date of the change (YYYY-MM-DD). */
  on: string;
  actor: string;
}): unknown[] => [p.tenantId, p.id, p.status, p.reason, p.on, p.actor];
