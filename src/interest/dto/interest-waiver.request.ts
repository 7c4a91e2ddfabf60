import { ApiProperty } from '@nestjs/swagger';
import { IsString, IsUUID, MaxLength } from 'class-validator';
import { IsMoneyAmount, IsNotBlank, MAX_MONEY_AMOUNT } from '@/common/field-validators';

export class InterestWaiverRequest {
  @ApiProperty({
    description: "The payer whose interest is waived (a payerId of the booking's splits).",
    format: 'uuid',
    example: '0d9c8b7a-6f5e-4d3c-9b2a-1f0e9d8c7b6a',
  })
  @IsUUID()
  payerId: string;

  @ApiProperty({
    description: `How much: > 0, at most two decimals (at most ${MAX_MONEY_AMOUNT}); not above the payer's interest due today (else 422 WAIVER_EXCEEDS_DUE).`,
    example: 2500,
    minimum: 0.01,
  })
  @IsMoneyAmount()
  amount: number;

  @ApiProperty({
    description: 'Why (kept with the waiver); not blank, at most 1000 characters.',
    example: 'Possession delayed by the developer',
    maxLength: 1000,
  })
  @IsString()
  @IsNotBlank()
  @MaxLength(1000)
  reason: string;
}
