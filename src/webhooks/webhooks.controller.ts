import { CheckedWebhookTarget, ChecksWebhookTarget } from './webhook-target.guard';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiTags,
} from '@nestjs/swagger';
import { uuidPipe } from '@/http/errors/uuid.pipe';
import { ApiIdParam } from '@/http/swagger';
import { ApiCursorQuery } from '@/http/cursor-query';
import { Route } from '@/http/route.decorator';
import { TenantContext } from '@/common/tenant-context';
import { Tenant } from '@/http/tenancy/tenant.decorator';
import { CreateWebhookRequest, UpdateWebhookRequest } from './dto/webhook.request';
import {
  WebhookDeliveryPage,
  WebhookList,
  WebhookView,
  WebhookWithSecretView,
} from './dto/webhook.view';
import {
  WEBHOOK_LIMIT_REACHED,
  WEBHOOK_NOT_FOUND,
  WEBHOOK_URL_FORBIDDEN,
  WEBHOOK_URL_UNRESOLVABLE,
} from './webhooks.errors';
import {
  DeliveriesQuery,
  DELIVERIES_LIMITS,
  MAX_SUBSCRIPTIONS,
  WebhooksService,
} from './webhooks.service';
import { VALIDATION_FAILED } from '@/http/errors/validation';

/** The checks of a subscription URL (and event types), for the descriptions of create and change. */
const URL_CHECKS =
  'url and events are checked: http or https (https only in production), no user:password part, known event types, "*" alone (400 VALIDATION_FAILED naming the field); the host must resolve within 2 s and, unless WEBHOOK_ALLOW_PRIVATE=true, not to a loopback, private, link-local or similar address.';
const URL_PROBLEMS = [WEBHOOK_URL_UNRESOLVABLE, WEBHOOK_URL_FORBIDDEN];

@ApiTags('webhooks')
@Controller('webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Post()
  @HttpCode(201)
  @Route({
    summary: 'Subscribe a URL to events.',
    description: `Every event of the listed types written from now on is POSTed to url, in sequence order, as the JSON of GET /events, with the Standard Webhooks headers Webhook-Id (the event id, the same on every attempt), Webhook-Timestamp and Webhook-Signature (v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">, keyed by the secret's bytes). A 2xx within 10 s is success; anything else is retried with exponential backoff and jitter for about 24 h (first retry within about 10 s), later events waiting behind it; then the delivery is FAILED and the subscription disabled. The secret is shown only in this response. At most ${MAX_SUBSCRIPTIONS} subscriptions per tenant. ${URL_CHECKS}`,
    scopes: ['webhooks:write'],
    problems: [...URL_PROBLEMS, WEBHOOK_LIMIT_REACHED],
    // The stored response (a replay shows it again) keeps the secret sealed, not in clear.
    idempotent: { secretFields: ['secret'] },
  })
  @ChecksWebhookTarget()
  @ApiBody({
    type: CreateWebhookRequest,
    examples: {
      receipts: {
        summary: 'Receipts for the ERP',
        value: {
          url: 'https://erp.example.com/hooks/finance',
          events: ['receipt.recorded', 'receipt.cancelled', 'receipt.bounced'],
          description: 'ERP ledger sync',
        },
      },
      everything: {
        summary: 'Every event',
        value: { url: 'https://crm.example.com/finance-events', events: ['*'] },
      },
    },
  })
  @ApiCreatedResponse({
    type: WebhookWithSecretView,
    description: 'The subscription and its secret.',
  })
  create(
    @Tenant() tenant: TenantContext,
    @Body() body: CreateWebhookRequest,
    @CheckedWebhookTarget() url: string | undefined,
  ): Promise<WebhookWithSecretView> {
    return this.webhooks.create(tenant, body, url);
  }

  @Get()
  @Route({
    summary: "The tenant's webhook subscriptions.",
    description: 'Oldest first, without secrets; deleted subscriptions are not listed.',
    scopes: ['webhooks:write'],
  })
  @ApiOkResponse({ type: WebhookList })
  list(@Tenant() tenant: TenantContext): Promise<WebhookList> {
    return this.webhooks.list(tenant);
  }

  @Get(':id')
  @Route({
    summary: 'One webhook subscription.',
    description:
      "Where its deliveries stand: deliveredThrough, failingAttempts, nextAttemptAt, lastError, and why it is disabled. Another tenant's subscription is 404.",
    scopes: ['webhooks:write'],
    problems: [WEBHOOK_NOT_FOUND],
  })
  @ApiIdParam('Subscription id.')
  @ApiOkResponse({ type: WebhookView })
  findOne(
    @Tenant() tenant: TenantContext,
    @Param('id', uuidPipe('id')) id: string,
  ): Promise<WebhookView> {
    return this.webhooks.findOne(tenant, id);
  }

  @Patch(':id')
  @Route({
    summary: 'Change a webhook subscription.',
    description: `Any of url, events, description (null clears it) and enabled. enabled=false stops deliveries (disabledReason DISABLED_BY_USER); enabled=true resumes from the first event not yet delivered, at once, with a fresh retry schedule. ${URL_CHECKS}`,
    scopes: ['webhooks:write'],
    problems: [...URL_PROBLEMS, WEBHOOK_NOT_FOUND],
  })
  @ChecksWebhookTarget()
  @ApiIdParam('Subscription id.')
  @ApiBody({
    type: UpdateWebhookRequest,
    examples: {
      enable: { summary: 'Resume after a failure', value: { enabled: true } },
      move: {
        summary: 'New URL and types',
        value: { url: 'https://erp.example.com/hooks/v2', events: ['*'] },
      },
    },
  })
  @ApiOkResponse({ type: WebhookView })
  update(
    @Tenant() tenant: TenantContext,
    @Param('id', uuidPipe('id')) id: string,
    @Body() body: UpdateWebhookRequest,
    @CheckedWebhookTarget() url: string | undefined,
  ): Promise<WebhookView> {
    return this.webhooks.update(tenant, id, body, url);
  }

  @Delete(':id')
  @HttpCode(204)
  @Route({
    summary: 'Delete a webhook subscription.',
    description:
      'No event committed after the delete is delivered to it. Its delivery log is kept but no longer readable through the API.',
    scopes: ['webhooks:write'],
    problems: [WEBHOOK_NOT_FOUND],
  })
  @ApiIdParam('Subscription id.')
  @ApiNoContentResponse({ description: 'Deleted.' })
  remove(@Tenant() tenant: TenantContext, @Param('id', uuidPipe('id')) id: string): Promise<void> {
    return this.webhooks.remove(tenant, id);
  }

  @Post(':id/rotate-secret')
  @HttpCode(200)
  @Route({
    summary: 'Rotate the signing secret.',
    description:
      'Returns a new secret, shown only here. For 24 h deliveries carry two signatures in Webhook-Signature (new and previous secret, space-separated), so receivers can switch without losing a delivery.',
    scopes: ['webhooks:write'],
    problems: [WEBHOOK_NOT_FOUND],
  })
  @ApiIdParam('Subscription id.')
  @ApiOkResponse({ type: WebhookWithSecretView })
  rotateSecret(
    @Tenant() tenant: TenantContext,
    @Param('id', uuidPipe('id')) id: string,
  ): Promise<WebhookWithSecretView> {
    return this.webhooks.rotateSecret(tenant, id);
  }

  @Get(':id/deliveries')
  @Route({
    summary: 'Delivery attempts of a subscription.',
    description:
      'Every attempt, oldest first, with status code, duration, error and next retry. Page with after = the previous page nextAfter. A bad after or limit is 400 VALIDATION_FAILED naming it.',
    scopes: ['webhooks:write'],
    problems: [VALIDATION_FAILED, WEBHOOK_NOT_FOUND],
  })
  @ApiIdParam('Subscription id.')
  @ApiCursorQuery(
    'Return attempts with a higher id (default 0: from the first).',
    DELIVERIES_LIMITS,
  )
  @ApiOkResponse({ type: WebhookDeliveryPage })
  deliveries(
    @Tenant() tenant: TenantContext,
    @Param('id', uuidPipe('id')) id: string,
    @Query() query: DeliveriesQuery,
  ): Promise<WebhookDeliveryPage> {
    return this.webhooks.deliveries(tenant, id, query);
  }
}
