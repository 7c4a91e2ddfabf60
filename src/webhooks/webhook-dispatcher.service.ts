import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Pool } from 'pg';
import { jobQueue } from '@/database/job-queue';
import { sidePool } from '@/database/side-pool';
import type PgBoss from 'pg-boss';
import { DataSource } from 'typeorm';
import { AppConfig } from '@/platform/config/app-config';
import { Metrics } from '@/platform/metrics/metrics';
import { OutboxService } from '@/platform/outbox/outbox.service';
import { DeliveryJob, WebhookBatchDelivery } from './webhook-batch-delivery';
import { DueScope, dueSubscriptionsQuery, DueSubscriptionRow } from './webhooks.sql';

/** The queue the migration created (migrations/1764900000000-Webhooks.ts). */
export const WEBHOOK_QUEUE = 'webhooks.deliver';

/** One job delivers for at most this long, then hands the subscription back to the queue. */
const JOB_BUDGET_MS = 20_000;
/**
 * A dispatch round after this instance's commits waits this long, gathering the commits meanwhile:
 * under load a job then delivers tens of events, not one (deliveries cost the write path less),
 * and a lone event still reaches its receiver within about this.
 */
const NUDGE_DELAY_MS = 50;

/**
 * Delivers the outbox to webhook subscribers (README.md, Webhooks), on pg-boss, shared by every
 * instance.
 *
 * - A dispatcher in each instance polls `webhook_due_subscriptions()` every
 *   WEBHOOK_POLL_INTERVAL_MS and queues one job per subscription with undelivered events (the
 *   queue keeps at most one waiting job per subscription however many instances poll). The
 *   instance that commits a tenant's events also asks for that tenant after NUDGE_DELAY_MS.
 * - WEBHOOK_CONCURRENCY workers per instance take jobs. A job delivers the subscription's events
 *   in batches (WebhookBatchDelivery: one transaction each, holding the subscription's advisory
 *   lock) until it is caught up, failing, or out of JOB_BUDGET_MS.
 * - A failed attempt stops the subscription's batch: later events wait behind it, and the
 *   retry comes from the dispatcher once `next_attempt_at` (WEBHOOK_RETRY_SCHEDULE, ±20 %,
 *   decideRetry) has passed. Other subscriptions are other jobs, never held up by it. After the
 *   last retry the delivery is FAILED and the subscription disabled (FAILING).
 */
@Injectable()
export class WebhookDispatcher implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(WebhookDispatcher.name);
  private readonly databaseUrl: string;
  private readonly connectionOptions: string | undefined;
  private boss?: PgBoss;
  private pool?: Pool;
  private timer?: NodeJS.Timeout;
  private workerIds: string[] = [];
  private dispatching = false;
  private stopping = false;
  private dispatchFailing = false;
  private readonly nudgedTenants = new Set<string>();
  private nudgeTimer?: NodeJS.Timeout;

  constructor(
    private readonly config: AppConfig,
    private readonly outbox: OutboxService,
    private readonly metrics: Metrics,
    private readonly batches: WebhookBatchDelivery,
    @InjectDataSource() dataSource: DataSource,
  ) {
    const options = dataSource.options as { url?: string; extra?: Record<string, unknown> };
    this.databaseUrl = options.url as string;
    this.connectionOptions = options.extra?.options as string | undefined;
  }

  async onApplicationBootstrap(): Promise<void> {
    const settings = this.config.webhooks;
    if (!settings.deliveryEnabled) return;
    // A pool of its own: a worker holds a connection while it waits for a receiver (up to
    // WEBHOOK_TIMEOUT_MS), which must never starve the API's pool. One more for the dispatcher.
    this.pool = sidePool({
      connectionString: this.databaseUrl,
      max: settings.concurrency + 1,
      connectionTimeoutMillis: this.config.dbConnectTimeoutMs,
      application_name: 'finance-service-webhooks',
      options: this.connectionOptions,
    });
    const boss = jobQueue({
      connectionString: this.databaseUrl,
      applicationName: 'finance-service-webhooks-queue',
      connectTimeoutMs: this.config.dbConnectTimeoutMs,
    });
    boss.on('error', (error: Error) => this.logger.warn(`pg-boss: ${error.message}`));
    await boss.start();
    this.boss = boss;
    for (let i = 0; i < settings.concurrency; i++) {
      this.workerIds.push(
        await boss.work<DeliveryJob>(
          WEBHOOK_QUEUE,
          { batchSize: 1, pollingIntervalSeconds: Math.max(0.5, settings.pollIntervalMs / 1000) },
          async ([job]) => this.deliver(job.data),
        ),
      );
    }
    this.timer = setInterval(() => void this.dispatch(), settings.pollIntervalMs);
    this.timer.unref();
    // Events this instance commits are dispatched at once; the poll covers other instances'
    // (and retries coming due).
    this.outbox.onCommit((tenantId) => this.nudge(tenantId));
    this.metrics.registerPool('webhooks', () => this.pool);
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping = true;
    clearInterval(this.timer);
    clearTimeout(this.nudgeTimer);
    // A delivery in flight finishes (at most WEBHOOK_TIMEOUT_MS); nothing new starts.
    await this.boss?.stop({
      graceful: true,
      wait: true,
      timeout: this.config.webhooks.timeoutMs + 2000,
    });
    this.boss = undefined;
    await this.pool?.end();
    this.pool = undefined;
    this.batches.close();
  }

  private nudge(tenantId: string): void {
    this.nudgedTenants.add(tenantId);
    if (this.nudgeTimer || this.stopping) return;
    this.nudgeTimer = setTimeout(() => void this.dispatchNudged(), NUDGE_DELAY_MS);
  }

  /** A dispatch round for the tenants whose events this instance just committed. */
  private async dispatchNudged(): Promise<void> {
    const tenantIds = [...this.nudgedTenants];
    this.nudgedTenants.clear();
    await this.queueDue({ tenantIds });
    this.nudgeTimer = undefined;
    if (this.nudgedTenants.size > 0 && !this.stopping) {
      this.nudgeTimer = setTimeout(() => void this.dispatchNudged(), NUDGE_DELAY_MS);
    }
  }

  /** One dispatcher round: queue a job for every subscription with events due. */
  async dispatch(): Promise<number> {
    if (this.dispatching) return 0;
    this.dispatching = true;
    try {
      const due = await this.queueDue({ all: true });
      this.metrics.webhookBacklog.set(due);
      return due;
    } finally {
      this.dispatching = false;
    }
  }

  /** Queues a job for each due subscription of `scope`; resolves with how many. */
  private async queueDue(scope: DueScope): Promise<number> {
    if (this.stopping || !this.boss || !this.pool) return 0;
    try {
      const { sql, params } = dueSubscriptionsQuery(scope);
      const { rows } = await this.pool.query<DueSubscriptionRow>(sql, params);
      if (rows.length > 0) {
        await this.boss.insert(
          rows.map((r) => ({
            name: WEBHOOK_QUEUE,
            data: { tenantId: r.tenant_id, subscriptionId: r.subscription_id },
            singletonKey: r.subscription_id,
          })),
        );
        // Idle local workers look now instead of at their next poll.
        for (const id of this.workerIds) this.boss.notifyWorker(id);
      }
      if (this.dispatchFailing) this.logger.log('webhook dispatch is working again');
      this.dispatchFailing = false;
      return rows.length;
    } catch (error) {
      // One warning per outage, not one per tick.
      if (!this.dispatchFailing) {
        this.logger.warn(`webhook dispatch failed: ${(error as Error).message}`);
      }
      this.dispatchFailing = true;
      return 0;
    }
  }

  /** A job: deliver the subscription's due events until caught up, failing, or out of time. */
  private async deliver(job: DeliveryJob): Promise<void> {
    const deadline = Date.now() + JOB_BUDGET_MS;
    const stopping = () => this.stopping;
    while (!this.stopping && Date.now() < deadline) {
      const pool = this.pool;
      if (!pool) return;
      if ((await this.batches.deliver(pool, job, stopping)) !== 'more') return;
    }
  }
}
