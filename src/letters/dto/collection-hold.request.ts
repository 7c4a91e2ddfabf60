import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { IsLocalDate, IsNotBlank } from '@/common/field-validators';

export class CollectionHoldRequest {
  @ApiProperty({
    description: 'Why (a dispute, a pending loan); 1 to 500 characters.',
    example: 'Buyer disputes the slab demand',
  })
  @IsString()
  @IsNotBlank()
  @MaxLength(500)
  reason: string;

  @ApiPropertyOptional({
    description: 'The last day it covers (YYYY-MM-DD, not before today); none: until ended.',
    format: 'date',
    example: '2026-12-31',
    nullable: true,
    type: String,
  })
  @IsOptional()
  @IsLocalDate()
  until?: string | null;
}
