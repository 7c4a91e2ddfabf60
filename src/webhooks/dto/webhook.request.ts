import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsOptional,
  IsString,
  MaxLength,
  ValidateIf,
} from 'class-validator';
import { EVENT_TYPES } from '@/platform/outbox/outbox.service';

/**
 * Validated unless left out: a PATCH leaves out what it keeps, and `null` is no value for these
 * fields (IsOptional would let null through to the service).
 */
const OmittedOrGiven = () => ValidateIf((_, value) => value !== undefined);

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
  @OmittedOrGiven()
  @IsString()
  @MaxLength(MAX_URL_LENGTH)
  url?: string;

  @ApiPropertyOptional(EVENTS_DOC)
  @OmittedOrGiven()
  @IsArray()
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
  @OmittedOrGiven()
  @IsBoolean()
  enabled?: boolean;
}
