import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { IsNotBlank } from '@/common/field-validators';

export class CancelRecordRequest {
  @ApiProperty({
    description: 'Why it is cancelled (kept for audit); 1 to 500 characters.',
    example: 'Buyer withdrew from the booking',
    minLength: 1,
    maxLength: 500,
  })
  @IsString()
  @IsNotBlank()
  @MaxLength(500)
  reason: string;
}
