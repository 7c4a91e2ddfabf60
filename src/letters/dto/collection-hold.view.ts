import { ApiProperty } from '@nestjs/swagger';

export class CollectionHoldView {
  @ApiProperty({
    description: 'Hold id.',
    format: 'uuid',
    example: '7e6d5c4b-3a2f-4e1d-8c9b-0a1f2e3d4c5b',
  })
  id: string;
  @ApiProperty({
    description: 'The booking held.',
    format: 'uuid',
    example: '5b4a3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d',
  })
  booking: string;
  @ApiProperty({ description: 'Why.', example: 'Buyer disputes the slab demand' })
  reason: string;
  @ApiProperty({ format: 'date', description: 'The day it was created.', example: '2026-11-26' })
  from: string;
  @ApiProperty({
    format: 'date',
    nullable: true,
    type: String,
    description: 'The last day it covers; null: until ended (ending sets it to that day).',
    example: '2026-12-31',
  })
  until: string | null;
  @ApiProperty({ description: 'Who created it (the actor).', example: 'priya.sharma' })
  createdBy: string;
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'Who ended it; null while not ended.',
    example: null,
  })
  endedBy: string | null;
}

/** One hold of GET /bookings/{id}/collection-holds. */
export class ListedCollectionHoldView {
  @ApiProperty({
    description: 'Hold id.',
    format: 'uuid',
    example: '7e6d5c4b-3a2f-4e1d-8c9b-0a1f2e3d4c5b',
  })
  id: string;
  @ApiProperty({ description: 'Why.', example: 'Buyer disputes the slab demand' })
  reason: string;
  @ApiProperty({ format: 'date', description: 'The day it was created.', example: '2026-11-26' })
  from: string;
  @ApiProperty({
    format: 'date',
    nullable: true,
    type: String,
    description: 'The last day it covers; null: until ended (ending sets it to that day).',
    example: '2026-12-31',
  })
  until: string | null;
  @ApiProperty({
    format: 'date',
    nullable: true,
    type: String,
    description: "The day it was ended (DELETE), in the tenant's time zone; null while not ended.",
    example: null,
  })
  endedOn: string | null;
  @ApiProperty({ description: 'Who created it (the actor).', example: 'priya.sharma' })
  createdBy: string;
}

export class CollectionHoldsView {
  @ApiProperty({ type: [ListedCollectionHoldView], description: 'Newest first.' })
  holds: ListedCollectionHoldView[];
}
