import { ApiProperty } from '@nestjs/swagger';

export class CollectionHoldView {
  @ApiProperty({ format: 'uuid' })
  id: string;
  @ApiProperty({ format: 'uuid' })
  booking: string;
  @ApiProperty({ example: 'Buyer disputes the slab demand' })
  reason: string;
  @ApiProperty({ format: 'date', description: 'The day it was created.' })
  from: string;
  @ApiProperty({
    format: 'date',
    nullable: true,
    type: String,
    description: 'The last day it covers; null: until ended (ending sets it to that day).',
  })
  until: string | null;
  @ApiProperty({ example: 'priya.sharma' })
  createdBy: string;
  @ApiProperty({ nullable: true, type: String, description: 'Who ended it; null while not ended.' })
  endedBy: string | null;
}
