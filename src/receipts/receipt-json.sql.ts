import { MoneyFormat, moneyJsonSql } from '@/common/money/money-json.sql';

/** SQL: a value as JSON text, `null` for NULL (to_json escapes as JSON.stringify does). */
export const jsonSql = (expr: string): string => `coalesce(to_json(${expr})::text, 'null')`;

/** SQL: a JSON object's text from [key, JSON text] pairs in order, as JSON.stringify writes it. */
export const objectSql = (fields: [string, string][]): string =>
  `('{' || ${fields.map(([key, value], i) => `'${i === 0 ? '' : ','}${JSON.stringify(key)}:' || ${value}`).join(' || ')} || '}')`;

/**
 * SQL: `JSON.stringify(toReceiptView(row))` (dto/receipt.view.ts) over a receipt `r` joined to its
 * split `s` and demand `d` (receipts.sql.ts RECEIPT_ROW_JOINS), the same text: keys in the view's
 * order, dates as the row's text. For events made set-based (bank matching's receipt.realised);
 * test/bank-matching.e2e-spec.ts compares it with the view.
 */
export function receiptJsonSql(f: MoneyFormat): string {
  const money = (expr: string) => moneyJsonSql(expr, f);
  const splitMeta = objectSql([
    ['id', jsonSql('r.demand_split_id')],
    ['demand', jsonSql('r.demand_id')],
    ['payerType', jsonSql('s.payer_type')],
    ['payerId', jsonSql('s.payer_id')],
    ['demandSplitNumber', jsonSql('s.demand_split_number')],
    ['amount', money('s.amount')],
    ['paidAmount', money('s.paid_amount')],
    ['pendingAmount', money('s.amount + s.tax_amount - s.paid_amount')],
    ['status', jsonSql('s.status')],
  ]);
  const demandMeta = objectSql([
    ['id', jsonSql('r.demand_id')],
    ['booking', jsonSql('d.booking_id')],
    ['unit', jsonSql('d.unit_id')],
    ['milestone', jsonSql('d.milestone_id')],
    ['demandType', jsonSql('d.demand_type')],
    ['demandNumber', jsonSql('d.demand_number')],
    ['totalAmount', money('d.total_amount')],
    ['dueDate', jsonSql('d.due_date::text')],
    ['remarks', jsonSql('d.remarks')],
    ['status', jsonSql('d.status')],
    ['receivedAmount', money('d.received_amount')],
    ['pendingAmount', money('d.total_amount + d.tax_amount - d.received_amount')],
    ['buyerName', jsonSql('d.buyer_name')],
  ]);
  return objectSql([
    ['id', jsonSql('r.id')],
    ['demandSplit', jsonSql('r.demand_split_id')],
    ['demand', jsonSql('r.demand_id')],
    ['booking', jsonSql('r.booking_id')],
    ['payerType', jsonSql('r.payer_type')],
    ['receiptNumber', jsonSql('r.receipt_number')],
    ['amount', money('r.amount')],
    ['paymentMode', jsonSql('r.payment_mode')],
    ['transactionRef', jsonSql('r.transaction_ref')],
    ['receivedDate', jsonSql('r.received_date::text')],
    ['status', jsonSql('r.status')],
    ['statusReason', jsonSql('r.status_reason')],
    ['statusChangedOn', jsonSql('r.status_changed_on::text')],
    ['statusChangedBy', jsonSql('r.status_changed_by')],
    ['realisedOn', jsonSql('r.realised_on::text')],
    ['bankLine', jsonSql('r.bank_line_id')],
    ['refundedOn', jsonSql('r.refunded_on::text')],
    ['demandSplitMeta', splitMeta],
    ['demandMeta', demandMeta],
  ]);
}
