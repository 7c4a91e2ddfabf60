import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsBoolean,
  IsIn,
  IsOptional,
  IsString,
  MaxLength,
} from 'class-validator';
import { EVENT_TYPES } from '@/platform/outbox/outbox.service';

/** `["*"]` subscribes to every event type, including types added later. */
export const ALL_EVENTS = '*';
export const SUBSCRIBABLE = [ALL_EVENTS, ...EVENT_TYPES] as const;
export const MAX_URL_LENGTH = 2048;
export const MAX_DESCRIPTION_LENGTH = 500;

const URL_DOC = {
  description: `Where the events are POSTed: http or https (https only in production), at most ${MAX_URL_LENGTH} characters. Loopback, private and link-local addresses are refused unless the service runs with WEBHOOK_ALLOW_PRIVATE=true (the default outside production); host names must resolve (2 s).`,
  example: 'https://erp.example.com/hooks/finance',
  maxLength: MAX_URL_LENGTH,
};
const EVENTS_DOC = {
  description: `Event types to deliver, or ["*"] for all: ${EVENT_TYPES.join(', ')}.`,
  type: String,
  isArray: true,
  enum: [...SUBSCRIBABLE],
  minItems: 1,
  maxItems: SUBSCRIBABLE.length,
  example: ['receipt.recorded', 'receipt.cancelled', 'receipt.bounced'],
};
const DESCRIPTION_DOC = {
  description: `What the subscription is for, at most ${MAX_DESCRIPTION_LENGTH} characters.`,
  example: 'ERP ledger sync',
  maxLength: MAX_DESCRIPTION_LENGTH,
  nullable: true,
  type: String,
};

export class CreateWebhookRequest {
  @ApiProperty(URL_DOC)
  @IsString()
  @MaxLength(MAX_URL_LENGTH)
  url: string;

  @ApiProperty(EVENTS_DOC)
  @ArrayMinSize(1)
  @ArrayMaxSize(SUBSCRIBABLE.length)
  @ArrayUnique()
  @IsIn(SUBSCRIBABLE, { each: true })
  events: string[];

  @ApiPropertyOptional(DESCRIPTION_DOC)
  @IsOptional()
  @IsString()
  @MaxLength(MAX_DESCRIPTION_LENGTH)
  description?: string | null;
}

export class UpdateWebhookRequest {
  @ApiPropertyOptional(URL_DOC)
  @IsOptional()
  @IsString()
  @MaxLength(MAX_URL_LENGTH)
  url?: string;

  @ApiPropertyOptional(EVENTS_DOC)
  @IsOptional()
  @ArrayMinSize(1)
  @ArrayMaxSize(SUBSCRIBABLE.length)
  @ArrayUnique()
  @IsIn(SUBSCRIBABLE, { each: true })
  events?: string[];

  @ApiPropertyOptional(DESCRIPTION_DOC)
  @IsOptional()
  @IsString()
  @MaxLength(MAX_DESCRIPTION_LENGTH)
  description?: string | null;

  @ApiPropertyOptional({
    description:
      'false stops deliveries; true (re-)enables the subscription, which resumes from the first event it has not delivered, retrying it at once.',
    example: true,
  })
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;
}

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
  @ApiProperty({ ...DESCRIPTION_DOC, description: 'What the subscription is for.' })
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
