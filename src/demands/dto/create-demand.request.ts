import { CHARGE_TYPES, ChargeType } from '@/gst/gst-tax';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsOptional,
  IsString,
  IsUUID,
  MaxLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { DEMAND_TYPES, DemandType, PAYER_TYPES, PayerType } from '@/common/domain/enums';
import {
  IsLocalDate,
  IsMoneyAmount,
  IsNotBlank,
  MAX_MONEY_AMOUNT,
} from '@/common/field-validators';

export const MAX_SPLITS = 20;

export class DemandSplitRequest {
  @ApiProperty({ description: 'Who pays this part.', enum: PAYER_TYPES, example: 'BUYER' })
  @IsIn(PAYER_TYPES)
  payerType: PayerType;

  @ApiProperty({
    description: "The payer's id (buyer, co-buyer, lending bank...).",
    format: 'uuid',
    example: '0d9c8b7a-6f5e-4d3c-9b2a-1f0e9d8c7b6a',
  })
  @IsUUID()
  payerId: string;

  @ApiPropertyOptional({
    description:
      "The payer's name as printed on receipts, statements and letters (e.g. the lending bank's); 1 to 200 characters, or null (a BUYER's then prints as the booking's buyerName, any other as its payer type's label).",
    nullable: true,
    type: String,
    minLength: 1,
    maxLength: 200,
    example: 'HDFC Bank, Andheri branch',
  })
  @IsOptional()
  @IsString()
  @IsNotBlank()
  @MaxLength(200)
  payerName?: string | null;

  @ApiProperty({
    description: `This payer's share: a number > 0 with at most two decimals (at most ${MAX_MONEY_AMOUNT}).`,
    example: 150000.5,
    minimum: 0.01,
  })
  @IsMoneyAmount()
  amount: number;
}

export class CreateDemandRequest {
  @ApiProperty({
    description:
      'The booking the demand is raised on; its unit and buyer name are copied to the demand.',
    format: 'uuid',
    example: '5b4a3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d',
  })
  @IsUUID()
  booking: string;

  @ApiPropertyOptional({
    description:
      'The construction milestone demanded (required when demandType is MILESTONE), or null.',
    format: 'uuid',
    nullable: true,
    type: String,
    example: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d',
  })
  @ValidateIf(
    (o: CreateDemandRequest) =>
      o.demandType === 'MILESTONE' || (o.milestone !== undefined && o.milestone !== null),
  )
  @IsUUID(undefined, {
    message: 'milestone must be a UUID (required when demandType is MILESTONE)',
  })
  milestone?: string | null;

  @ApiProperty({
    description:
      'MILESTONE (raised on a construction milestone), MANUAL, or INTEREST (interest on late payment).',
    enum: DEMAND_TYPES,
    example: 'MILESTONE',
  })
  @IsIn(DEMAND_TYPES)
  demandType: DemandType;

  @ApiPropertyOptional({
    description:
      'What is charged, which decides the GST rate while GST is enabled (docs/gst.md): CONSTRUCTION (the default), OTHER_CHARGES (maintenance, legal, club, meter: taxed at 9 % + 9 % on their own), or INTEREST, which is always and only the charge type of an INTEREST demand (another value with an INTEREST demand, or INTEREST with another type, is 400 VALIDATION_FAILED).',
    enum: CHARGE_TYPES,
    example: 'CONSTRUCTION',
  })
  @IsOptional()
  @IsIn(CHARGE_TYPES)
  chargeType?: ChargeType;

  @ApiProperty({
    description: `Amount demanded: a number > 0 with at most two decimals (at most ${MAX_MONEY_AMOUNT}); the splits must add up to it exactly.`,
    example: 250000,
    minimum: 0.01,
  })
  @IsMoneyAmount()
  totalAmount: number;

  @ApiProperty({
    description:
      'Date by which it is due (YYYY-MM-DD); not before demandDate (else 400 VALIDATION_FAILED).',
    format: 'date',
    example: '2026-12-15',
  })
  @IsLocalDate()
  dueDate: string;

  @ApiPropertyOptional({
    description:
      "Date of the demand (YYYY-MM-DD); defaults to today in the tenant's time zone. Dates the demand and split numbers. Not before the booking's bookingDate (else 400 VALIDATION_FAILED).",
    format: 'date',
    example: '2026-11-22',
  })
  @IsOptional()
  @IsLocalDate()
  demandDate?: string;

  @ApiPropertyOptional({
    description: 'Free text, may be empty (the default); at most 1000 characters.',
    example: 'Plinth completion, tower B',
    maxLength: 1000,
  })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  remarks?: string;

  @ApiProperty({
    description: `1 to ${MAX_SPLITS} splits, one per payer share; their amounts must add up to totalAmount exactly (else 422 DEMAND_SPLITS_MISMATCH).`,
    type: [DemandSplitRequest],
    minItems: 1,
    maxItems: MAX_SPLITS,
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_SPLITS)
  @ValidateNested({ each: true })
  @Type(() => DemandSplitRequest)
  splits: DemandSplitRequest[];
}
