import { MoneyFormat } from '@/common/money/money-json.sql';
import { receiptJsonSql } from '@/receipts/receipt-json.sql';
import { RECEIPT_ROW_JOINS } from '@/receipts/receipts.sql';
import { lineJsonSql } from './bank-line-json.sql';

/**
 * The events of a matching run, made in SQL (OutboxService.recordQuery): a `bank-line.matched`
 * for each line matched, by account and sequence, then a `receipt.realised` for each receipt
 * realised, in the order given; the data as each view's JSON text (bank-line-json.sql.ts,
 * receipt-json.sql.ts). Binds $1 tenant, $3 the lines (uuid[]), $4 the receipts (uuid[]).
 */
export function matchEventsSql(f: MoneyFormat): string {
  let sql = made.get(f);
  if (sql === undefined) made.set(f, (sql = build(f)));
  return sql;
}

/** The statement per format (moneyFormat answers one object per locale and currency). */
const made = new Map<MoneyFormat, string>();

const build = (f: MoneyFormat): string => `SELECT row_number() OVER (
         ORDER BY e.part, e.account, e.at) AS ord, e.type, e.data
  FROM (
    SELECT 1 AS part, l.bank_account_id AS account, l.sequence AS at,
           'bank-line.matched'::text AS type, ${lineJsonSql(f)} AS data
      FROM bank_lines l
     WHERE l.tenant_id = $1 AND l.id = ANY($3::uuid[])
    UNION ALL
    SELECT 2, NULL, x.at, 'receipt.realised', ${receiptJsonSql(f)}
      FROM unnest($4::uuid[]) WITH ORDINALITY x(id, at)
      JOIN receipts r ON r.tenant_id = $1 AND r.id = x.id ${RECEIPT_ROW_JOINS}) e`;
