import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';
import {
  IsLocalDate,
  IsMoneyAmount,
  IsNotBlank,
  MAX_MONEY_AMOUNT,
} from '@/common/field-validators';

export class CreateBookingRequest {
  @ApiProperty({
    description: 'The unit (flat, villa, plot) booked: an id of the inventory system.',
    format: 'uuid',
    example: 'c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f',
  })
  @IsUUID()
  unit: string;

  @ApiPropertyOptional({
    description:
      "The unit's name as printed on receipts, statements and letters (e.g. Tower B – 1203); 1 to 100 characters, or null (documents then print the unit's id).",
    nullable: true,
    type: String,
    minLength: 1,
    maxLength: 100,
    example: 'Tower B – 1203',
  })
  @IsOptional()
  @IsString()
  @IsNotBlank()
  @MaxLength(100)
  unitName?: string | null;

  @ApiProperty({
    description: "The buyer's name as printed on demands and receipts; 1 to 200 characters.",
    example: 'Ananya Iyer',
    minLength: 1,
    maxLength: 200,
  })
  @IsString()
  @IsNotBlank()
  @MaxLength(200)
  buyerName: string;

  @ApiPropertyOptional({
    description: "The buyer's id in the customer system, if known.",
    format: 'uuid',
    nullable: true,
    type: String,
    example: '0d9c8b7a-6f5e-4d3c-9b2a-1f0e9d8c7b6a',
  })
  @IsOptional()
  @IsUUID()
  buyerId?: string | null;

  @ApiProperty({
    description:
      "Date of the booking (YYYY-MM-DD, the tenant's calendar); dates the booking number. Not after today nor before 2000-01-01 (else 400 VALIDATION_FAILED).",
    format: 'date',
    example: '2026-11-22',
  })
  @IsLocalDate()
  bookingDate: string;

  @ApiPropertyOptional({
    description: `The agreement's value: a number > 0 with at most two decimals (at most ${MAX_MONEY_AMOUNT}), or null. Demand letters carry the TDS note (section 194-IA) from 50,00,000 up.`,
    example: 8500000,
    minimum: 0.01,
    nullable: true,
    type: Number,
  })
  @IsOptional()
  @IsMoneyAmount()
  agreementValue?: number | null;
}
