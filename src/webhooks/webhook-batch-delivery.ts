import { Injectable, Logger } from '@nestjs/common';
import http from 'node:http';
import https from 'node:https';
import { Pool } from 'pg';
import { AppConfig } from '@/platform/config/app-config';
import { Metrics } from '@/platform/metrics/metrics';
import { SecretsKeyring } from '@/platform/secrets/secrets-keyring';
import { ALL_EVENTS } from './dto/webhook.request';
import { decideRetry } from './webhook-retry';
import { sendWebhook, SendResult } from './webhook-sender';
import { webhookSecretContext } from './webhook-secrets';
import { signatureHeader } from './webhook-signature';
import { guardedLookup, webhookTargetPolicy } from './webhook-target';
import {
  AttemptRecord,
  BATCH_SQL,
  batchParams,
  BatchRow,
  LOCK_SUBSCRIPTION_SQL,
  lockSubscriptionParams,
  RECORD_BATCH_SQL,
  recordBatchParams,
} from './webhooks.sql';

/** A job of the webhook queue: deliver this subscription's due events. */
export interface DeliveryJob {
  tenantId: string;
  subscriptionId: string;
}

/** More events are waiting; caught up or failing; another worker holds the subscription. */
export type BatchOutcome = 'more' | 'done' | 'busy';

/** Events read per transaction, and how long one transaction keeps starting new deliveries. */
export const BATCH_EVENTS = 100;
const BATCH_BUDGET_MS = 1000;

/** What one batch did, recorded with its attempts in RECORD_BATCH_SQL. */
interface BatchResult {
  attempts: AttemptRecord[];
  cursor: number;
  failingAttempts: number;
  nextAttemptAt: string | null;
  lastError: string | null;
  disable: boolean;
  more: boolean;
}

/**
 * One subscription's batch, in one transaction on the webhook pool: it takes the subscription's
 * advisory lock (so no two workers anywhere send for one subscription at once: an attempt is
 * made once, and order holds), reads up to BATCH_EVENTS events after the cursor, sends them in
 * sequence order, and commits the attempts with the new cursor. A crash before commit means
 * those events are sent again (at least once). A failed attempt ends the batch: later events
 * wait behind it until the retry (decideRetry) comes due.
 */
@Injectable()
export class WebhookBatchDelivery {
  private readonly logger = new Logger(WebhookBatchDelivery.name);
  private readonly agents = {
    http: new http.Agent({ keepAlive: true }),
    https: new https.Agent({ keepAlive: true }),
  };
  /** Resolves receivers' hosts and refuses forbidden addresses at every connection. */
  private readonly lookup: ReturnType<typeof guardedLookup>;

  constructor(
    private readonly config: AppConfig,
    private readonly metrics: Metrics,
    private readonly keyring: SecretsKeyring,
  ) {
    this.lookup = guardedLookup(webhookTargetPolicy(config.webhooks));
  }

  /** Closes the receivers' kept-alive connections (after the last batch has finished). */
  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  /** Delivers one batch; `stopping` ends it early (the unsent events wait for the next one). */
  async deliver(
    pool: Pool,
    { tenantId, subscriptionId }: DeliveryJob,
    stopping: () => boolean,
  ): Promise<BatchOutcome> {
    const settings = this.config.webhooks;
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const { rows: lock } = await client.query<{ locked: boolean }>(
        LOCK_SUBSCRIPTION_SQL,
        lockSubscriptionParams({
          tenantId,
          subscriptionId,
          statementTimeoutMs: this.config.dbStatementTimeoutMs,
          // The transaction idles while receivers answer: a whole batch, then some.
          idleTimeoutMs: BATCH_BUDGET_MS + settings.timeoutMs + 30_000,
        }),
      );
      if (!lock[0]?.locked) {
        await client.query('ROLLBACK');
        return 'busy';
      }
      const { rows } = await client.query<BatchRow>(
        BATCH_SQL,
        batchParams({ tenantId, subscriptionId, maxEvents: BATCH_EVENTS }),
      );
      const subscription = rows[0];
      if (!subscription?.due || subscription.event_id === null) {
        await client.query('ROLLBACK');
        return 'done';
      }
      // Opened here, kept only for this batch: a key that cannot open them fails the batch.
      const context = webhookSecretContext(tenantId, subscriptionId);
      const keys = [subscription.secret, subscription.previous_secret]
        .filter((sealed): sealed is Buffer => sealed !== null)
        .map((sealed) => this.keyring.open(sealed, context));
      const result = await this.sendInOrder(subscription, rows, keys, stopping);
      await client.query(
        RECORD_BATCH_SQL,
        recordBatchParams({
          tenantId,
          subscriptionId,
          attempts: result.attempts,
          cursor: result.cursor,
          failingAttempts: result.failingAttempts,
          nextAttemptAt: result.nextAttemptAt,
          lastError: result.lastError,
          disable: result.disable,
        }),
      );
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

  /** Sends the batch's events one after the other, signed with `keys`; stops at the first failure. */
  private async sendInOrder(
    subscription: BatchRow,
    rows: BatchRow[],
    keys: Buffer[],
    stopping: () => boolean,
  ): Promise<BatchResult> {
    const schedule = this.config.webhooks.retryScheduleMs;
    const types = subscription.event_types;
    const batchDeadline = Date.now() + BATCH_BUDGET_MS;
    const attempts: AttemptRecord[] = [];
    let cursor = Number(subscription.delivered_sequence);
    let failingAttempts = subscription.failing_attempts;
    let nextAttemptAt: string | null = null;
    let lastError: string | null = null;
    let disable = false;
    let handled = 0;
    for (const row of rows) {
      if (stopping() || Date.now() > batchDeadline) break;
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
      const decision = decideRetry({
        attempt,
        succeeded: result.ok,
        scheduleMs: schedule,
        now: Date.now(),
        random: Math.random(),
      });
      if (decision.kind === 'delivered') {
        attempts.push({ ...record, outcome: 'SUCCEEDED', next_retry_at: null });
        cursor = sequence;
        failingAttempts = 0;
        continue;
      }
      failingAttempts = attempt;
      lastError = result.error;
      if (decision.kind === 'dead') {
        disable = true;
        attempts.push({ ...record, outcome: 'FAILED', next_retry_at: null });
      } else {
        nextAttemptAt = decision.at.toISOString();
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
