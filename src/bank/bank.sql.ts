/**
 * The statements of bank accounts, statement import and the lines feed, with their row types and
 * parameter builders. Every one is tenant-scoped (`tenant_id = $1`) and runs in the request's
 * transaction, under row-level security.
 */

const ACCOUNT_COLUMNS = `id, name, account_number, ifsc, currency, collection, created_at`;

export interface BankAccountRow {
  id: string;
  name: string;
  account_number: string;
  ifsc: string | null;
  currency: string;
  collection: boolean;
  created_at: Date;
}

/** A new account; no row when the tenant already has that account number. */
export const INSERT_ACCOUNT_SQL = `INSERT INTO bank_accounts (tenant_id, name, account_number, ifsc, currency, created_by, collection)
VALUES ($1, $2, $3, $4, $5, $6, $7)
ON CONFLICT (tenant_id, account_number) DO NOTHING
RETURNING ${ACCOUNT_COLUMNS}`;

/**
 * Serialises the writes that choose a tenant's collection account in one currency, until commit:
 * two of them at once would otherwise both clear the other's and meet at the unique index.
 * Params: collectionLockParams.
 */
export const LOCK_COLLECTION_SQL = `SELECT pg_advisory_xact_lock(hashtextextended('bank-collection:' || $1::text || ':' || $2::text, 0))`;

export const collectionLockParams = (p: { tenantId: string; currency: string }): unknown[] => [
  p.tenantId,
  p.currency,
];

/**
 * Clears `collection` on the tenant's other accounts in the currency (at most one is the
 * collection account); returns the accounts it changed. Params: clearCollectionParams.
 */
export const CLEAR_COLLECTION_SQL = `WITH cleared AS (
  UPDATE bank_accounts SET collection = false
   WHERE tenant_id = $1 AND currency = $2 AND collection AND id IS DISTINCT FROM $3::uuid
  RETURNING ${ACCOUNT_COLUMNS})
SELECT * FROM cleared ORDER BY created_at, id`;

export const clearCollectionParams = (p: {
  tenantId: string;
  currency: string;
  /** The account that keeps (or takes) the flag; null: none yet (a new account). */
  exceptId: string | null;
}): unknown[] => [p.tenantId, p.currency, p.exceptId];

/**
 * PATCH: the name and the collection flag; null leaves one as it is (an UPDATE in a WITH, so the
 * driver answers its rows). Params: updateAccountParams.
 */
export const UPDATE_ACCOUNT_SQL = `WITH updated AS (
  UPDATE bank_accounts
     SET name = coalesce($3, name), collection = coalesce($4, collection)
   WHERE tenant_id = $1 AND id = $2
  RETURNING ${ACCOUNT_COLUMNS})
SELECT * FROM updated`;

export const updateAccountParams = (p: {
  tenantId: string;
  accountId: string;
  name: string | null;
  collection: boolean | null;
}): unknown[] => [p.tenantId, p.accountId, p.name, p.collection];

/**
 * The tenant's collection account in a currency, number in full (for letters only). Params:
 * collectionAccountParams.
 */
export const COLLECTION_ACCOUNT_SQL = `SELECT ${ACCOUNT_COLUMNS} FROM bank_accounts
 WHERE tenant_id = $1 AND currency = $2 AND collection`;

export const collectionAccountParams = (p: { tenantId: string; currency: string }): unknown[] => [
  p.tenantId,
  p.currency,
];

export const insertAccountParams = (p: {
  tenantId: string;
  name: string;
  accountNumber: string;
  ifsc: string | null;
  currency: string;
  actor: string;
  collection: boolean;
}): unknown[] => [p.tenantId, p.name, p.accountNumber, p.ifsc, p.currency, p.actor, p.collection];

/** The tenant's accounts, oldest first. */
export const ACCOUNTS_SQL = `SELECT ${ACCOUNT_COLUMNS} FROM bank_accounts
 WHERE tenant_id = $1 ORDER BY created_at, id`;

export const tenantParams = (p: { tenantId: string }): unknown[] => [p.tenantId];

export const ACCOUNT_SQL = `SELECT ${ACCOUNT_COLUMNS} FROM bank_accounts WHERE tenant_id = $1 AND id = $2`;

export const accountParams = (p: { tenantId: string; accountId: string }): unknown[] => [
  p.tenantId,
  p.accountId,
];

/**
 * The account an import writes to, locked: imports of one account queue here, so their lines are
 * numbered in commit order and a reader of the feed never sees a later sequence before an
 * earlier one. FOR NO KEY UPDATE: the lines' foreign keys (FOR KEY SHARE) are not blocked by it.
 * Params: accountParams.
 */
export const LOCK_ACCOUNT_SQL = `SELECT last_line_sequence::text AS last_line_sequence FROM bank_accounts
 WHERE tenant_id = $1 AND id = $2 FOR NO KEY UPDATE`;

export interface LockedAccountRow {
  last_line_sequence: string;
}

const STATEMENT_COLUMNS = `id, format, layout, line_count, imported, duplicates, possible_duplicates,
       pending, from_date, to_date, opening_balance::text AS opening_balance,
       closing_balance::text AS closing_balance, balance_check, first_mismatch_line,
       matched_auto, matched_suggested, matched_unmatched`;

/** An import's summary, as the import answered it. */
export interface StatementRow {
  id: string;
  format: string;
  layout: string | null;
  line_count: number;
  imported: number;
  duplicates: number;
  possible_duplicates: number;
  pending: number;
  from_date: string | null;
  to_date: string | null;
  opening_balance: string | null;
  closing_balance: string | null;
  balance_check: 'OK' | 'MISMATCH';
  first_mismatch_line: number | null;
  matched_auto: number;
  matched_suggested: number;
  matched_unmatched: number;
}

/** The import of this very file into this account, if there was one. */
export const STATEMENT_BY_FILE_SQL = `SELECT ${STATEMENT_COLUMNS} FROM bank_statements
 WHERE tenant_id = $1 AND bank_account_id = $2 AND file_sha256 = $3`;

export const statementByFileParams = (p: {
  tenantId: string;
  accountId: string;
  sha256: Buffer;
}): unknown[] => [p.tenantId, p.accountId, p.sha256];

/** The import's row, written first so its lines can reference it; its summary comes last. */
export const INSERT_STATEMENT_SQL = `INSERT INTO bank_statements
  (tenant_id, bank_account_id, file_sha256, file_bytes, format, encoding, imported_by)
VALUES ($1, $2, $3, $4, $5, $6, $7)
RETURNING id`;

export const insertStatementParams = (p: {
  tenantId: string;
  accountId: string;
  sha256: Buffer;
  bytes: number;
  format: string;
  encoding: string;
  actor: string;
}): unknown[] => [p.tenantId, p.accountId, p.sha256, p.bytes, p.format, p.encoding, p.actor];

export interface IdRow {
  id: string;
}

/** One chunk of lines, column by column (each array has one entry per line, in file order). */
export interface LineColumns {
  lineKey: Buffer[];
  fileLine: number[];
  valueDate: string[];
  bookingDate: (string | null)[];
  direction: string[];
  amount: string[];
  narration: string[];
  reference: string[];
  referenceKey: string[];
  utr: (string | null)[];
  chequeNumber: (string | null)[];
  balance: (string | null)[];
  reversal: boolean[];
  raw: string[];
}

/**
 * Writes a chunk of lines. A line whose key the account already has is a duplicate: the unique
 * key (ON CONFLICT DO NOTHING) leaves it out, whatever runs concurrently. Lines are numbered
 * `base` + their place in the file, so a duplicate leaves its number unused (sequences stay
 * strictly increasing per account, in commit order). A new line is flagged as a possible
 * duplicate when a line of another format has the same value date, direction, amount and
 * reference.
 *
 * No look-up here relies on the planner's estimates (an import runs long before statistics know
 * the rows it wrote): the duplicate check is the conflict arbiter's own index probe, and the
 * look-alike probe's only index conditions are those of bank_lines_look_alike_idx (tenant, value
 * date, reference); the account is compared as text so that no index on (tenant_id,
 * bank_account_id), which an empty table's estimates make look as selective, is chosen to scan
 * every line of the account per probe. Params: insertLinesParams.
 */
export const INSERT_LINES_SQL = `WITH input AS (
  SELECT * FROM unnest($6::bytea[], $7::int[], $8::date[], $9::date[], $10::text[], $11::numeric[],
                       $12::text[], $13::text[], $14::text[], $15::text[], $16::text[],
                       $17::numeric[], $18::boolean[], $19::text[])
    WITH ORDINALITY AS i(line_key, file_line, value_date, booking_date, direction, amount,
                         narration, reference, reference_key, utr, cheque_number, balance,
                         reversal, raw, ord)
), inserted AS (
  INSERT INTO bank_lines (tenant_id, bank_account_id, statement_id, sequence, line_key, format,
                          file_line, value_date, booking_date, direction, amount, narration,
                          reference, reference_key, utr, cheque_number, balance, reversal,
                          possible_duplicate, raw)
  SELECT $1, $2, $3, $5::bigint + i.ord, i.line_key, $4, i.file_line, i.value_date, i.booking_date,
         i.direction, i.amount, i.narration, i.reference, i.reference_key, i.utr, i.cheque_number,
         i.balance, i.reversal, look_alike.found IS NOT NULL, i.raw
    FROM input i
    LEFT JOIN LATERAL (
      SELECT 1 AS found FROM bank_lines o
       WHERE o.tenant_id = $1 AND o.value_date = i.value_date
         AND o.reference_key = i.reference_key AND o.amount = i.amount
         AND o.direction = i.direction AND o.format <> $4
         AND o.bank_account_id::text = $2::uuid::text
       LIMIT 1) look_alike ON true
   ORDER BY i.ord
  ON CONFLICT (tenant_id, bank_account_id, line_key) DO NOTHING
  RETURNING direction, possible_duplicate
)
SELECT count(*)::int AS imported,
       count(*) FILTER (WHERE possible_duplicate)::int AS possible_duplicates,
       count(*) FILTER (WHERE direction = 'CREDIT')::int AS credits
  FROM inserted`;

export interface InsertedLinesRow {
  imported: number;
  possible_duplicates: number;
  credits: number;
}

export const insertLinesParams = (p: {
  tenantId: string;
  accountId: string;
  statementId: string;
  format: string;
  base: string;
  lines: LineColumns;
}): unknown[] => [
  p.tenantId,
  p.accountId,
  p.statementId,
  p.format,
  p.base,
  p.lines.lineKey,
  p.lines.fileLine,
  p.lines.valueDate,
  p.lines.bookingDate,
  p.lines.direction,
  p.lines.amount,
  p.lines.narration,
  p.lines.reference,
  p.lines.referenceKey,
  p.lines.utr,
  p.lines.chequeNumber,
  p.lines.balance,
  p.lines.reversal,
  p.lines.raw,
];

/**
 * The import's summary, once every line is written; the account's sequence moves on with it.
 * (A SELECT at the top: TypeORM answers an UPDATE with [rows, count], a SELECT with its rows.)
 */
export const FINISH_STATEMENT_SQL = `WITH account AS (
  UPDATE bank_accounts SET last_line_sequence = $16::bigint
   WHERE tenant_id = $1 AND id = $17 AND $16::bigint > last_line_sequence
), finished AS (
  UPDATE bank_statements SET
    layout = $3, line_count = $4, imported = $5, duplicates = $4::int - $5::int,
    possible_duplicates = $6, pending = $7, from_date = $8, to_date = $9, opening_balance = $10,
    closing_balance = $11, balance_check = $12, first_mismatch_line = $13, matched_auto = $18,
    matched_suggested = $14, matched_unmatched = $15
   WHERE tenant_id = $1 AND id = $2
  RETURNING ${STATEMENT_COLUMNS}
)
SELECT * FROM finished`;

export const finishStatementParams = (p: {
  tenantId: string;
  statementId: string;
  accountId: string;
  layout: string | null;
  lines: number;
  imported: number;
  possibleDuplicates: number;
  pending: number;
  from: string | null;
  to: string | null;
  openingBalance: string | null;
  closingBalance: string | null;
  balanceCheck: 'OK' | 'MISMATCH';
  firstMismatchLine: number | null;
  auto: number;
  suggested: number;
  unmatched: number;
  lastSequence: string;
}): unknown[] => [
  p.tenantId,
  p.statementId,
  p.layout,
  p.lines,
  p.imported,
  p.possibleDuplicates,
  p.pending,
  p.from,
  p.to,
  p.openingBalance,
  p.closingBalance,
  p.balanceCheck,
  p.firstMismatchLine,
  p.suggested,
  p.unmatched,
  p.lastSequence,
  p.accountId,
  p.auto,
];

/**
 * A line's columns, with its matches and suggestions. Receipt numbers are read from the receipts
 * (of the line's tenant) as the line is read, not stored with the suggestion: a suggestion written
 * before numbers were shown gets them too.
 */
const LINE_COLUMNS = `l.id, l.sequence, l.value_date, l.booking_date, l.direction,
       l.amount::text AS amount, l.narration, l.reference, l.utr, l.cheque_number,
       l.balance::text AS balance, l.status, l.possible_duplicate,
       (SELECT coalesce(jsonb_agg(s.suggestion || jsonb_build_object('receiptNumbers',
                 (SELECT coalesce(jsonb_agg(r.receipt_number ORDER BY x.at), '[]'::jsonb)
                    FROM jsonb_array_elements_text(s.suggestion->'receipts') WITH ORDINALITY x(id, at)
                    JOIN receipts r ON r.tenant_id = l.tenant_id AND r.id = x.id::uuid))
                 ORDER BY s.at), '[]'::jsonb)
          FROM jsonb_array_elements(l.suggestions) WITH ORDINALITY s(suggestion, at)) AS suggestions,
       (SELECT coalesce(jsonb_agg(jsonb_build_object('receipt', m.receipt_id,
                                 'receiptNumber', r.receipt_number,
                                 'amount', m.amount::text, 'rule', m.rule, 'score', m.score)
                                 ORDER BY m.created_at, m.receipt_id), '[]'::jsonb)
          FROM bank_line_matches m
          JOIN receipts r ON r.tenant_id = m.tenant_id AND r.id = m.receipt_id
         WHERE m.tenant_id = l.tenant_id AND m.bank_line_id = l.id) AS matches`;

export interface BankLineRow {
  id: string;
  /** bigint, which pg hands over as text (sorted as a number in SQL). */
  sequence: string;
  value_date: string;
  booking_date: string | null;
  direction: 'CREDIT' | 'DEBIT';
  amount: string;
  narration: string;
  reference: string;
  utr: string | null;
  cheque_number: string | null;
  balance: string | null;
  status: 'UNMATCHED' | 'SUGGESTED' | 'MATCHED' | 'IGNORED';
  possible_duplicate: boolean;
  /** As matching wrote them (bank-matching.sql.ts), with the receipts' numbers; score a JSON number. */
  suggestions: {
    receipts: string[];
    receiptNumbers: string[];
    rule: string;
    score: number;
    reasons: string[];
  }[];
  /** The receipts matched; amount as text, score a JSON number. */
  matches: {
    receipt: string;
    receiptNumber: string;
    amount: string;
    rule: string;
    score: number;
  }[];
}

/**
 * A page of the account's lines after a sequence, with the account's currency and last sequence
 * on every row (null line columns: an empty page). No row: the account does not exist.
 */
export const LINES_PAGE_SQL = `SELECT a.currency, a.last_line_sequence::text AS last_sequence, l.*
  FROM bank_accounts a
  LEFT JOIN LATERAL (
    SELECT ${LINE_COLUMNS}
      FROM bank_lines l
     WHERE l.tenant_id = $1 AND l.bank_account_id = a.id AND l.sequence > $3::bigint
       AND ($4::text IS NULL OR l.status = $4)
     ORDER BY l.sequence LIMIT $5) l ON true
 WHERE a.tenant_id = $1 AND a.id = $2
 ORDER BY l.sequence`;

export type LinesPageRow = { currency: string; last_sequence: string } & {
  [K in keyof BankLineRow]: BankLineRow[K] | null;
};

export const linesPageParams = (p: {
  tenantId: string;
  accountId: string;
  after: number;
  status: string | null;
  limit: number;
}): unknown[] => [p.tenantId, p.accountId, String(p.after), p.status, p.limit];

/** One line with its account's currency, statement, place in the file and raw text. */
export const LINE_SQL = `SELECT ${LINE_COLUMNS}, a.currency, l.statement_id, l.bank_account_id,
       l.file_line, l.raw
  FROM bank_lines l
  JOIN bank_accounts a ON a.tenant_id = l.tenant_id AND a.id = l.bank_account_id
 WHERE l.tenant_id = $1 AND l.id = $2`;

export type LineDetailRow = BankLineRow & {
  currency: string;
  statement_id: string;
  bank_account_id: string;
  file_line: number;
  raw: string;
};

export const lineParams = (p: { tenantId: string; lineId: string }): unknown[] => [
  p.tenantId,
  p.lineId,
];

/** Some lines of the tenant with their account's currency (events after a matching run). */
export const LINES_BY_IDS_SQL = `SELECT ${LINE_COLUMNS}, a.currency
  FROM bank_lines l
  JOIN bank_accounts a ON a.tenant_id = l.tenant_id AND a.id = l.bank_account_id
 WHERE l.tenant_id = $1 AND l.id = ANY($2::uuid[])
 ORDER BY l.bank_account_id, l.sequence`;

export const linesByIdsParams = (p: { tenantId: string; ids: string[] }): unknown[] => [
  p.tenantId,
  p.ids,
];
