import type { ThrottlerStorage } from '@nestjs/throttler';
import { Pool } from 'pg';
import { sidePool } from '@/database/side-pool';
import { AppConfig } from '@/platform/config/app-config';
import { Metrics } from '@/platform/metrics/metrics';
import {
  PURGE_BUDGETS_SQL,
  purgeBudgetsParams,
  RESERVE_BUDGET_SQL,
  reserveBudgetParams,
  ReservedBudgetRow,
} from '@/http/throttling/rate-limit.sql';
import { BudgetReserver, SharedBudgetStorage } from '@/http/throttling/shared-budget-storage';
import { SlidingWindowStorage } from '@/http/throttling/sliding-window-storage';

/** The shared budgets' round trips, on a pool of their own. */
export class PostgresBudgetReserver implements BudgetReserver {
  constructor(private readonly pool: Pool) {}

  async reserve(batch: Parameters<BudgetReserver['reserve']>[0]): Promise<ReservedBudgetRow[]> {
    const { rows } = await this.pool.query<ReservedBudgetRow>(
      RESERVE_BUDGET_SQL,
      reserveBudgetParams(batch),
    );
    return rows;
  }

  async purge(idleMs: number): Promise<void> {
    await this.pool.query(PURGE_BUDGETS_SQL, purgeBudgetsParams({ idleMs, batchSize: 10_000 }));
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}

/**
 * The rate limiter's counts as RATE_LIMIT_STORE says: budgets shared by every instance through
 * PostgreSQL, or this instance's memory alone (docs/operations.md, "Rate limit").
 */
export function createRateLimitStorage(
  config: AppConfig,
  databaseUrl: string,
  metrics: Metrics,
): ThrottlerStorage {
  if (config.rateLimitStore === 'memory') return new SlidingWindowStorage();
  // One connection: the storage sends one statement at a time, batching the clients that need
  // a slice meanwhile. Never the request pool: a slice never waits behind requests for a
  // connection, nor holds one of theirs.
  const pool = sidePool({
    connectionString: databaseUrl,
    max: 1,
    connectionTimeoutMillis: config.dbConnectTimeoutMs,
    // Kept open between bursts: reconnecting would cost a client's next slice a login.
    idleTimeoutMillis: 5 * 60_000,
    application_name: 'finance-service-rate-limit',
  });
  metrics.registerPool('rate-limit', () => pool);
  return new SharedBudgetStorage(new PostgresBudgetReserver(pool));
}
