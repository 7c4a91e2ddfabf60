import {
  CanActivate,
  createParamDecorator,
  ExecutionContext,
  Injectable,
  UseGuards,
} from '@nestjs/common';
import type { Request } from 'express';
import { AppConfig } from '@/platform/config/app-config';
import { MAX_URL_LENGTH } from './dto/webhook.request';
import { checkWebhookUrl, WebhookTargetPolicy, webhookTargetPolicy } from './webhook-target';

type WithTarget = Request & { webhookTarget?: string };

/**
 * Checks the body's `url` (resolving its host, up to RESOLVE_TIMEOUT_MS) as a guard: guards run
 * before the interceptors, so before the tenant transaction opens and takes a pooled connection.
 * A slow resolver then holds nothing of the database. A url that is not a string is left to the
 * body's validation (400); a refused one is the same 400 the service documents.
 */
@Injectable()
export class WebhookTargetGuard implements CanActivate {
  private readonly policy: WebhookTargetPolicy;

  constructor(config: AppConfig) {
    this.policy = webhookTargetPolicy(config.webhooks);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<WithTarget>();
    const url = (request.body as { url?: unknown } | undefined)?.url;
    if (typeof url === 'string' && url.length <= MAX_URL_LENGTH) {
      request.webhookTarget = await checkWebhookUrl(url, this.policy);
    }
    return true;
  }
}

/** The route's body url is checked before its transaction (WebhookTargetGuard). */
export const ChecksWebhookTarget = () => UseGuards(WebhookTargetGuard);

/** The url WebhookTargetGuard checked (normalised), or undefined when the body had none. */
export const CheckedWebhookTarget = createParamDecorator(
  (_: unknown, context: ExecutionContext): string | undefined =>
    context.switchToHttp().getRequest<WithTarget>().webhookTarget,
);
