/**
 * The statements of the shared rate-limit budgets (RATE_LIMIT_STORE=postgres,
 * shared-budget-storage.ts; the table: migrations/1765520000000-RateLimitBudgets.ts). They run
 * on the limiter's own connection, in autocommit, never in a request's transaction.
 */

/**
 * Takes a slice of each listed client's budget, in one statement for many clients. Params:
 * reserveBudgetParams.
 *
 * The budget is a sliding window approximated from two fixed ones (as Cloudflare's and
 * nginx's limiters do): what the current window used plus what the previous one used, weighted
 * by the share of it still within the last `windowMs`. A client's first window starts at its
 * first request; the next follows on; after two idle windows the row starts over. A slice is
 * at most `want` and at most half of what is left (rounded up), so the last tokens of a budget
 * are not held by one instance while another refuses. It stays valid until its window ends:
 * what is available only grows within a window.
 *
 * Keys are sorted, so two instances taking overlapping batches lock rows in the same order
 * (no deadlock). `now()` is the statement's start, the same for every row of the batch.
 */
export const RESERVE_BUDGET_SQL = `
INSERT INTO rate_limit_budgets AS b (key, window_start, previous_used, used, granted)
SELECT r.key, now(), 0, least(r.want, ceil($3 / 2.0)), least(r.want, ceil($3 / 2.0))
  FROM unnest($1::text[], $2::int[]) AS r(key, want)
 ORDER BY r.key
ON CONFLICT (key) DO UPDATE SET (window_start, previous_used, used, granted) = (
  SELECT w.start, w.previous, w.used + g.n, g.n
    FROM (SELECT CASE WHEN x.e < $4 THEN b.window_start
                      WHEN x.e < 2 * $4 THEN b.window_start + make_interval(secs => $4 / 1000.0)
                      ELSE now() END AS start,
                 CASE WHEN x.e < $4 THEN b.previous_used WHEN x.e < 2 * $4 THEN b.used ELSE 0 END
                   AS previous,
                 CASE WHEN x.e < $4 THEN b.used ELSE 0 END AS used
            FROM (SELECT greatest(0, extract(epoch FROM now() - b.window_start) * 1000) AS e) x) w
   CROSS JOIN LATERAL (SELECT greatest(0, extract(epoch FROM now() - w.start) * 1000) AS e) y
   CROSS JOIN LATERAL (SELECT floor($3 - w.used - w.previous * (1 - y.e / $4)) AS available) a
   CROSS JOIN LATERAL (
     SELECT greatest(0, least(excluded.granted, ceil(a.available / 2.0)))::int AS n) g)
RETURNING b.key, b.granted, b.used, b.previous_used,
          greatest(0, extract(epoch FROM now() - b.window_start) * 1000)::float8 AS elapsed_ms`;

/** What a client's budget looks like right after a reservation. */
export interface ReservedBudgetRow {
  key: string;
  /** Tokens of this slice (0: none left now). */
  granted: number;
  /** Taken in the current window, this slice included. */
  used: number;
  /** Taken in the window before. */
  previous_used: number;
  /** How far into its current window the client is, in ms. */
  elapsed_ms: number;
}

/** `keys` and `wants` pair up; `keys` must be distinct (one upsert may not touch a row twice). */
export const reserveBudgetParams = (p: {
  keys: string[];
  wants: number[];
  limit: number;
  windowMs: number;
}): unknown[] => [p.keys, p.wants, p.limit, p.windowMs];

/**
 * Deletes up to `$2` budgets idle for at least `$1` ms (two windows: then they are worth
 * nothing, see RESERVE_BUDGET_SQL). Rows a reservation holds are skipped, never waited for.
 * Params: purgeBudgetsParams.
 */
export const PURGE_BUDGETS_SQL = `DELETE FROM rate_limit_budgets
 WHERE key IN (SELECT key FROM rate_limit_budgets
                WHERE window_start < now() - make_interval(secs => $1 / 1000.0)
                LIMIT $2 FOR UPDATE SKIP LOCKED)`;

export const purgeBudgetsParams = (p: { idleMs: number; batchSize: number }): unknown[] => [
  p.idleMs,
  p.batchSize,
];
