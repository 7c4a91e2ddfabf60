import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import type PgBoss from 'pg-boss';
import { DataSource } from 'typeorm';
import { jobQueue } from '@/database/job-queue';
import { AppConfig } from '@/platform/config/app-config';
import { purgeParams, PurgeRow, purgeSql, PurgeTarget } from './housekeeping.sql';

/** The queue the migration created (migrations/1764000000000-Housekeeping.ts). */
export const PURGE_QUEUE = 'idempotency-keys.purge';
export const HOUSEKEEPING_DATABASE_URL = Symbol('HOUSEKEEPING_DATABASE_URL');

export interface PurgeResult {
  removed: number;
  batches: number;
}

/**
 * Periodic clean-up through pg-boss: a PostgreSQL-backed queue every instance shares, so a cron
 * slot runs once however many instances there are (the same queue will carry webhook deliveries:
 * retries with backoff, dead letters, singleton keys). pg-boss' schema and queue come from a
 * migration; this process only reads and writes its rows (`migrate: false`).
 */
@Injectable()
export class HousekeepingService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(HousekeepingService.name);
  private boss?: PgBoss;

  /** Rows per call of purge_expired_idempotency_keys: short transactions, no long locks. */
  static readonly BATCH_SIZE = 1000;
  /** A run stops after this long; the next slot continues. */
  static readonly RUN_BUDGET_MS = 60_000;

  constructor(
    private readonly config: AppConfig,
    private readonly dataSource: DataSource,
    @Inject(HOUSEKEEPING_DATABASE_URL) private readonly databaseUrl: string,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.housekeeping.enabled) return;
    const boss = jobQueue({
      connectionString: this.databaseUrl,
      applicationName: 'finance-service-housekeeping',
      connectTimeoutMs: this.config.dbConnectTimeoutMs,
      schedule: true,
    });
    // Without a listener an 'error' event would end the process; a database outage is logged
    // by the request path already, so these are warnings.
    boss.on('error', (error: Error) => this.logger.warn(`pg-boss: ${error.message}`));
    await boss.start();
    this.boss = boss;
    await boss.schedule(PURGE_QUEUE, this.config.housekeeping.cron, undefined, { tz: 'UTC' });
    await boss.work(PURGE_QUEUE, async () => {
      const result = await this.purgeExpiredIdempotencyKeys();
      if (result.removed > 0) {
        this.logger.log(
          `purged ${result.removed} idempotency keys older than ${this.config.housekeeping.idempotencyTtlHours} h in ${result.batches} batches`,
        );
      }
      const events = await this.purgeExpiredEvents();
      if (events.removed > 0) {
        this.logger.log(
          `purged ${events.removed} events older than ${this.config.housekeeping.eventsRetentionDays} days in ${events.batches} batches`,
        );
      }
      const deliveries = await this.purgeExpiredWebhookDeliveries();
      if (deliveries.removed > 0) {
        this.logger.log(
          `purged ${deliveries.removed} webhook delivery attempts older than ${this.config.housekeeping.eventsRetentionDays} days`,
        );
      }
      return { ...result, events, deliveries };
    });
  }

  async onApplicationShutdown(): Promise<void> {
    // Before the pool closes: a running purge batch finishes, nothing new starts.
    await this.boss?.stop({ graceful: true, wait: true, timeout: 10_000 });
    this.boss = undefined;
  }

  /** Sends one purge job now (any instance's worker takes it); resolves with its id. */
  async requestPurge(): Promise<string | null> {
    if (!this.boss) throw new Error('housekeeping is not running (HOUSEKEEPING_ENABLED=false)');
    return this.boss.send(PURGE_QUEUE, {});
  }

  /** The job: deletes expired keys of every tenant in bounded batches until none is left. */
  async purgeExpiredIdempotencyKeys(
    batchSize = HousekeepingService.BATCH_SIZE,
  ): Promise<PurgeResult> {
    return this.purgeInBatches(
      'idempotency-keys',
      `${this.config.housekeeping.idempotencyTtlHours} hours`,
      batchSize,
    );
  }

  /** Events past EVENTS_RETENTION_DAYS, oldest first (the feed answers 410 below them). */
  async purgeExpiredEvents(batchSize = HousekeepingService.BATCH_SIZE): Promise<PurgeResult> {
    return this.purgeInBatches(
      'events',
      `${this.config.housekeeping.eventsRetentionDays} days`,
      batchSize,
    );
  }

  /** The webhook delivery log is kept as long as the events it delivered. */
  async purgeExpiredWebhookDeliveries(
    batchSize = HousekeepingService.BATCH_SIZE,
  ): Promise<PurgeResult> {
    return this.purgeInBatches(
      'webhook-deliveries',
      `${this.config.housekeeping.eventsRetentionDays} days`,
      batchSize,
    );
  }

  private async purgeInBatches(
    target: PurgeTarget,
    maxAge: string,
    batchSize: number,
  ): Promise<PurgeResult> {
    const started = Date.now();
    let removed = 0;
    let batches = 0;
    for (;;) {
      const rows: PurgeRow[] = await this.dataSource.query(
        purgeSql(target),
        purgeParams({ maxAge, batchSize }),
      );
      const purged = rows[0].purged;
      if (purged > 0) batches++;
      removed += purged;
      if (purged < batchSize || Date.now() - started > HousekeepingService.RUN_BUDGET_MS) break;
    }
    return { removed, batches };
  }
}
