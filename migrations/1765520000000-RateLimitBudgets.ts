import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The rate limit's shared budgets (RATE_LIMIT_STORE=postgres, src/http/throttling): one row per
 * client (`key`: the SHA-256 of the throttler name and the client's identity, so no subject,
 * tenant or address is stored), its window, what the window and the one before it used, and the
 * slice last granted. Instances take slices of the budget with one upsert
 * (`RESERVE_BUDGET_SQL`) and spend them in memory.
 *
 * UNLOGGED: no WAL per slice, not replicated, emptied by a crash of the server (every client
 * then starts a fresh minute): a budget is worth a minute, not a backup. Not tenant-owned (an
 * anonymous client's budget has no tenant), so no row-level security, like `tenants`; the rows
 * hold nothing but hashes and counters. Rows idle for two windows are deleted by the instances
 * (`PURGE_BUDGETS_SQL`); until then an idle row behaves as an absent one.
 */
export class RateLimitBudgets1765520000000 implements MigrationInterface {
  name = 'RateLimitBudgets1765520000000';

  public async up(q: QueryRunner): Promise<void> {
    // fillfactor: every slice rewrites the row; room on the page keeps those updates HOT.
    await q.query(`
      CREATE UNLOGGED TABLE rate_limit_budgets (
        key text PRIMARY KEY,
        window_start timestamptz NOT NULL,
        previous_used integer NOT NULL CHECK (previous_used >= 0),
        used integer NOT NULL CHECK (used >= 0),
        granted integer NOT NULL CHECK (granted >= 0)
      ) WITH (fillfactor = 50)`);
    await q.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON rate_limit_budgets TO finance_app`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE rate_limit_budgets`);
  }
}
