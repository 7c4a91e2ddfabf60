/**
 * The rows of a receipt export (POST /receipts/export): the columns, in order, and how one
 * database row (ExportRow) becomes one record. Shared by the CSV and the XLSX writers so both
 * carry the same cells.
 */
import { TenantContext } from '@/common/tenant-context';
import type { ExportRow } from './receipt-export.sql';

/**
 * The documented columns, then why a receipt left ACTIVE (statusReason, statusChangedOn,
 * statusChangedBy, which every receipt view carries), appended last so that readers by position
 * of the earlier columns are unaffected; then realisedOn; then the booking's number (a receipt
 * names its booking by id only, which a reader of the file cannot look up).
 */
export const EXPORT_COLUMNS = [
  'receiptNumber',
  'receivedDate',
  'status',
  'amount',
  'currency',
  'paymentMode',
  'transactionRef',
  'payerType',
  'payerId',
  'demandSplitNumber',
  'demandNumber',
  'demandType',
  'dueDate',
  'unit',
  'buyerName',
  'id',
  'demandSplit',
  'demand',
  'booking',
  'created',
  'createdBy',
  'statusReason',
  'statusChangedOn',
  'statusChangedBy',
  'realisedOn',
  'bookingNumber',
] as const;
export type ExportColumn = (typeof EXPORT_COLUMNS)[number];

/** Cells that are dates (YYYY-MM-DD) or an instant (`created`); the rest are text but amount. */
export const DATE_COLUMNS: ReadonlySet<ExportColumn> = new Set([
  'receivedDate',
  'dueDate',
  'statusChangedOn',
  'realisedOn',
]);

export type ExportRecord = Record<ExportColumn, string | null>;

/**
 * Spreadsheet formula injection: a text cell starting with `=`, `+`, `-`, `@`, tab or carriage
 * return would be run as a formula by Excel or LibreOffice; a leading `'` keeps it text.
 */
export function guardFormula(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** One export record; every text cell through guardFormula, amount as `150000.00`. */
export function toExportRecord(row: ExportRow, tenant: TenantContext): ExportRecord {
  const text = (value: string | null) => (value === null ? null : guardFormula(value));
  return {
    receiptNumber: text(row.receipt_number),
    receivedDate: row.received_date,
    status: row.status,
    amount: row.amount,
    currency: tenant.currency,
    paymentMode: row.payment_mode,
    transactionRef: text(row.transaction_ref),
    payerType: row.payer_type,
    payerId: row.s_payer_id,
    demandSplitNumber: text(row.s_number),
    demandNumber: text(row.d_number),
    demandType: row.d_demand_type,
    dueDate: row.d_due_date,
    unit: row.d_unit_id,
    buyerName: text(row.d_buyer_name),
    id: row.id,
    demandSplit: row.demand_split_id,
    demand: row.demand_id,
    booking: row.booking_id,
    created: row.created_at.toISOString(),
    createdBy: text(row.created_by),
    statusReason: text(row.status_reason),
    statusChangedOn: row.status_changed_on,
    statusChangedBy: text(row.status_changed_by),
    realisedOn: row.realised_on,
    bookingNumber: text(row.b_booking_number),
  };
}
