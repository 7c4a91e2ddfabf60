import { ApiProperty } from '@nestjs/swagger';
import { EVENT_TYPES } from '@/platform/outbox/outbox.service';

export class EventView {
  @ApiProperty({
    description: 'Event identifier (also the Webhook-Id of its deliveries).',
    format: 'uuid',
    example: '0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0',
  })
  id: string;
  @ApiProperty({
    type: 'integer',
    description: 'Per tenant, strictly increasing, without gaps visible to readers.',
    example: 42,
  })
  sequence: number;
  @ApiProperty({ description: 'What changed.', enum: EVENT_TYPES, example: 'receipt.recorded' })
  type: string;
  @ApiProperty({
    description: 'When the change was made (its transaction).',
    format: 'date-time',
    example: '2026-11-22T10:15:30.123Z',
  })
  occurredAt: string;
  @ApiProperty({
    description: "Who made the change: the token's preferred_username, else sub.",
    example: 'priya.sharma',
  })
  actor: string;
  @ApiProperty({
    description:
      'The record as its GET returns it after the change (a receipt, demand, booking or the tenant configuration).',
    type: 'object',
    additionalProperties: true,
    example: { id: 'e7d6c5b4-a3f2-4e1d-9c0b-8a7f6e5d4c3b', receiptNumber: 'RCT/26-27/00042' },
  })
  data: Record<string, unknown>;
}

export class EventPage {
  @ApiProperty({ type: [EventView], description: 'In sequence order.' })
  events: EventView[];
  @ApiProperty({
    type: 'integer',
    description:
      'Send it back as `after` for the next page. Equals `after` on an empty page; with `type`, the last sequence scanned, so filtered readers move on too.',
    example: 42,
  })
  nextAfter: number;
}
