import { ApiProperty } from '@nestjs/swagger';
import { EVENT_TYPES } from '@/platform/outbox/outbox.service';
import type { DeliveryRow, WebhookRow } from '@/webhooks/webhooks.sql';
import { MAX_DESCRIPTION_LENGTH, SUBSCRIBABLE } from './webhook.request';

export class WebhookView {
  @ApiProperty({
    description: 'Subscription id.',
    format: 'uuid',
    example: '9b8a7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
  })
  id: string;
  @ApiProperty({ description: 'Target URL.', example: 'https://erp.example.com/hooks/finance' })
  url: string;
  @ApiProperty({
    description: 'Subscribed event types, or ["*"].',
    type: String,
    isArray: true,
    enum: [...SUBSCRIBABLE],
    example: ['receipt.recorded', 'receipt.cancelled', 'receipt.bounced'],
  })
  events: string[];
  @ApiProperty({
    description: 'What the subscription is for.',
    example: 'ERP ledger sync',
    maxLength: MAX_DESCRIPTION_LENGTH,
    nullable: true,
    type: String,
  })
  description: string | null;
  @ApiProperty({ description: 'Whether events are being delivered.', example: true })
  enabled: boolean;
  @ApiProperty({
    description:
      'Why it is disabled: DISABLED_BY_USER (PATCH enabled=false) or FAILING (an event failed every attempt of WEBHOOK_RETRY_SCHEDULE, about 24 h); null while enabled.',
    nullable: true,
    type: String,
    example: null,
  })
  disabledReason: string | null;
  @ApiProperty({
    description: 'When it was disabled.',
    format: 'date-time',
    nullable: true,
    type: String,
    example: null,
  })
  disabledAt: string | null;
  @ApiProperty({
    type: 'integer',
    description:
      'Every event up to this sequence has been delivered (or was not subscribed); the next one is delivered next. Starts at the last event of the tenant when the subscription is created.',
    example: 1041,
  })
  deliveredThrough: number;
  @ApiProperty({
    type: 'integer',
    description:
      'Failed attempts of the next event so far (0 when deliveries are succeeding). Later events wait behind it.',
    example: 0,
  })
  failingAttempts: number;
  @ApiProperty({
    description: 'When the failing event is retried; null when nothing is waiting for a retry.',
    format: 'date-time',
    nullable: true,
    type: String,
    example: null,
  })
  nextAttemptAt: string | null;
  @ApiProperty({
    description: 'The error of the last failed attempt, if the next event is failing.',
    nullable: true,
    type: String,
    example: null,
  })
  lastError: string | null;
  @ApiProperty({
    description:
      'After a secret rotation, the previous secret also signs until this time (24 h); null otherwise.',
    format: 'date-time',
    nullable: true,
    type: String,
    example: null,
  })
  previousSecretExpiresAt: string | null;
  @ApiProperty({
    description: 'When it was created.',
    format: 'date-time',
    example: '2026-11-24T10:15:30.123Z',
  })
  createdAt: string;
  @ApiProperty({ description: 'Who created it (token actor).', example: 'priya.sharma' })
  createdBy: string;
  @ApiProperty({
    description: 'When it was last changed.',
    format: 'date-time',
    example: '2026-11-24T10:15:30.123Z',
  })
  updatedAt: string;
}

export class WebhookWithSecretView extends WebhookView {
  @ApiProperty({
    description:
      'The signing secret: whsec_ + base64 of 32 random bytes (the HMAC-SHA256 key is those bytes). Shown only in this response; store it now.',
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwMfKQ9r8GKYo=',
  })
  secret: string;
}

export class WebhookList {
  @ApiProperty({ type: [WebhookView], description: 'Oldest first; at most 100.' })
  webhooks: WebhookView[];
}

export class WebhookDeliveryView {
  @ApiProperty({
    type: 'integer',
    description: 'Attempt id, increasing; page with after.',
    example: 311,
  })
  id: number;
  @ApiProperty({
    description: 'The event (also the Webhook-Id header, the same on every attempt).',
    format: 'uuid',
    example: '0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0',
  })
  eventId: string;
  @ApiProperty({ type: 'integer', description: 'The event sequence.', example: 1042 })
  eventSequence: number;
  @ApiProperty({ description: 'The event type.', enum: EVENT_TYPES, example: 'receipt.recorded' })
  eventType: string;
  @ApiProperty({
    type: 'integer',
    description: 'Attempt number for this event, from 1.',
    example: 1,
  })
  attempt: number;
  @ApiProperty({
    description:
      'SUCCEEDED (2xx within the timeout), RETRYING (failed, retried at nextRetryAt) or FAILED (the last attempt of the schedule failed; the subscription was disabled).',
    enum: ['SUCCEEDED', 'RETRYING', 'FAILED'],
    example: 'SUCCEEDED',
  })
  outcome: string;
  @ApiProperty({
    type: 'integer',
    description: "The receiver's HTTP status; null when no response came.",
    nullable: true,
    example: 200,
  })
  statusCode: number | null;
  @ApiProperty({ type: 'integer', description: 'Time to the response, ms.', example: 38 })
  durationMs: number;
  @ApiProperty({
    description: 'Why the attempt failed; null when it succeeded.',
    nullable: true,
    type: String,
    example: null,
  })
  error: string | null;
  @ApiProperty({
    description: 'When the attempt was made.',
    format: 'date-time',
    example: '2026-11-24T10:15:31.004Z',
  })
  attemptedAt: string;
  @ApiProperty({
    description: 'When the event is retried (RETRYING only).',
    format: 'date-time',
    nullable: true,
    type: String,
    example: null,
  })
  nextRetryAt: string | null;
}

export class WebhookDeliveryPage {
  @ApiProperty({ type: [WebhookDeliveryView], description: 'Oldest first.' })
  deliveries: WebhookDeliveryView[];
  @ApiProperty({
    type: 'integer',
    description: 'Send it back as after for the next page; equals after on an empty page.',
    example: 311,
  })
  nextAfter: number;
}

export function toWebhookView(row: WebhookRow): WebhookView {
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

export function toWebhookDeliveryView(row: DeliveryRow): WebhookDeliveryView {
  return {
    id: Number(row.id),
    eventId: row.event_id,
    eventSequence: Number(row.event_sequence),
    eventType: row.event_type,
    attempt: row.attempt,
    outcome: row.outcome,
    statusCode: row.status_code,
    durationMs: row.duration_ms,
    error: row.error,
    attemptedAt: row.attempted_at.toISOString(),
    nextRetryAt: row.next_retry_at?.toISOString() ?? null,
  };
}
