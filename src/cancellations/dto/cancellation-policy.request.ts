import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsOptional,
  Max,
  Min,
  registerDecorator,
  ValidateNested,
  ValidationArguments,
} from 'class-validator';
import Decimal from 'decimal.js';

export const CANCELLATION_RULES = ['MAHARERA_2022', 'PERCENT_OF_VALUE', 'BANDS'] as const;
export const MAX_BANDS = 10;
export const MAX_REFUND_DAYS = 365;

/** Why `value` is not a percent (a number from 0 to 100 with at most 2 decimals), or null. */
export function percentProblem(value: unknown): string | null {
  if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a number';
  // String(n) is what the client wrote for a number this small.
  const percent = new Decimal(String(value));
  if (percent.decimalPlaces() > 2) return 'must have at most 2 decimal places';
  if (percent.lt(0) || percent.gt(100)) return 'must be from 0 to 100';
  return null;
}

function IsPercent() {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isPercent',
      target: target.constructor,
      propertyName,
      validator: {
        validate: (value: unknown) => percentProblem(value) === null,
        defaultMessage: (args: ValidationArguments) =>
          `${args.property} ${percentProblem(args.value) ?? 'is not a valid percent'}`,
      },
    });
}

/** Why `bands` are not bands a policy may hold (their own fields are checked apart), or null. */
export function bandsProblem(bands: unknown, rule: unknown): string | null {
  if (bands === undefined || bands === null) {
    return rule === 'BANDS' ? 'must list 1 to 10 bands when rule is BANDS' : null;
  }
  if (!Array.isArray(bands)) return null;
  if (bands.length === 0 && rule === 'BANDS') return 'must list 1 to 10 bands when rule is BANDS';
  const days = bands.map((b: unknown) =>
    typeof b === 'object' && b !== null ? (b as { fromDay?: unknown }).fromDay : undefined,
  );
  if (days.length > 0 && days[0] !== 0) return 'must start with fromDay 0';
  for (let i = 1; i < days.length; i++) {
    const [before, day] = [days[i - 1], days[i]];
    if (typeof before === 'number' && typeof day === 'number' && day <= before) {
      return 'must have strictly increasing fromDay';
    }
  }
  return null;
}

function FitBands() {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'fitBands',
      target: target.constructor,
      propertyName,
      options: { always: true },
      constraints: [],
      validator: {
        validate: (value: unknown, args: ValidationArguments) =>
          bandsProblem(value, (args.object as { rule?: unknown }).rule) === null,
        defaultMessage: (args: ValidationArguments) =>
          `${args.property} ${bandsProblem(args.value, (args.object as { rule?: unknown }).rule) ?? 'are not valid'}`,
      },
    });
}

export class CancellationBandRequest {
  @ApiPropertyOptional({
    description:
      'The first day since allotment the band covers (0 for the first band; strictly increasing).',
    example: 0,
    minimum: 0,
    maximum: 36500,
  })
  @IsInt()
  @Min(0)
  @Max(36500)
  fromDay: number;

  @ApiPropertyOptional({
    description: 'What the developer may keep from that day: a percent of agreementValue.',
    example: 1.5,
    minimum: 0,
    maximum: 100,
  })
  @IsPercent()
  percent: number;
}

/**
 * PUT /tenant/cancellation-policy: the whole policy. Every field is optional and a field left out
 * (or null) takes its default, so a PUT replaces rather than merges.
 */
export class CancellationPolicyRequest {
  @ApiPropertyOptional({
    description:
      'How the cap on what the developer keeps is computed (default MAHARERA_2022: 0 % up to 15 days since allotment, 1 % to 30, 1.5 % to 60, 2 % from 61 of agreementValue; PERCENT_OF_VALUE: `percent` %; BANDS: the percent of the last band whose fromDay is on or before the day).',
    enum: CANCELLATION_RULES,
    example: 'MAHARERA_2022',
    nullable: true,
    type: String,
  })
  @IsOptional()
  @IsIn(CANCELLATION_RULES)
  rule?: (typeof CANCELLATION_RULES)[number] | null;

  @ApiPropertyOptional({
    description:
      'PERCENT_OF_VALUE: the percent of agreementValue kept (0 to 100, at most 2 decimals; default 10, the cap Haryana sets).',
    example: 10,
    nullable: true,
    type: Number,
  })
  @IsOptional()
  @IsPercent()
  percent?: number | null;

  @ApiPropertyOptional({
    description:
      'BANDS: 1 to 10 bands, the first from day 0, fromDay strictly increasing (required when rule is BANDS; default []).',
    type: [CancellationBandRequest],
    nullable: true,
    example: [
      { fromDay: 0, percent: 0 },
      { fromDay: 31, percent: 5 },
    ],
  })
  @FitBands()
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_BANDS)
  @ValidateNested({ each: true })
  @Type(() => CancellationBandRequest)
  bands?: CancellationBandRequest[] | null;

  @ApiPropertyOptional({
    description:
      'Days from requestedOn within which the refund is due (1 to 365; default 45, as the model agreement for sale says).',
    example: 45,
    nullable: true,
    type: Number,
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_REFUND_DAYS)
  refundDays?: number | null;
}

export const CANCELLATION_POLICY_EXAMPLES = {
  maharera: {
    summary: 'MahaRERA 2022 (the default)',
    value: { rule: 'MAHARERA_2022', refundDays: 45 },
  },
  haryana: { summary: 'Ten percent of value', value: { rule: 'PERCENT_OF_VALUE', percent: 10 } },
  bands: {
    summary: 'Own bands',
    value: {
      rule: 'BANDS',
      bands: [
        { fromDay: 0, percent: 0 },
        { fromDay: 31, percent: 2.5 },
        { fromDay: 91, percent: 5 },
      ],
      refundDays: 30,
    },
  },
};
