import { MoneyFormat, moneyJsonSql } from '@/common/money/money-json.sql';
import { jsonSql, objectSql } from '@/receipts/receipt-json.sql';

/** SQL: a JSON array's text of `element` over `from` in `order`, `[]` when empty. */
const arraySql = (element: string, from: string, order: string): string =>
  `coalesce((SELECT '[' || string_agg(${element}, ',' ORDER BY ${order}) || ']' ${from}), '[]')`;

/**
 * SQL: `JSON.stringify(lineView(row))` (bank.service.ts, over bank.sql.ts LINE_COLUMNS) for a
 * line `l` of an account in the currency of `f`, the same text: keys in the view's order, its
 * matches (by creation, then receipt) and suggestions (as stored, with the receipts' numbers).
 * For events made set-based (bank matching's bank-line.matched); test/bank-matching.e2e-spec.ts
 * compares it with the view.
 */
export function lineJsonSql(f: MoneyFormat): string {
  const number = (expr: string) => `trim_scale(${expr})::text`;
  const match = objectSql([
    ['receipt', jsonSql('m.receipt_id')],
    ['receiptNumber', jsonSql('r.receipt_number')],
    ['amount', moneyJsonSql('m.amount', f)],
    ['rule', jsonSql('m.rule')],
    ['score', number('m.score')],
  ]);
  const strings = (array: string) =>
    arraySql(
      'to_json(x.v)::text',
      `FROM jsonb_array_elements_text(${array}) WITH ORDINALITY x(v, at)`,
      'x.at',
    );
  const receiptNumbers = arraySql(
    'to_json(r.receipt_number)::text',
    `FROM jsonb_array_elements_text(s.suggestion->'receipts') WITH ORDINALITY x(id, at)
       JOIN receipts r ON r.tenant_id = l.tenant_id AND r.id = x.id::uuid`,
    'x.at',
  );
  const suggestion = objectSql([
    ['receipts', strings(`s.suggestion->'receipts'`)],
    ['receiptNumbers', receiptNumbers],
    ['rule', jsonSql(`s.suggestion->>'rule'`)],
    ['score', number(`(s.suggestion->>'score')::numeric`)],
    ['reasons', strings(`s.suggestion->'reasons'`)],
  ]);
  return objectSql([
    ['id', jsonSql('l.id')],
    ['sequence', 'l.sequence::text'],
    ['valueDate', jsonSql('l.value_date::text')],
    ['bookingDate', jsonSql('l.booking_date::text')],
    ['direction', jsonSql('l.direction')],
    ['amount', moneyJsonSql('l.amount', f)],
    ['narration', jsonSql('l.narration')],
    ['reference', jsonSql('l.reference')],
    ['utr', jsonSql('l.utr')],
    ['chequeNumber', jsonSql('l.cheque_number')],
    ['balance', `CASE WHEN l.balance IS NULL THEN 'null' ELSE ${moneyJsonSql('l.balance', f)} END`],
    ['status', jsonSql('l.status')],
    ['possibleDuplicate', 'l.possible_duplicate::text'],
    [
      'matches',
      arraySql(
        match,
        `FROM bank_line_matches m
           JOIN receipts r ON r.tenant_id = m.tenant_id AND r.id = m.receipt_id
          WHERE m.tenant_id = l.tenant_id AND m.bank_line_id = l.id`,
        'm.created_at, m.receipt_id',
      ),
    ],
    [
      'suggestions',
      arraySql(
        suggestion,
        `FROM jsonb_array_elements(l.suggestions) WITH ORDINALITY s(suggestion, at)`,
        's.at',
      ),
    ],
  ]);
}
