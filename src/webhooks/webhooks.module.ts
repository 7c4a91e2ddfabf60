import { Module } from '@nestjs/common';
import { WebhookBatchDelivery } from './webhook-batch-delivery';
import { WebhookDispatcher } from './webhook-dispatcher.service';
import { WebhooksController } from './webhooks.controller';
import { WebhooksService } from './webhooks.service';

/** Webhook subscriptions (managed in tenant transactions) and their delivery workers. */
@Module({
  controllers: [WebhooksController],
  providers: [WebhooksService, WebhookDispatcher, WebhookBatchDelivery],
  exports: [WebhookDispatcher],
})
export class WebhooksModule {}
