import { validationFailed } from '@/http/errors/validation';
import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { randomUUID } from 'node:crypto';
import { SecretsKeyring } from '@/platform/secrets/secrets-keyring';
import { RoutingTransactionAdapter } from '@/platform/replicas/routing-transaction-adapter';
import { FieldError } from '@/common/app-error';
import { TenantContext } from '@/common/tenant-context';
import { parseCursorQuery, refuseInvalidQuery } from '@/http/cursor-query';
import { ALL_EVENTS, CreateWebhookRequest, UpdateWebhookRequest } from './dto/webhook.request';
import {
  toWebhookDeliveryView,
  toWebhookView,
  WebhookDeliveryPage,
  WebhookList,
  WebhookView,
  WebhookWithSecretView,
} from './dto/webhook.view';
import { webhookSecretContext } from './webhook-secrets';
import { formatSecret, generateSecretKey } from './webhook-signature';
import { WEBHOOK_LIMIT_REACHED, WEBHOOK_NOT_FOUND } from './webhooks.errors';
import {
  COUNT_SUBSCRIPTIONS_SQL,
  countSubscriptionsParams,
  DELETE_SUBSCRIPTION_SQL,
  deleteSubscriptionParams,
  DELIVERIES_PAGE_SQL,
  deliveriesPageParams,
  DeliveryRow,
  INSERT_SUBSCRIPTION_SQL,
  insertSubscriptionParams,
  LIST_SUBSCRIPTIONS_SQL,
  listSubscriptionsParams,
  LOCK_TENANT_SUBSCRIPTIONS_SQL,
  lockTenantSubscriptionsParams,
  ROTATE_SECRET_SQL,
  rotateSecretParams,
  SUBSCRIPTION_BY_ID_SQL,
  subscriptionByIdParams,
  UPDATE_SUBSCRIPTION_SQL,
  updateSubscriptionParams,
  WebhookRow,
} from './webhooks.sql';

/** Subscriptions per tenant: a list without paging stays small, and so does the dispatch work. */
export const MAX_SUBSCRIPTIONS = 100;
export const DELIVERIES_LIMITS = Object.freeze({ defaultLimit: 50, maxLimit: 200 });

export interface DeliveriesQuery {
  after?: unknown;
  limit?: unknown;
}

/**
 * Managing webhook subscriptions (README.md, Webhooks), in the request's tenant transaction like
 * every other route. Delivery itself is WebhookDispatcher's and WebhookBatchDelivery's.
 */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly txHost: TransactionHost<RoutingTransactionAdapter>,
    private readonly keyring: SecretsKeyring,
  ) {}

  /** `url`: body.url as WebhookTargetGuard checked it, before the transaction. */
  async create(
    tenant: TenantContext,
    body: CreateWebhookRequest,
    url: string | undefined,
  ): Promise<WebhookWithSecretView> {
    if (url === undefined) throw uncheckedTarget();
    const events = normaliseEvents(body.events);
    const key = generateSecretKey();
    const tenantId = tenant.tenantId;
    const id = randomUUID();
    await this.txHost.tx.query(
      LOCK_TENANT_SUBSCRIPTIONS_SQL,
      lockTenantSubscriptionsParams({ tenantId }),
    );
    const [{ count }] = await this.txHost.tx.query<{ count: number }[]>(
      COUNT_SUBSCRIPTIONS_SQL,
      countSubscriptionsParams({ tenantId }),
    );
    if (count >= MAX_SUBSCRIPTIONS) throw WEBHOOK_LIMIT_REACHED.error(MAX_SUBSCRIPTIONS);
    const [row] = await this.txHost.tx.query<WebhookRow[]>(
      INSERT_SUBSCRIPTION_SQL,
      insertSubscriptionParams({
        tenantId,
        id,
        url,
        eventTypes: events,
        description: body.description ?? null,
        sealedSecret: this.keyring.seal(key, webhookSecretContext(tenantId, id)),
        createdBy: tenant.actor,
      }),
    );
    return { ...toWebhookView(row), secret: formatSecret(key) };
  }

  async list(tenant: TenantContext): Promise<WebhookList> {
    const rows = await this.txHost.tx.query<WebhookRow[]>(
      LIST_SUBSCRIPTIONS_SQL,
      listSubscriptionsParams({ tenantId: tenant.tenantId }),
    );
    return { webhooks: rows.map(toWebhookView) };
  }

  async findOne(tenant: TenantContext, id: string): Promise<WebhookView> {
    const [row] = await this.txHost.tx.query<WebhookRow[]>(
      SUBSCRIPTION_BY_ID_SQL,
      subscriptionByIdParams({ tenantId: tenant.tenantId, id }),
    );
    if (!row) throw WEBHOOK_NOT_FOUND.error(id);
    return toWebhookView(row);
  }

  /** `checkedUrl`: body.url as WebhookTargetGuard checked it, before the transaction. */
  async update(
    tenant: TenantContext,
    id: string,
    body: UpdateWebhookRequest,
    checkedUrl: string | undefined,
  ): Promise<WebhookView> {
    if (body.url !== undefined && checkedUrl === undefined) throw uncheckedTarget();
    const url = checkedUrl ?? null;
    const events = body.events === undefined ? null : normaliseEvents(body.events);
    const [row] = await this.txHost.tx.query<WebhookRow[]>(
      UPDATE_SUBSCRIPTION_SQL,
      updateSubscriptionParams({
        tenantId: tenant.tenantId,
        id,
        url,
        eventTypes: events,
        description: body.description,
        enabled: body.enabled ?? null,
      }),
    );
    if (!row) throw WEBHOOK_NOT_FOUND.error(id);
    return toWebhookView(row);
  }

  /** Deliveries stop; the subscription and its delivery log are kept, out of sight. */
  async remove(tenant: TenantContext, id: string): Promise<void> {
    const [row] = await this.txHost.tx.query<{ id: string }[]>(
      DELETE_SUBSCRIPTION_SQL,
      deleteSubscriptionParams({ tenantId: tenant.tenantId, id }),
    );
    if (!row) throw WEBHOOK_NOT_FOUND.error(id);
  }

  /** A new secret, shown once; the previous one keeps signing for 24 h (ROTATION_OVERLAP). */
  async rotateSecret(tenant: TenantContext, id: string): Promise<WebhookWithSecretView> {
    const key = generateSecretKey();
    const tenantId = tenant.tenantId;
    const [row] = await this.txHost.tx.query<WebhookRow[]>(
      ROTATE_SECRET_SQL,
      rotateSecretParams({
        tenantId,
        id,
        sealedSecret: this.keyring.seal(key, webhookSecretContext(tenantId, id)),
      }),
    );
    if (!row) throw WEBHOOK_NOT_FOUND.error(id);
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
      DELIVERIES_PAGE_SQL,
      deliveriesPageParams({ tenantId: tenant.tenantId, subscriptionId: id, after, limit }),
    );
    const deliveries = rows.map(toWebhookDeliveryView);
    return { deliveries, nextAfter: deliveries.at(-1)?.id ?? after };
  }
}

/** A route that takes a url without ChecksWebhookTarget: a programming error, never input. */
function uncheckedTarget(): Error {
  return new Error('the webhook url was not checked before the transaction (ChecksWebhookTarget)');
}

/** `["*"]` stands alone: "*" with other types would be ambiguous. */
function normaliseEvents(events: string[]): string[] {
  if (events.includes(ALL_EVENTS) && events.length > 1) {
    throw validationFailed([{ field: 'events', message: 'use ["*"] alone, or list event types' }]);
  }
  return events;
}

function parseDeliveriesQuery(query: DeliveriesQuery): { after: number; limit: number } {
  const errors: FieldError[] = [];
  const parsed = parseCursorQuery(query, DELIVERIES_LIMITS, errors);
  refuseInvalidQuery(errors);
  return parsed;
}
