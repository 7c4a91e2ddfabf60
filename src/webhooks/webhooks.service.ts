import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { RoutingTransactionAdapter } from '@/platform/replicas/routing-transaction-adapter';
import { AppConfig } from '@/platform/config/app-config';
import { AppError, FieldError } from '@/common/app-error';
import { TenantContext } from '@/common/tenant-context';
import { parseCursorQuery, refuseInvalidQuery } from '@/http/cursor-query';
import {
  ALL_EVENTS,
  CreateWebhookRequest,
  UpdateWebhookRequest,
  WebhookDeliveryPage,
  WebhookList,
  WebhookView,
  WebhookWithSecretView,
} from './dto/webhook.dto';
import { formatSecret, generateSecretKey } from './webhook-signature';
import { checkWebhookUrl, WebhookTargetPolicy, webhookTargetPolicy } from './webhook-target';

/** Subscriptions per tenant: a list without paging stays small, and so does the dispatch work. */
export const MAX_SUBSCRIPTIONS = 100;
export const DELIVERIES_LIMITS = Object.freeze({ defaultLimit: 50, maxLimit: 200 });
/** How long the previous secret keeps signing after a rotation (contract §8). */
const ROTATION_OVERLAP = '24 hours';

const WEBHOOK_COLUMNS = `id, url, event_types, description, enabled, disabled_reason, disabled_at,
  delivered_sequence::text AS delivered_sequence, failing_attempts, next_attempt_at, last_error,
  CASE WHEN previous_secret_expires_at > now() THEN previous_secret_expires_at END
    AS previous_secret_expires_at,
  created_at, created_by, updated_at`;

interface WebhookRow {
  id: string;
  url: string;
  event_types: string[];
  description: string | null;
  enabled: boolean;
  disabled_reason: string | null;
  disabled_at: Date | null;
  delivered_sequence: string;
  failing_attempts: number;
  next_attempt_at: Date | null;
  last_error: string | null;
  previous_secret_expires_at: Date | null;
  created_at: Date;
  created_by: string;
  updated_at: Date;
}

interface DeliveryRow {
  id: string;
  event_id: string;
  event_sequence: string;
  event_type: string;
  attempt: number;
  outcome: string;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  attempted_at: Date;
  next_retry_at: Date | null;
}

export interface DeliveriesQuery {
  after?: unknown;
  limit?: unknown;
}

/**
 * Managing webhook subscriptions (contract §8), in the request's tenant transaction like every
 * other route. Delivery itself is WebhookDeliveryService's.
 */
@Injectable()
export class WebhooksService {
  private readonly targetPolicy: WebhookTargetPolicy;

  constructor(
    private readonly txHost: TransactionHost<RoutingTransactionAdapter>,
    config: AppConfig,
  ) {
    this.targetPolicy = webhookTargetPolicy(config.webhooks);
  }

  async create(tenant: TenantContext, body: CreateWebhookRequest): Promise<WebhookWithSecretView> {
    const url = await checkWebhookUrl(body.url, this.targetPolicy);
    const events = normaliseEvents(body.events);
    const key = generateSecretKey();
    // Serialises concurrent creates of one tenant for the limit check (transaction-scoped).
    await this.txHost.tx.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 8))`, [
      tenant.tenantId,
    ]);
    const [{ count }] = await this.txHost.tx.query<{ count: number }[]>(
      `SELECT count(*)::int AS count FROM webhook_subscriptions
        WHERE tenant_id = $1 AND deleted_at IS NULL`,
      [tenant.tenantId],
    );
    if (count >= MAX_SUBSCRIPTIONS) {
      throw AppError.conflict(
        'WEBHOOK_LIMIT_REACHED',
        `A tenant has at most ${MAX_SUBSCRIPTIONS} webhook subscriptions; delete one first.`,
      );
    }
    // A new subscription receives the events written from now on: the cursor starts at the
    // tenant's last sequence (replays of the past are what GET /events is for).
    const [row] = await this.txHost.tx.query<WebhookRow[]>(
      `INSERT INTO webhook_subscriptions
         (tenant_id, url, event_types, description, secret, delivered_sequence, created_by)
       VALUES ($1, $2, $3, $4, $5,
               COALESCE((SELECT last_sequence FROM event_sequences WHERE tenant_id = $1), 0), $6)
       RETURNING ${WEBHOOK_COLUMNS}`,
      [tenant.tenantId, url, events, body.description ?? null, key, tenant.actor],
    );
    return { ...toWebhookView(row), secret: formatSecret(key) };
  }

  async list(tenant: TenantContext): Promise<WebhookList> {
    const rows = await this.txHost.tx.query<WebhookRow[]>(
      `SELECT ${WEBHOOK_COLUMNS} FROM webhook_subscriptions
        WHERE tenant_id = $1 AND deleted_at IS NULL
        ORDER BY created_at, id`,
      [tenant.tenantId],
    );
    return { webhooks: rows.map(toWebhookView) };
  }

  async findOne(tenant: TenantContext, id: string): Promise<WebhookView> {
    const [row] = await this.txHost.tx.query<WebhookRow[]>(
      `SELECT ${WEBHOOK_COLUMNS} FROM webhook_subscriptions
        WHERE tenant_id = $1 AND id = $2 AND deleted_at IS NULL`,
      [tenant.tenantId, id],
    );
    if (!row) throw webhookNotFound(id);
    return toWebhookView(row);
  }

  async update(
    tenant: TenantContext,
    id: string,
    body: UpdateWebhookRequest,
  ): Promise<WebhookView> {
    const url = body.url === undefined ? null : await checkWebhookUrl(body.url, this.targetPolicy);
    const events = body.events === undefined ? null : normaliseEvents(body.events);
    // Re-enabling clears the failure state: the first undelivered event is tried at once.
    const [row] = await this.txHost.tx.query<WebhookRow[]>(
      `WITH changed AS (UPDATE webhook_subscriptions SET
         url = COALESCE($3::text, url),
         event_types = COALESCE($4::text[], event_types),
         description = CASE WHEN $5::boolean THEN $6::text ELSE description END,
         enabled = COALESCE($7::boolean, enabled),
         disabled_reason = CASE WHEN $7 IS NULL THEN disabled_reason
                                WHEN $7 THEN NULL ELSE 'DISABLED_BY_USER' END,
         disabled_at = CASE WHEN $7 IS NULL THEN disabled_at
                            WHEN $7 THEN NULL ELSE COALESCE(disabled_at, now()) END,
         failing_attempts = CASE WHEN $7 AND NOT enabled THEN 0 ELSE failing_attempts END,
         next_attempt_at = CASE WHEN $7 AND NOT enabled THEN NULL ELSE next_attempt_at END,
         updated_at = now()
       WHERE tenant_id = $1 AND id = $2 AND deleted_at IS NULL
       RETURNING *)
       SELECT ${WEBHOOK_COLUMNS} FROM changed`,
      [
        tenant.tenantId,
        id,
        url,
        events,
        body.description !== undefined,
        body.description ?? null,
        body.enabled ?? null,
      ],
    );
    if (!row) throw webhookNotFound(id);
    return toWebhookView(row);
  }

  /** Deliveries stop; the subscription and its delivery log are kept, out of sight. */
  async remove(tenant: TenantContext, id: string): Promise<void> {
    const [row] = await this.txHost.tx.query<{ id: string }[]>(
      `WITH deleted AS (
         UPDATE webhook_subscriptions SET deleted_at = now(), enabled = false, updated_at = now()
          WHERE tenant_id = $1 AND id = $2 AND deleted_at IS NULL
          RETURNING id)
       SELECT id FROM deleted`,
      [tenant.tenantId, id],
    );
    if (!row) throw webhookNotFound(id);
  }

  /** A new secret, shown once; the previous one keeps signing for 24 h (contract §8). */
  async rotateSecret(tenant: TenantContext, id: string): Promise<WebhookWithSecretView> {
    const key = generateSecretKey();
    const [row] = await this.txHost.tx.query<WebhookRow[]>(
      `WITH rotated AS (UPDATE webhook_subscriptions SET
         previous_secret = secret,
         previous_secret_expires_at = now() + interval '${ROTATION_OVERLAP}',
         secret = $3,
         updated_at = now()
       WHERE tenant_id = $1 AND id = $2 AND deleted_at IS NULL
       RETURNING *)
       SELECT ${WEBHOOK_COLUMNS} FROM rotated`,
      [tenant.tenantId, id, key],
    );
    if (!row) throw webhookNotFound(id);
    return { ...toWebhookView(row), secret: formatSecret(key) };
  }

  async deliveries(
    tenant: TenantContext,
    id: string,
    query: DeliveriesQuery,
  ): Promise<WebhookDeliveryPage> {
    const { after, limit } = parseDeliveriesQuery(query);
    await this.findOne(tenant, id);
    const rows = await this.txHost.tx.query<DeliveryRow[]>(
      `SELECT id::text AS id, event_id, event_sequence::text AS event_sequence, event_type, attempt,
              outcome, status_code, duration_ms, error, attempted_at, next_retry_at
         FROM webhook_deliveries
        WHERE tenant_id = $1 AND subscription_id = $2 AND id > $3::bigint
        ORDER BY webhook_deliveries.id LIMIT $4`,
      [tenant.tenantId, id, String(after), limit],
    );
    const deliveries = rows.map((r) => ({
      id: Number(r.id),
      eventId: r.event_id,
      eventSequence: Number(r.event_sequence),
      eventType: r.event_type,
      attempt: r.attempt,
      outcome: r.outcome,
      statusCode: r.status_code,
      durationMs: r.duration_ms,
      error: r.error,
      attemptedAt: r.attempted_at.toISOString(),
      nextRetryAt: r.next_retry_at?.toISOString() ?? null,
    }));
    return { deliveries, nextAfter: deliveries.at(-1)?.id ?? after };
  }
}

export const webhookNotFound = (id: string) =>
  AppError.notFound('WEBHOOK_NOT_FOUND', `Webhook subscription ${id} was not found.`);

/** `["*"]` stands alone: "*" with other types would be ambiguous. */
function normaliseEvents(events: string[]): string[] {
  if (events.includes(ALL_EVENTS) && events.length > 1) {
    throw AppError.validation(
      [{ field: 'events', message: 'use ["*"] alone, or list event types' }],
      'The request is not valid: events: use ["*"] alone, or list event types.',
    );
  }
  return events;
}

function toWebhookView(row: WebhookRow): WebhookView {
  return {
    id: row.id,
    url: row.url,
    events: row.event_types,
    description: row.description,
    enabled: row.enabled,
    disabledReason: row.disabled_reason,
    disabledAt: row.disabled_at?.toISOString() ?? null,
    deliveredThrough: Number(row.delivered_sequence),
    failingAttempts: row.failing_attempts,
    nextAttemptAt: row.next_attempt_at?.toISOString() ?? null,
    lastError: row.last_error,
    previousSecretExpiresAt: row.previous_secret_expires_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
    createdBy: row.created_by,
    updatedAt: row.updated_at.toISOString(),
  };
}

function parseDeliveriesQuery(query: DeliveriesQuery): { after: number; limit: number } {
  const errors: FieldError[] = [];
  const parsed = parseCursorQuery(query, DELIVERIES_LIMITS, errors);
  refuseInvalidQuery(errors);
  return parsed;
}
