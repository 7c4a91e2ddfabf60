/**
 * Matching statement lines to receipts (docs/bank.md "Matching"), set-based: one
 * statement locks the receipts a set of lines may match by reference, one more decides every
 * line of the set at once (rules REFERENCE, GROUP, AMOUNT_DATE), writes the matches, realises the
 * receipts, rewrites the lines' statuses and suggestions and their history. Then the manual
 * operations (match, unmatch, ignore) and what the line views read of matches and history.
 *
 * Which lines a run takes is a fragment over `bank_lines l` with the run's own `$3`
 * (MATCH_SCOPES): an import's new lines (no other transaction sees them yet), or lines the caller
 * locked first (a rematch; the open lines a new receipt could pay), so that a concurrent manual
 * match or ignore is never overwritten.
 */

import { BOUNCEABLE_MODES, NEVER_IN_BANK, sqlModes } from '@/common/domain/payment-modes';
import Decimal from 'decimal.js';

/**
 * The receipts that may be matched: ACTIVE, not realised, of a mode that reaches the bank.
 * `bank_line_id IS NULL` is read on the row, in no index (key or predicate): realising stays a
 * HOT update (migration RealisationHotUpdate).
 */
const OPEN_RECEIPT = `r.status = 'ACTIVE' AND r.bank_line_id IS NULL
     AND r.payment_mode NOT IN (${sqlModes(NEVER_IN_BANK)}) AND ($5::uuid[] IS NULL OR r.id = ANY($5::uuid[]))`;

/** A pair once unmatched by hand is never matched automatically again. */
const NOT_REJECTED = (line: string, receipt: string) => `NOT EXISTS (
       SELECT 1 FROM bank_line_history h
        WHERE h.tenant_id = $1 AND h.bank_line_id = ${line} AND h.action = 'UNMATCHED'
          AND ${receipt} = ANY(h.receipts))`;

export const MATCH_SCOPES = {
  /** An import's new lines. $3: the statement id. */
  statement: `l.statement_id = $3::uuid`,
  /** An account's open lines (rematch). $3: the account id. */
  account: `l.bank_account_id = $3::uuid`,
  /** Lines the caller has locked (a rematch, a new receipt's check). $3: uuid[]. */
  lines: `l.id = ANY($3::uuid[])`,
} as const;
export type MatchScope = keyof typeof MATCH_SCOPES;

/**
 * The lines of a run and the keys each can be matched by: its UTR, cheque number and bank
 * reference, compared as bank_reference_key() compares a receipt's transactionRef. Binds: $1
 * tenant, $2 the tenant's currency (only accounts in it are matched), $3 the scope's value, $4
 * the line statuses taken (text[]).
 */
const SCOPE_AND_KEYS = (scope: MatchScope) => `scope AS (
  SELECT l.id, l.amount, l.amount_paise, l.value_date, l.narration
    FROM bank_lines l
    JOIN bank_accounts a ON a.tenant_id = l.tenant_id AND a.id = l.bank_account_id
   WHERE l.tenant_id = $1 AND l.direction = 'CREDIT' AND l.status = ANY($4::text[])
     AND a.currency = $2 AND ${MATCH_SCOPES[scope]}
), keys AS (
  SELECT DISTINCT l.id AS line_id, s.amount AS line_amount, s.value_date, k.key
    FROM scope s
    JOIN bank_lines l ON l.tenant_id = $1 AND l.id = s.id
   CROSS JOIN LATERAL unnest(ARRAY[ltrim(l.utr, '0'), ltrim(l.cheque_number, '0'),
                                   l.reference_key]) AS k(key)
   WHERE k.key <> ''
)`;

/**
 * Locks, in id order, the open receipts the run's lines could match by reference (rules 1 and
 * 2), so two runs at once (imports into two accounts, a receipt recorded during an import) never
 * match one receipt twice: the second waits, and re-reading the row after the first commits
 * (READ COMMITTED re-checks a locked row) drops a receipt the first realised. The deciding
 * statement that follows reads a new snapshot. The candidates are found once, from the lines'
 * keys through receipts_bank_ref_idx (MATERIALIZED: never re-run per receipt). Binds: as
 * matchSql ($1-$5).
 */
export const matchLockSql = (scope: MatchScope): string => `WITH ${SCOPE_AND_KEYS(scope)},
candidates AS MATERIALIZED (
  SELECT DISTINCT r.id
    FROM keys k
    JOIN receipts r ON r.tenant_id = $1 AND bank_reference_key(r.transaction_ref) = k.key
   WHERE r.transaction_ref <> '' AND ${OPEN_RECEIPT}
)
SELECT r.id FROM candidates c
  JOIN receipts r ON r.tenant_id = $1 AND r.id = c.id
 WHERE ${OPEN_RECEIPT}
 ORDER BY r.id
   FOR NO KEY UPDATE OF r`;

/**
 * Decides every line of the run at once and writes the outcome.
 *
 * 1. REFERENCE: a receipt whose reference key equals one of the line's keys, amount equal, value
 *    date from 3 days before to 30 days after receivedDate.
 * 2. GROUP: two or more receipts sharing one reference key that matches the line, each dated as
 *    in 1, whose amounts add up to the line.
 *    A line with exactly one candidate (1 or 2) whose receipts are candidates of no other line
 *    of the run is MATCHED (score 1); otherwise all its candidates are suggested (ties are never
 *    matched automatically).
 * 3. AMOUNT_DATE ($6): for lines without a reference candidate, the receipts of equal amount
 *    dated 0-3 days before the value date (0-10 for cheques and drafts), up to 5 per line, each
 *    scored by closeness and whether the payer's name is in the narration (pg_trgm
 *    word_similarity >= 0.6).
 *
 * Binds: $1 tenant, $2 currency, $3 scope value, $4 line statuses, $5 receipt ids or null (only
 * these receipts), $6 whether to suggest by AMOUNT_DATE, $7 actor. Answers one row of counts.
 */
export const matchSql = (scope: MatchScope): string => `WITH ${SCOPE_AND_KEYS(scope)},
ref_pairs AS (
  SELECT k.line_id, k.line_amount, k.value_date, k.key, r.id AS receipt_id, r.amount,
         r.received_date
    FROM keys k
    JOIN receipts r ON r.tenant_id = $1 AND bank_reference_key(r.transaction_ref) = k.key
   WHERE r.transaction_ref <> '' AND ${OPEN_RECEIPT}
     AND ${NOT_REJECTED('k.line_id', 'r.id')}
), ref_candidates AS (
  SELECT p.line_id, p.value_date, ARRAY[p.receipt_id] AS receipts, 'REFERENCE'::text AS rule
    FROM ref_pairs p
   WHERE p.amount = p.line_amount
     AND p.value_date BETWEEN p.received_date - 3 AND p.received_date + 30
  UNION ALL
  SELECT p.line_id, p.value_date, array_agg(p.receipt_id ORDER BY p.receipt_id), 'GROUP'
    FROM ref_pairs p
   GROUP BY p.line_id, p.value_date, p.key, p.line_amount
  HAVING count(*) >= 2 AND sum(p.amount) = p.line_amount
     AND bool_and(p.value_date BETWEEN p.received_date - 3 AND p.received_date + 30)
), line_counts AS (
  SELECT line_id, count(*) AS n FROM ref_candidates GROUP BY line_id
), ambiguous AS (
  -- Receipts that are candidates of two or more lines: none of those lines is matched.
  SELECT coalesce(array_agg(receipt_id), '{}') AS ids FROM (
    SELECT u.receipt_id
      FROM ref_candidates c CROSS JOIN LATERAL unnest(c.receipts) AS u(receipt_id)
     GROUP BY u.receipt_id HAVING count(DISTINCT c.line_id) > 1) x
), decided AS (
  SELECT c.line_id, c.value_date, c.receipts, c.rule,
         lc.n = 1 AND NOT (c.receipts && (SELECT ids FROM ambiguous)) AS auto
    FROM ref_candidates c JOIN line_counts lc ON lc.line_id = c.line_id
), matched AS (
  SELECT line_id, receipts, rule FROM decided WHERE auto
), matched_receipts AS (
  SELECT d.line_id, u.receipt_id, d.rule, d.value_date
    FROM decided d CROSS JOIN LATERAL unnest(d.receipts) AS u(receipt_id)
   WHERE d.auto
), undecided AS (
  -- NOT IN (subquery): a hashed lookup, whatever the (unknown) size of a fresh import.
  SELECT s.* FROM scope s WHERE $6::boolean AND s.id NOT IN (SELECT line_id FROM decided)
), amount_date AS (
  SELECT s.id AS line_id, r.id AS receipt_id, r.receipt_number,
         s.value_date - r.received_date AS days,
         CASE WHEN r.payment_mode IN (${sqlModes(BOUNCEABLE_MODES)}) THEN 10 ELSE 3 END AS max_days,
         r.demand_id, s.narration
    FROM undecided s
    -- In paise (bigint =, leakproof): under RLS only that reaches receipts_active_amount_idx.
    JOIN receipts r ON r.tenant_id = $1 AND amount_paise(r.amount) = s.amount_paise
     AND r.received_date BETWEEN s.value_date - 10 AND s.value_date
   WHERE ${OPEN_RECEIPT}
     AND r.id NOT IN (SELECT receipt_id FROM matched_receipts)
     AND ${NOT_REJECTED('s.id', 'r.id')}
), amount_date_named AS (
  SELECT a.line_id, a.receipt_id, a.receipt_number, a.days, a.max_days,
         word_similarity(d.buyer_name, a.narration) >= 0.6 AS named
    FROM amount_date a
    JOIN demands d ON d.tenant_id = $1 AND d.id = a.demand_id
   WHERE a.days <= a.max_days
), amount_date_scored AS (
  SELECT a.*, round(0.5 + 0.25 * (1 - a.days::numeric / a.max_days)
                        + CASE WHEN a.named THEN 0.2 ELSE 0 END, 2) AS score
    FROM amount_date_named a
), amount_date_ranked AS (
  SELECT a.*, row_number() OVER (PARTITION BY a.line_id
                                 ORDER BY a.score DESC, a.days, a.receipt_number) AS rank
    FROM amount_date_scored a
), suggested AS (
  SELECT d.line_id, d.receipts, d.rule,
         CASE d.rule WHEN 'REFERENCE' THEN 0.9 ELSE 0.85 END AS score,
         ARRAY['reference equal',
               CASE d.rule WHEN 'GROUP' THEN 'amounts add up' ELSE 'amount equal' END,
               'another line or receipt qualifies equally'] AS reasons,
         '' AS sort_key
    FROM decided d WHERE NOT d.auto
  UNION ALL
  SELECT a.line_id, ARRAY[a.receipt_id], 'AMOUNT_DATE', a.score,
         array_remove(ARRAY['amount equal',
               CASE a.days WHEN 0 THEN 'same day as receipt' WHEN 1 THEN '1 day after receipt'
                           ELSE a.days || ' days after receipt' END,
               CASE WHEN a.named THEN 'payer name in narration' END], NULL),
         a.receipt_number
    FROM amount_date_ranked a WHERE a.rank <= 5
), line_suggestions AS (
  SELECT line_id,
         jsonb_agg(jsonb_build_object('receipts', receipts, 'rule', rule, 'score', score,
                                      'reasons', reasons)
                   ORDER BY score DESC, sort_key, receipts[1]) AS suggestions
    FROM suggested GROUP BY line_id
), new_matches AS (
  INSERT INTO bank_line_matches (tenant_id, bank_line_id, receipt_id, kind, amount, rule, score)
  SELECT $1, mr.line_id, mr.receipt_id, 'CREDIT', r.amount, mr.rule, 1
    FROM matched_receipts mr JOIN receipts r ON r.tenant_id = $1 AND r.id = mr.receipt_id
  RETURNING receipt_id
), realised AS (
  UPDATE receipts r SET realised_on = mr.value_date, bank_line_id = mr.line_id
    FROM matched_receipts mr
   WHERE r.tenant_id = $1 AND r.id = mr.receipt_id
  RETURNING r.id
), history AS (
  INSERT INTO bank_line_history (tenant_id, bank_line_id, actor, action, rule, receipts)
  SELECT $1, line_id, $7, 'MATCHED', rule, receipts FROM matched
  RETURNING 1
), outcome AS (
  -- Each line of the run once, with what it becomes. Built by UNION and hashed NOT IN rather
  -- than by joining the run's lines to matched and line_suggestions: a fresh import's lines have
  -- no statistics, and the planner, expecting one line, would re-run the suggestions' aggregate
  -- for every line (seconds for a few thousand lines).
  SELECT m.line_id, 'MATCHED'::text AS status, m.rule, '[]'::jsonb AS suggestions FROM matched m
  UNION ALL
  SELECT ls.line_id, 'SUGGESTED', NULL, ls.suggestions FROM line_suggestions ls
   WHERE ls.line_id NOT IN (SELECT line_id FROM matched)
  UNION ALL
  SELECT s.id, 'UNMATCHED', NULL, '[]'::jsonb FROM scope s
   WHERE s.id NOT IN (SELECT line_id FROM matched)
     AND s.id NOT IN (SELECT line_id FROM line_suggestions)
), updated AS (
  UPDATE bank_lines l SET
         status = o.status,
         match_rule = o.rule,
         suggestions = o.suggestions,
         status_changed_at = CASE WHEN o.status = 'MATCHED' THEN now() ELSE l.status_changed_at END
    FROM outcome o
   WHERE l.tenant_id = $1 AND l.id = o.line_id
  RETURNING l.id, l.status
)
SELECT count(*) FILTER (WHERE u.status = 'MATCHED')::int AS auto,
       count(*) FILTER (WHERE u.status = 'SUGGESTED')::int AS suggested,
       count(*) FILTER (WHERE u.status = 'UNMATCHED')::int AS unmatched,
       coalesce(array_agg(u.id) FILTER (WHERE u.status = 'MATCHED'), '{}') AS matched_lines,
       (SELECT coalesce(array_agg(id), '{}') FROM realised) AS realised_receipts,
       (SELECT count(*) FROM new_matches)::int AS match_rows,
       (SELECT count(*) FROM history)::int AS history_rows
  FROM updated u`;

export interface MatchOutcomeRow {
  auto: number;
  suggested: number;
  unmatched: number;
  matched_lines: string[];
  realised_receipts: string[];
  match_rows: number;
  history_rows: number;
}

export const matchParams = (p: {
  tenantId: string;
  currency: string;
  scopeValue: string | string[];
  statuses: readonly string[];
  receipts: string[] | null;
  amountDate: boolean;
  actor: string;
}): unknown[] => [
  p.tenantId,
  p.currency,
  p.scopeValue,
  p.statuses,
  p.receipts,
  p.amountDate,
  p.actor,
];

/**
 * Locks an account's open lines (UNMATCHED, SUGGESTED) for a rematch, in id order, re-read after
 * any wait. Only accounts in the tenant's currency. Params: $1 tenant, $2 account, $3 currency.
 */
export const LOCK_ACCOUNT_OPEN_LINES_SQL = `SELECT l.id, l.direction FROM bank_lines l
  JOIN bank_accounts a ON a.tenant_id = l.tenant_id AND a.id = l.bank_account_id
 WHERE l.tenant_id = $1 AND l.bank_account_id = $2 AND a.currency = $3
   AND l.status IN ('UNMATCHED', 'SUGGESTED')
 ORDER BY l.id
   FOR NO KEY UPDATE OF l`;

export interface OpenLineRow {
  id: string;
  direction: 'CREDIT' | 'DEBIT';
}

/**
 * A debit that returns a cheque: a reversal in the format (MT940 RC/RD, camt RvslInd) or a
 * narration naming a return.
 */
const RETURN_MARKER = `(l.reversal OR l.narration ~* '(RETURN|RTN|\\mRET\\M|BOUNCE|DISHONOU?R|UNPAID|REVERS)')`;

/**
 * Rule RETURN: the run's DEBIT lines that return a cheque (RETURN_MARKER, a cheque number read)
 * are SUGGESTED with each realised, ACTIVE cheque or draft receipt of that number and amount not
 * yet matched to a return; never matched automatically (POST /receipts/{id}/bounce with
 * `bankLine`, or a manual match, does). The other lines of the run stay as they are.
 * Binds: $1 tenant, $2 currency, $3 scope value. Answers how many lines are suggested.
 */
export const returnSql = (scope: MatchScope): string => `WITH scope AS (
  SELECT l.id, l.amount, l.value_date, ltrim(l.cheque_number, '0') AS cheque
    FROM bank_lines l
    JOIN bank_accounts a ON a.tenant_id = l.tenant_id AND a.id = l.bank_account_id
   WHERE l.tenant_id = $1 AND a.currency = $2 AND ${MATCH_SCOPES[scope]}
     AND l.direction = 'DEBIT' AND l.status IN ('UNMATCHED', 'SUGGESTED')
     AND l.cheque_number IS NOT NULL AND ${RETURN_MARKER}
), candidates AS (
  SELECT s.id AS line_id, r.id AS receipt_id, r.receipt_number
    FROM scope s
    JOIN receipts r ON r.tenant_id = $1 AND r.amount = s.amount
   WHERE r.bank_line_id IS NOT NULL AND r.status = 'ACTIVE'
     AND r.payment_mode IN (${sqlModes(BOUNCEABLE_MODES)}) AND r.realised_on <= s.value_date
     AND bank_reference_key(r.transaction_ref) = s.cheque
     AND NOT EXISTS (SELECT 1 FROM bank_line_matches m
                      WHERE m.tenant_id = $1 AND m.receipt_id = r.id AND m.kind = 'RETURN')
     AND ${NOT_REJECTED('s.id', 'r.id')}
), suggestions AS (
  SELECT line_id,
         jsonb_agg(jsonb_build_object('receipts', jsonb_build_array(receipt_id), 'rule', 'RETURN',
                                      'score', 0.9, 'reasons',
                                      jsonb_build_array('cheque number equal', 'amount equal',
                                                        'cheque returned'))
                   ORDER BY receipt_number) AS suggestions
    FROM candidates GROUP BY line_id
), updated AS (
  UPDATE bank_lines l SET
         status = CASE WHEN sg.line_id IS NULL THEN 'UNMATCHED' ELSE 'SUGGESTED' END,
         suggestions = coalesce(sg.suggestions, '[]'::jsonb)
    FROM scope s LEFT JOIN suggestions sg ON sg.line_id = s.id
   WHERE l.tenant_id = $1 AND l.id = s.id
  RETURNING l.status
)
SELECT count(*) FILTER (WHERE status = 'SUGGESTED')::int AS suggested FROM updated`;

export const returnParams = (p: {
  tenantId: string;
  currency: string;
  scopeValue: string | string[];
}): unknown[] => [p.tenantId, p.currency, p.scopeValue];

export const accountOpenLinesParams = (p: {
  tenantId: string;
  accountId: string;
  currency: string;
}): unknown[] => [p.tenantId, p.accountId, p.currency];

/**
 * The tenant's UNMATCHED credit lines of some amounts (what new receipts could pay), locked; a
 * line another transaction holds (a rematch, a manual match) is skipped rather than waited for,
 * so recording a receipt never queues behind bank work (bank_lines_open_idx). Params: $1 tenant,
 * $2 amounts (bound in paise: amount_paise, not amount, can use the index under RLS), $3 currency.
 */
export const LOCK_OPEN_LINES_OF_AMOUNTS_SQL = `SELECT l.id FROM bank_lines l
  JOIN bank_accounts a ON a.tenant_id = l.tenant_id AND a.id = l.bank_account_id
 WHERE l.tenant_id = $1 AND l.status = 'UNMATCHED' AND l.direction = 'CREDIT'
   AND l.amount_paise = ANY($2::bigint[]) AND a.currency = $3
 ORDER BY l.id
   FOR NO KEY UPDATE OF l SKIP LOCKED`;

/** Decimal text with at most two places -> paise (bank_lines.amount_paise). */
const paiseOf = (amount: string): string => new Decimal(amount).times(100).toFixed(0);

export const openLinesOfAmountsParams = (p: {
  tenantId: string;
  amounts: string[];
  currency: string;
}): unknown[] => [p.tenantId, p.amounts.map(paiseOf), p.currency];

// ---------------------------------------------------------------------------------------------
// Manual match, unmatch, ignore.

/** A line, locked, with what matching it needs to know. Params: lineLockParams. */
export const LOCK_LINE_SQL = `SELECT l.id, l.direction, l.status, l.amount::text AS amount,
       l.value_date::text AS value_date, a.currency
  FROM bank_lines l
  JOIN bank_accounts a ON a.tenant_id = l.tenant_id AND a.id = l.bank_account_id
 WHERE l.tenant_id = $1 AND l.id = $2
   FOR NO KEY UPDATE OF l`;

export interface LockedLineRow {
  id: string;
  direction: 'CREDIT' | 'DEBIT';
  status: 'UNMATCHED' | 'SUGGESTED' | 'MATCHED' | 'IGNORED';
  amount: string;
  value_date: string;
  currency: string;
}

export const lineLockParams = (p: { tenantId: string; lineId: string }): unknown[] => [
  p.tenantId,
  p.lineId,
];

/** Receipts, locked in id order (the order matching locks them in). Params: receiptsLockParams. */
export const LOCK_RECEIPTS_SQL = `SELECT r.id, r.status, r.payment_mode, r.amount::text AS amount,
       r.bank_line_id,
       (SELECT m.bank_line_id FROM bank_line_matches m
         WHERE m.tenant_id = r.tenant_id AND m.receipt_id = r.id AND m.kind = 'RETURN') AS returned_by
  FROM receipts r WHERE r.tenant_id = $1 AND r.id = ANY($2::uuid[])
 ORDER BY r.id
   FOR NO KEY UPDATE OF r`;

export interface LockedReceiptRow {
  id: string;
  status: string;
  payment_mode: string;
  amount: string;
  bank_line_id: string | null;
  /** The RETURN debit line matched to it, if any. */
  returned_by: string | null;
}

/** A receipt as a bounce's return line checks it (not locked: the bounce locks it next). */
export const RECEIPT_FOR_RETURN_SQL = `SELECT r.amount::text AS amount,
       (SELECT m.bank_line_id FROM bank_line_matches m
         WHERE m.tenant_id = r.tenant_id AND m.receipt_id = r.id AND m.kind = 'RETURN') AS returned_by
  FROM receipts r WHERE r.tenant_id = $1 AND r.id = $2`;

export interface ReceiptForReturnRow {
  amount: string;
  returned_by: string | null;
}

export const receiptsLockParams = (p: { tenantId: string; ids: string[] }): unknown[] => [
  p.tenantId,
  p.ids,
];

/**
 * Matches a line to receipts by hand (rule MANUAL), realises them (kind CREDIT) and records it.
 * Params: manualMatchParams.
 */
export const MANUAL_MATCH_SQL = `WITH chosen AS (
  SELECT r.id, r.amount FROM receipts r WHERE r.tenant_id = $1 AND r.id = ANY($3::uuid[])
), new_matches AS (
  INSERT INTO bank_line_matches (tenant_id, bank_line_id, receipt_id, kind, amount, rule, score)
  SELECT $1, $2, c.id, $6, c.amount, $7, 1 FROM chosen c
  RETURNING 1
), realised AS (
  UPDATE receipts r SET realised_on = $4::date, bank_line_id = $2
   WHERE r.tenant_id = $1 AND r.id = ANY($3::uuid[]) AND $6 = 'CREDIT'
  RETURNING 1
), history AS (
  INSERT INTO bank_line_history (tenant_id, bank_line_id, actor, action, rule, receipts)
  VALUES ($1, $2, $5, 'MATCHED', $7, $3::uuid[])
  RETURNING 1
), line AS (
  UPDATE bank_lines SET status = 'MATCHED', match_rule = $7, suggestions = '[]'::jsonb,
         status_changed_at = now()
   WHERE tenant_id = $1 AND id = $2
  RETURNING 1
)
SELECT (SELECT count(*) FROM new_matches)::int AS matches,
       (SELECT count(*) FROM realised)::int AS realised,
       (SELECT count(*) FROM history)::int AS history,
       (SELECT count(*) FROM line)::int AS line`;

export const manualMatchParams = (p: {
  tenantId: string;
  lineId: string;
  receipts: string[];
  valueDate: string;
  actor: string;
  kind: 'CREDIT' | 'RETURN';
  rule: 'MANUAL' | 'RETURN';
}): unknown[] => [p.tenantId, p.lineId, p.receipts, p.valueDate, p.actor, p.kind, p.rule];

/**
 * Unmatches a line: its matches go, its receipts are no longer realised, and the history keeps
 * the pairs (never matched automatically again). Answers the receipts unrealised.
 * Params: unmatchParams.
 */
export const UNMATCH_SQL = `WITH gone AS (
  DELETE FROM bank_line_matches WHERE tenant_id = $1 AND bank_line_id = $2
  RETURNING receipt_id, kind, rule
), unrealised AS (
  UPDATE receipts r SET realised_on = NULL, bank_line_id = NULL
    FROM gone g
   WHERE r.tenant_id = $1 AND r.id = g.receipt_id AND g.kind = 'CREDIT' AND r.bank_line_id = $2
  RETURNING r.id
), history AS (
  INSERT INTO bank_line_history (tenant_id, bank_line_id, actor, action, rule, reason, receipts)
  SELECT $1, $2, $3, 'UNMATCHED', (SELECT min(rule) FROM gone), $4,
         coalesce((SELECT array_agg(receipt_id ORDER BY receipt_id) FROM gone), '{}')
  RETURNING 1
), line AS (
  UPDATE bank_lines SET status = 'UNMATCHED', match_rule = NULL, suggestions = '[]'::jsonb,
         status_changed_at = now()
   WHERE tenant_id = $1 AND id = $2
  RETURNING 1
)
SELECT coalesce((SELECT array_agg(id) FROM unrealised), '{}') AS unrealised,
       (SELECT count(*) FROM history)::int AS history,
       (SELECT count(*) FROM line)::int AS line`;

export interface UnmatchRow {
  unrealised: string[];
}

export const unmatchParams = (p: {
  tenantId: string;
  lineId: string;
  actor: string;
  reason: string;
}): unknown[] => [p.tenantId, p.lineId, p.actor, p.reason];

/** Sets a line aside (bank interest, charges) and records why. Params: unmatchParams. */
export const IGNORE_SQL = `WITH history AS (
  INSERT INTO bank_line_history (tenant_id, bank_line_id, actor, action, reason)
  VALUES ($1, $2, $3, 'IGNORED', $4)
  RETURNING 1
), line AS (
  UPDATE bank_lines SET status = 'IGNORED', match_rule = NULL, suggestions = '[]'::jsonb,
         status_changed_at = now()
   WHERE tenant_id = $1 AND id = $2
  RETURNING 1
)
SELECT (SELECT count(*) FROM history)::int AS history, (SELECT count(*) FROM line)::int AS line`;

/** A line's history, oldest first. Params: lineLockParams. */
export const LINE_HISTORY_SQL = `SELECT at, actor, action, rule, reason, receipts::text[] AS receipts
  FROM bank_line_history WHERE tenant_id = $1 AND bank_line_id = $2
 ORDER BY at, id`;

export interface LineHistoryRow {
  at: Date;
  actor: string;
  action: string;
  rule: string | null;
  reason: string | null;
  receipts: string[];
}
