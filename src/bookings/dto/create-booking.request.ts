import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsBoolean,
  IsOptional,
  IsString,
  IsUUID,
  MaxLength,
  registerDecorator,
  ValidationArguments,
} from 'class-validator';
import Decimal from 'decimal.js';
import {
  IsLocalDate,
  IsMoneyAmount,
  IsNotBlank,
  MAX_MONEY_AMOUNT,
} from '@/common/field-validators';

/** The largest carpet area the column holds (numeric(10,2)). */
export const MAX_CARPET_AREA_SQM = '99999999.99';

/** Why `value` is not a carpet area (a number > 0 with at most two decimals), or null. */
export function carpetAreaProblem(value: unknown): string | null {
  if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a number';
  // String(n) is what the client wrote for a number this small (see moneyAmountProblem).
  const area = new Decimal(String(value));
  if (area.decimalPlaces() > 2) return 'must have at most 2 decimal places';
  if (area.lte(0)) return 'must be greater than 0';
  if (area.gt(MAX_CARPET_AREA_SQM)) return `must not exceed ${MAX_CARPET_AREA_SQM}`;
  return null;
}

function IsCarpetArea() {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isCarpetArea',
      target: target.constructor,
      propertyName,
      validator: {
        validate: (value: unknown) => carpetAreaProblem(value) === null,
        defaultMessage: (args: ValidationArguments) =>
          `${args.property} ${carpetAreaProblem(args.value) ?? 'is not a valid area'}`,
      },
    });
}

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

  @ApiPropertyOptional({
    description:
      'Carpet area of the unit in square metres: a number > 0 with at most two decimals, or null (unknown: the booking is STANDARD for GST).',
    example: 58.5,
    minimum: 0.01,
    nullable: true,
    type: Number,
  })
  @IsOptional()
  @IsCarpetArea()
  carpetAreaSqm?: number | null;

  @ApiPropertyOptional({
    description:
      'Whether the unit is in a metropolitan city (Bengaluru, Chennai, Delhi NCR, Hyderabad, Kolkata, Mumbai region): affordable up to 60 m² there, 90 m² elsewhere. Default (and null) false.',
    example: true,
    nullable: true,
    type: Boolean,
  })
  @IsOptional()
  @IsBoolean()
  metroCity?: boolean | null;

  @ApiPropertyOptional({
    description:
      'The whole consideration is received after the completion certificate, so no GST (gstClass EXEMPT). Default (and null) false.',
    example: false,
    nullable: true,
    type: Boolean,
  })
  @IsOptional()
  @IsBoolean()
  gstExempt?: boolean | null;

  @ApiPropertyOptional({
    description: "The buyer's address as printed on tax invoices; 1 to 500 characters, or null.",
    nullable: true,
    type: String,
    minLength: 1,
    maxLength: 500,
    example: 'Flat 7, Sea Breeze, Carter Road, Bandra West, Mumbai 400050',
  })
  @IsOptional()
  @IsString()
  @IsNotBlank()
  @MaxLength(500)
  buyerAddress?: string | null;

  @ApiPropertyOptional({
    description:
      "The buyer's GSTIN when registered for GST (trimmed and upper-cased, then checked: else 400 GSTIN_INVALID), or null.",
    nullable: true,
    type: String,
    example: '27AAPFU0939F1ZV',
  })
  @IsOptional()
  @IsString()
  buyerGstin?: string | null;

  @ApiPropertyOptional({
    description:
      'Date of the allotment (YYYY-MM-DD), not before bookingDate (else 400 VALIDATION_FAILED); left out or null: bookingDate.',
    format: 'date',
    nullable: true,
    type: String,
    example: '2026-12-01',
  })
  @IsOptional()
  @IsLocalDate()
  allotmentDate?: string | null;
}
