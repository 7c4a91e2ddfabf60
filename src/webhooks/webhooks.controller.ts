import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { RequireScopes } from '@/http/auth/auth.decorators';
import { ApiProblems } from '@/http/errors/api-problems';
import { uuidPipe } from '@/http/errors/uuid.pipe';
import { Idempotent } from '@/http/idempotency/idempotency.interceptor';
import { ApiIdParam } from '@/http/swagger';
import { ApiCursorQuery } from '@/http/cursor-query';
import { TenantContext } from '@/common/tenant-context';
import { Tenant } from '@/http/tenancy/tenant.decorator';
import {
  CreateWebhookRequest,
  UpdateWebhookRequest,
  WebhookDeliveryPage,
  WebhookList,
  WebhookView,
  WebhookWithSecretView,
} from './dto/webhook.dto';
import {
  DeliveriesQuery,
  DELIVERIES_LIMITS,
  MAX_SUBSCRIPTIONS,
  WebhooksService,
} from './webhooks.service';

const NOT_FOUND = {
  status: 404,
  code: 'WEBHOOK_NOT_FOUND',
  detail: 'Webhook subscription 9b8a7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d was not found.',
};
const URL_REFUSED = {
  status: 400,
  code: 'WEBHOOK_URL_FORBIDDEN',
  detail:
    'url resolves to 10.0.0.12, a loopback, private or link-local address; allowed only with WEBHOOK_ALLOW_PRIVATE=true.',
};
const URL_ERRORS =
  '400 VALIDATION_FAILED naming the field (not http/https, http in production, a user:password part, unknown event types, "*" with other types), 400 WEBHOOK_URL_UNRESOLVABLE (the host does not resolve within 2 s), 400 WEBHOOK_URL_FORBIDDEN (loopback, private, link-local and similar addresses, unless WEBHOOK_ALLOW_PRIVATE=true)';

@ApiTags('webhooks')
@Controller('webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Post()
  @HttpCode(201)
  @RequireScopes('webhooks:write')
  @Idempotent()
  @ApiOperation({
    summary: 'Subscribe a URL to events.',
    description: `Every event of the listed types written from now on is POSTed to url, in sequence order, as the JSON of GET /events, with the Standard Webhooks headers Webhook-Id (the event id, the same on every attempt), Webhook-Timestamp and Webhook-Signature (v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">, keyed by the secret's bytes). A 2xx within 10 s is success; anything else is retried with exponential backoff and jitter for about 24 h (first retry within about 10 s), later events waiting behind it; then the delivery is FAILED and the subscription disabled. The secret is shown only in this response. At most ${MAX_SUBSCRIPTIONS} subscriptions per tenant. Errors: ${URL_ERRORS}, 409 WEBHOOK_LIMIT_REACHED.`,
  })
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
  @ApiProblems(URL_REFUSED, {
    status: 409,
    code: 'WEBHOOK_LIMIT_REACHED',
    detail: 'A tenant has at most 100 webhook subscriptions; delete one first.',
  })
  create(
    @Tenant() tenant: TenantContext,
    @Body() body: CreateWebhookRequest,
  ): Promise<WebhookWithSecretView> {
    return this.webhooks.create(tenant, body);
  }

  @Get()
  @RequireScopes('webhooks:write')
  @ApiOperation({
    summary: "The tenant's webhook subscriptions.",
    description: 'Oldest first, without secrets; deleted subscriptions are not listed.',
  })
  @ApiOkResponse({ type: WebhookList })
  list(@Tenant() tenant: TenantContext): Promise<WebhookList> {
    return this.webhooks.list(tenant);
  }

  @Get(':id')
  @RequireScopes('webhooks:write')
  @ApiOperation({
    summary: 'One webhook subscription.',
    description:
      "Where its deliveries stand: deliveredThrough, failingAttempts, nextAttemptAt, lastError, and why it is disabled. Another tenant's subscription is 404.",
  })
  @ApiIdParam('Subscription id.')
  @ApiOkResponse({ type: WebhookView })
  @ApiProblems(NOT_FOUND)
  findOne(
    @Tenant() tenant: TenantContext,
    @Param('id', uuidPipe('id')) id: string,
  ): Promise<WebhookView> {
    return this.webhooks.findOne(tenant, id);
  }

  @Patch(':id')
  @RequireScopes('webhooks:write')
  @ApiOperation({
    summary: 'Change a webhook subscription.',
    description: `Any of url, events, description (null clears it) and enabled. enabled=false stops deliveries (disabledReason DISABLED_BY_USER); enabled=true resumes from the first event not yet delivered, at once, with a fresh retry schedule. Errors: ${URL_ERRORS}, 404 WEBHOOK_NOT_FOUND.`,
  })
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
  @ApiProblems(URL_REFUSED, NOT_FOUND)
  update(
    @Tenant() tenant: TenantContext,
    @Param('id', uuidPipe('id')) id: string,
    @Body() body: UpdateWebhookRequest,
  ): Promise<WebhookView> {
    return this.webhooks.update(tenant, id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  @RequireScopes('webhooks:write')
  @ApiOperation({
    summary: 'Delete a webhook subscription.',
    description:
      'No event committed after the delete is delivered to it. Its delivery log is kept but no longer readable through the API. Errors: 404 WEBHOOK_NOT_FOUND.',
  })
  @ApiIdParam('Subscription id.')
  @ApiNoContentResponse({ description: 'Deleted.' })
  @ApiProblems(NOT_FOUND)
  remove(@Tenant() tenant: TenantContext, @Param('id', uuidPipe('id')) id: string): Promise<void> {
    return this.webhooks.remove(tenant, id);
  }

  @Post(':id/rotate-secret')
  @HttpCode(200)
  @RequireScopes('webhooks:write')
  @ApiOperation({
    summary: 'Rotate the signing secret.',
    description:
      'Returns a new secret, shown only here. For 24 h deliveries carry two signatures in Webhook-Signature (new and previous secret, space-separated), so receivers can switch without losing a delivery. Errors: 404 WEBHOOK_NOT_FOUND.',
  })
  @ApiIdParam('Subscription id.')
  @ApiOkResponse({ type: WebhookWithSecretView })
  @ApiProblems(NOT_FOUND)
  rotateSecret(
    @Tenant() tenant: TenantContext,
    @Param('id', uuidPipe('id')) id: string,
  ): Promise<WebhookWithSecretView> {
    return this.webhooks.rotateSecret(tenant, id);
  }

  @Get(':id/deliveries')
  @RequireScopes('webhooks:write')
  @ApiOperation({
    summary: 'Delivery attempts of a subscription.',
    description:
      'Every attempt, oldest first, with status code, duration, error and next retry. Page with after = the previous page nextAfter. Errors: 400 VALIDATION_FAILED naming after or limit, 404 WEBHOOK_NOT_FOUND.',
  })
  @ApiIdParam('Subscription id.')
  @ApiCursorQuery(
    'Return attempts with a higher id (default 0: from the first).',
    DELIVERIES_LIMITS,
  )
  @ApiOkResponse({ type: WebhookDeliveryPage })
  @ApiProblems(
    {
      status: 400,
      code: 'VALIDATION_FAILED',
      detail: 'The query is not valid: limit must be an integer from 1 to 200.',
    },
    NOT_FOUND,
  )
  deliveries(
    @Tenant() tenant: TenantContext,
    @Param('id', uuidPipe('id')) id: string,
    @Query() query: DeliveriesQuery,
  ): Promise<WebhookDeliveryPage> {
    return this.webhooks.deliveries(tenant, id, query);
  }
}
