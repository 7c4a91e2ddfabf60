import { ApiProperty } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsString,
  IsUUID,
  MaxLength,
} from 'class-validator';
import { IsNotBlank } from '@/common/field-validators';

/** At most this many receipts in one manual match (a payment over many dues has at most 100). */
export const MAX_MATCH_RECEIPTS = 100;

export class MatchBankLineRequest {
  @ApiProperty({
    description: `The receipts the line accounts for (1 to ${MAX_MATCH_RECEIPTS}, distinct): their amounts must add up to the line's.`,
    type: [String],
    format: 'uuid',
    minItems: 1,
    maxItems: MAX_MATCH_RECEIPTS,
    example: ['e7d6c5b4-a3f2-4e1d-9c0b-8a7f6e5d4c3b'],
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_MATCH_RECEIPTS)
  @ArrayUnique()
  @IsUUID(undefined, { each: true })
  receipts: string[];
}

export class BankLineReasonRequest {
  @ApiProperty({
    description: "Why (kept in the line's history); 1 to 500 characters.",
    example: 'Bank interest for the quarter',
    minLength: 1,
    maxLength: 500,
  })
  @IsString()
  @IsNotBlank()
  @MaxLength(500)
  reason: string;
}
