import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import http from 'node:http';
import https from 'node:https';
import { Pool } from 'pg';
import { sidePool } from '@/database/side-pool';
import PgBoss from 'pg-boss';
import { DataSource } from 'typeorm';
import { AppConfig } from '@/platform/config/app-config';
import { Metrics } from '@/platform/metrics/metrics';
import { OutboxService } from '@/platform/outbox/outbox.service';
import { ALL_EVENTS } from './dto/webhook.dto';
import { sendWebhook, SendResult } from './webhook-sender';
import { signatureHeader } from './webhook-signature';
import { guardedLookup, webhookTargetPolicy } from './webhook-target';

/** The queue the migration created (migrations/1764900000000-Webhooks.ts). */
export const WEBHOOK_QUEUE = 'webhooks.deliver';

interface DeliveryJob {
  tenantId: string;
  subscriptionId: string;
}

interface BatchRow {
  url: string;
  event_types: string[];
  secret: Buffer;
  previous_secret: Buffer | null;
  delivered_sequence: string;
  failing_attempts: number;
  due: boolean;
  event_id: string | null;
  sequence: string | null;
  type: string | null;
  occurred_at: Date | null;
  actor: string | null;
  data: string | null;
}

interface Attempt {
  event_id: string;
  event_sequence: number;
  event_type: string;
  attempt: number;
  outcome: 'SUCCEEDED' | 'RETRYING' | 'FAILED';
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  attempted_at: string;
  next_retry_at: string | null;
}

type BatchOutcome = 'more' | 'done' | 'busy';

/** Events read per transaction, and how long one transaction keeps starting new deliveries. */
const BATCH_EVENTS = 100;
const BATCH_BUDGET_MS = 1000;
/** One job delivers for at most this long, then hands the subscription back to the queue. */
const JOB_BUDGET_MS = 20_000;
/**
 * A dispatch round after this instance's commits waits this long, gathering the commits meanwhile:
 * under load a job then delivers tens of events, not one (deliveries cost the write path less),
 * and a lone event still reaches its receiver within about this.
 */
const NUDGE_DELAY_MS = 50;
/** Jitter on every retry wait: ±20 %, so failing subscriptions do not retry in step. */
const JITTER = 0.2;

/**
 * First statement of a delivery transaction: the tenant for row-level security, bounded waits,
 * and the subscription's transaction-scoped advisory lock. Whoever holds it is the only one
 * delivering for that subscription, on any instance, until it commits; the others skip it. A
 * transaction lock (not a session one) works through a transaction-mode pooler.
 */
const LOCK_SQL = `SELECT set_config('app.tenant_id', $1, true),
       set_config('statement_timeout', $3, true),
       set_config('idle_in_transaction_session_timeout', $4, true),
       pg_try_advisory_xact_lock(hashtextextended($2, 9)) AS locked`;

/**
 * The subscription and the next events after its cursor, from one snapshot: if it was deleted
 * or disabled before these events committed, they are not delivered.
 */
const BATCH_SQL = `SELECT s.url, s.event_types, s.secret,
       CASE WHEN s.previous_secret_expires_at > now() THEN s.previous_secret END AS previous_secret,
       s.delivered_sequence::text AS delivered_sequence, s.failing_attempts,
       (s.enabled AND s.deleted_at IS NULL
         AND (s.next_attempt_at IS NULL OR s.next_attempt_at <= now())) AS due,
       e.id AS event_id, e.sequence::text AS sequence, e.type, e.occurred_at, e.actor,
       e.data::text AS data
  FROM webhook_subscriptions s
  LEFT JOIN LATERAL (
    SELECT id, sequence, type, occurred_at, actor, data FROM events
     WHERE tenant_id = s.tenant_id AND sequence > s.delivered_sequence
     ORDER BY sequence LIMIT $3) e ON true
 WHERE s.tenant_id = $1 AND s.id = $2
   AND EXISTS (SELECT 1 FROM tenants t WHERE t.id = s.tenant_id AND t.active)
 ORDER BY e.sequence`;

/** The attempts of a batch and where the subscription stands, in one statement. */
const RECORD_SQL = `WITH attempts AS (
  INSERT INTO webhook_deliveries (tenant_id, subscription_id, event_id, event_sequence, event_type,
         attempt, outcome, status_code, duration_ms, error, attempted_at, next_retry_at)
  SELECT $1, $2, a.event_id, a.event_sequence, a.event_type, a.attempt, a.outcome, a.status_code,
         a.duration_ms, a.error, a.attempted_at, a.next_retry_at
    FROM json_to_recordset($3::json) AS a(event_id uuid, event_sequence bigint, event_type text,
         attempt integer, outcome text, status_code integer, duration_ms integer, error text,
         attempted_at timestamptz, next_retry_at timestamptz)
  RETURNING 1)
UPDATE webhook_subscriptions SET
       delivered_sequence = $4::bigint,
       failing_attempts = $5,
       next_attempt_at = $6::timestamptz,
       last_error = $7,
       enabled = enabled AND NOT $8,
       disabled_reason = CASE WHEN $8 THEN 'FAILING' ELSE disabled_reason END,
       disabled_at = CASE WHEN $8 THEN now() ELSE disabled_at END
 WHERE tenant_id = $1 AND id = $2`;

/**
 * Delivers the outbox to webhook subscribers (contract §8), on pg-boss, shared by every instance.
 *
 * - A dispatcher in each instance polls `webhook_due_subscriptions()` every
 *   WEBHOOK_POLL_INTERVAL_MS and queues one job per subscription with undelivered events (the
 *   queue keeps at most one waiting job per subscription however many instances poll). The
 *   instance that commits a tenant's events also asks for that tenant after NUDGE_DELAY_MS.
 * - WEBHOOK_CONCURRENCY workers per instance take jobs. A job delivers the subscription's events
 *   in sequence order, in transactions of up to BATCH_EVENTS events that hold the
 *   subscription's advisory lock, so no two workers anywhere send for one subscription at once:
 *   an attempt is made once, and order holds. The attempts and the new cursor commit together;
 *   a crash before commit means those events are sent again (at least once).
 * - A failed attempt stops the subscription's batch: later events wait behind it, and the
 *   retry comes from the dispatcher once `next_attempt_at` (WEBHOOK_RETRY_SCHEDULE, ±20 %) has
 *   passed. Other subscriptions are other jobs, never held up by it. After the last retry the
 *   delivery is FAILED and the subscription disabled (FAILING).
 */
@Injectable()
export class WebhookDeliveryService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(WebhookDeliveryService.name);
  private readonly databaseUrl: string;
  private readonly connectionOptions: string | undefined;
  private readonly agents = {
    http: new http.Agent({ keepAlive: true }),
    https: new https.Agent({ keepAlive: true }),
  };
  private boss?: PgBoss;
  private pool?: Pool;
  private timer?: NodeJS.Timeout;
  private workerIds: string[] = [];
  private dispatching = false;
  private stopping = false;
  private dispatchFailing = false;
  private readonly nudgedTenants = new Set<string>();
  /** Resolves receivers' hosts and refuses forbidden addresses at every connection. */
  private readonly lookup: ReturnType<typeof guardedLookup>;
  private nudgeTimer?: NodeJS.Timeout;

  constructor(
    private readonly config: AppConfig,
    private readonly outbox: OutboxService,
    private readonly metrics: Metrics,
    @InjectDataSource() dataSource: DataSource,
  ) {
    const options = dataSource.options as { url?: string; extra?: Record<string, unknown> };
    this.databaseUrl = options.url as string;
    this.connectionOptions = options.extra?.options as string | undefined;
    this.lookup = guardedLookup(webhookTargetPolicy(config.webhooks));
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
    const boss = new PgBoss({
      connectionString: this.databaseUrl,
      schema: 'pgboss',
      migrate: false,
      schedule: false,
      max: 2,
      application_name: 'finance-service-webhooks-queue',
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
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  private nudge(tenantId: string): void {
    this.nudgedTenants.add(tenantId);
    if (this.nudgeTimer || this.stopping) return;
    this.nudgeTimer = setTimeout(() => void this.dispatchNudged(), NUDGE_DELAY_MS);
  }

  /** A dispatch round for the tenants whose events this instance just committed. */
  private async dispatchNudged(): Promise<void> {
    const tenants = [...this.nudgedTenants];
    this.nudgedTenants.clear();
    await this.queueDue(
      `SELECT d.tenant_id, d.subscription_id
         FROM unnest($1::uuid[]) AS t(id), LATERAL webhook_due_subscriptions(t.id) d`,
      [tenants],
    );
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
      const due = await this.queueDue(
        'SELECT tenant_id, subscription_id FROM webhook_due_subscriptions()',
      );
      this.metrics.webhookBacklog.set(due);
      return due;
    } finally {
      this.dispatching = false;
    }
  }

  /** Queues a job for each subscription `sql` finds due; resolves with how many. */
  private async queueDue(sql: string, params: unknown[] = []): Promise<number> {
    if (this.stopping || !this.boss || !this.pool) return 0;
    try {
      const { rows } = await this.pool.query<{ tenant_id: string; subscription_id: string }>(
        sql,
        params,
      );
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
    while (!this.stopping && Date.now() < deadline) {
      if ((await this.deliverBatch(job)) !== 'more') return;
    }
  }

  private async deliverBatch({ tenantId, subscriptionId }: DeliveryJob): Promise<BatchOutcome> {
    const pool = this.pool;
    if (!pool) return 'done';
    const settings = this.config.webhooks;
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const { rows: lock } = await client.query<{ locked: boolean }>(LOCK_SQL, [
        tenantId,
        subscriptionId,
        `${this.config.dbStatementTimeoutMs}ms`,
        // The transaction idles while receivers answer: a whole batch, then some.
        `${BATCH_BUDGET_MS + settings.timeoutMs + 30_000}ms`,
      ]);
      if (!lock[0]?.locked) {
        await client.query('ROLLBACK');
        return 'busy';
      }
      const { rows } = await client.query<BatchRow>(BATCH_SQL, [
        tenantId,
        subscriptionId,
        BATCH_EVENTS,
      ]);
      const subscription = rows[0];
      if (!subscription?.due || subscription.event_id === null) {
        await client.query('ROLLBACK');
        return 'done';
      }
      const result = await this.sendInOrder(subscription, rows);
      await client.query(RECORD_SQL, [
        tenantId,
        subscriptionId,
        JSON.stringify(result.attempts),
        String(result.cursor),
        result.failingAttempts,
        result.nextAttemptAt,
        result.lastError,
        result.disable,
      ]);
      await client.query('COMMIT');
      for (const attempt of result.attempts)
        this.metrics.webhookAttempts.inc({ outcome: attempt.outcome });
      return result.more ? 'more' : 'done';
    } catch (error) {
      broken = error as Error;
      await client.query('ROLLBACK').catch(() => undefined);
      this.logger.warn(`webhook delivery of ${subscriptionId} failed: ${broken.message}`);
      return 'done';
    } finally {
      client.release(broken);
    }
  }

  /** Sends the batch's events one after the other; stops at the first failure. */
  private async sendInOrder(subscription: BatchRow, rows: BatchRow[]) {
    const schedule = this.config.webhooks.retryScheduleMs;
    const types = subscription.event_types;
    const keys = [subscription.secret, subscription.previous_secret].filter(
      (k): k is Buffer => k !== null,
    );
    const batchDeadline = Date.now() + BATCH_BUDGET_MS;
    const attempts: Attempt[] = [];
    let cursor = Number(subscription.delivered_sequence);
    let failingAttempts = subscription.failing_attempts;
    let nextAttemptAt: string | null = null;
    let lastError: string | null = null;
    let disable = false;
    let handled = 0;
    for (const row of rows) {
      if (this.stopping || Date.now() > batchDeadline) break;
      handled++;
      const sequence = Number(row.sequence);
      const type = row.type as string;
      if (!types.includes(ALL_EVENTS) && !types.includes(type)) {
        cursor = sequence;
        continue;
      }
      const attempt = failingAttempts + 1;
      const attemptedAt = new Date();
      const result = await this.send(subscription.url, row, keys);
      const record = {
        event_id: row.event_id as string,
        event_sequence: sequence,
        event_type: type,
        attempt,
        status_code: result.statusCode,
        duration_ms: result.durationMs,
        error: result.error,
        attempted_at: attemptedAt.toISOString(),
      };
      if (result.ok) {
        attempts.push({ ...record, outcome: 'SUCCEEDED', next_retry_at: null });
        cursor = sequence;
        failingAttempts = 0;
        continue;
      }
      failingAttempts = attempt;
      lastError = result.error;
      if (attempt > schedule.length) {
        disable = true;
        attempts.push({ ...record, outcome: 'FAILED', next_retry_at: null });
      } else {
        const wait = schedule[attempt - 1] * (1 - JITTER + Math.random() * 2 * JITTER);
        nextAttemptAt = new Date(Date.now() + wait).toISOString();
        attempts.push({ ...record, outcome: 'RETRYING', next_retry_at: nextAttemptAt });
      }
      break;
    }
    const failed = lastError !== null;
    return {
      attempts,
      cursor,
      failingAttempts,
      nextAttemptAt,
      lastError,
      disable,
      more: !failed && (handled < rows.length || rows.length === BATCH_EVENTS),
    };
  }

  private send(url: string, row: BatchRow, keys: Buffer[]): Promise<SendResult> {
    const id = row.event_id as string;
    // The event as GET /events shows it; `data` is the stored JSON text, byte for byte.
    const head = JSON.stringify({
      id,
      sequence: Number(row.sequence),
      type: row.type,
      occurredAt: (row.occurred_at as Date).toISOString(),
      actor: row.actor,
    });
    const body = `${head.slice(0, -1)},"data":${row.data}}`;
    const timestamp = Math.floor(Date.now() / 1000);
    return sendWebhook(
      url,
      {
        'webhook-id': id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signatureHeader(id, timestamp, body, keys),
      },
      body,
      { timeoutMs: this.config.webhooks.timeoutMs, lookup: this.lookup },
      this.agents,
    );
  }
}
