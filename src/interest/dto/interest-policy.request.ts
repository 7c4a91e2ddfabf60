import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  Max,
  Min,
  registerDecorator,
  ValidateNested,
  ValidationArguments,
} from 'class-validator';
import Decimal from 'decimal.js';
import { DEMAND_TYPES, PAYER_TYPES } from '@/common/domain/enums';
import { IsLocalDate } from '@/common/field-validators';

/** Demand types a policy may cover: every one but INTEREST (interest never bears interest). */
export const COVERABLE_DEMAND_TYPES = DEMAND_TYPES.filter((t) => t !== 'INTEREST');

export const MAX_GRACE_DAYS = 90;
export const MAX_RATE_PERCENT = 36;
export const MAX_RATES = 100;

/** Why `value` is not an annual rate (a number from 0 to 36 with at most 4 decimals), or null. */
export function ratePercentProblem(value: unknown): string | null {
  if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a number';
  // String(n) is what the client wrote for a number this small (see moneyAmountProblem).
  const rate = new Decimal(String(value));
  if (rate.decimalPlaces() > 4) return 'must have at most 4 decimal places';
  if (rate.lt(0) || rate.gt(MAX_RATE_PERCENT)) return `must be from 0 to ${MAX_RATE_PERCENT}`;
  return null;
}

function IsRatePercent() {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isRatePercent',
      target: target.constructor,
      propertyName,
      validator: {
        validate: (value: unknown) => ratePercentProblem(value) === null,
        defaultMessage: (args: ValidationArguments) =>
          `${args.property} ${ratePercentProblem(args.value) ?? 'is not a valid rate'}`,
      },
    });
}

/** Why `rates` do not fit the rest of the policy, or null (their own fields are checked apart). */
export function ratesProblem(rates: unknown, enabled: unknown): string | null {
  if (!Array.isArray(rates)) return null;
  if (enabled === true && rates.length === 0) return 'must list at least one rate when enabled';
  const dates = rates
    .map((r: unknown) =>
      typeof r === 'object' && r !== null ? (r as RateRequest).effectiveFrom : undefined,
    )
    .filter((d): d is string => typeof d === 'string');
  const repeated = dates.find((d, i) => dates.indexOf(d) !== i);
  return repeated === undefined ? null : `must not have two rates with effectiveFrom ${repeated}`;
}

function RatesFitPolicy() {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'ratesFitPolicy',
      target: target.constructor,
      propertyName,
      validator: {
        validate: (value: unknown, args: ValidationArguments) =>
          ratesProblem(value, (args.object as InterestPolicyRequest).enabled) === null,
        defaultMessage: (args: ValidationArguments) =>
          `${args.property} ${ratesProblem(args.value, (args.object as InterestPolicyRequest).enabled) ?? 'are not valid'}`,
      },
    });
}

export class RateRequest {
  @ApiProperty({
    description:
      'First day this rate is in force (YYYY-MM-DD); it stays in force until the next rate.',
    format: 'date',
    example: '2025-04-01',
  })
  @IsLocalDate()
  effectiveFrom: string;

  @ApiProperty({
    description: `Simple annual interest in percent, from 0 to ${MAX_RATE_PERCENT}, at most 4 decimals (charged per day at rate / 100 / 365).`,
    example: 10.85,
    minimum: 0,
    maximum: MAX_RATE_PERCENT,
  })
  @IsRatePercent()
  annualRatePercent: number;
}

/** PUT /tenant/interest-policy: the whole policy (every field required). */
export class InterestPolicyRequest {
  @ApiProperty({
    description: 'Whether interest accrues. Enabled needs at least one rate.',
    example: true,
  })
  @IsBoolean()
  enabled: boolean;

  @ApiProperty({
    description: `Days after the due date that bear no interest (0 to ${MAX_GRACE_DAYS}): interest runs from dueDate + graceDays + 1.`,
    type: 'integer',
    minimum: 0,
    maximum: MAX_GRACE_DAYS,
    example: 0,
  })
  @IsInt()
  @Min(0)
  @Max(MAX_GRACE_DAYS)
  graceDays: number;

  @ApiProperty({
    description: `The rates over time, in any order (stored oldest first), at most ${MAX_RATES}, no two with one effectiveFrom; at least one when enabled. Days before the first effectiveFrom bear no interest. A change applies to every computation, past periods included; interest already demanded stays demanded.`,
    type: [RateRequest],
    maxItems: MAX_RATES,
  })
  @IsArray()
  @ArrayMaxSize(MAX_RATES)
  @ValidateNested({ each: true })
  @Type(() => RateRequest)
  @RatesFitPolicy()
  rates: RateRequest[];

  @ApiProperty({
    description:
      'Demand types that bear interest when paid late; never INTEREST (interest bears no interest).',
    enum: COVERABLE_DEMAND_TYPES,
    isArray: true,
    example: ['MILESTONE', 'MANUAL'],
  })
  @IsArray()
  @ArrayUnique()
  @IsIn(COVERABLE_DEMAND_TYPES, {
    each: true,
    message: `each value in demandTypes must be one of ${COVERABLE_DEMAND_TYPES.join(', ')} (INTEREST is never covered: interest bears no interest)`,
  })
  demandTypes: string[];

  @ApiProperty({
    description: 'Payer types whose splits bear interest when paid late.',
    enum: PAYER_TYPES,
    isArray: true,
    example: ['BUYER', 'CO_BUYER'],
  })
  @IsArray()
  @ArrayUnique()
  @IsIn(PAYER_TYPES, { each: true })
  payerTypes: string[];
}

export const INTEREST_POLICY_EXAMPLES = {
  maharashtra: {
    summary: 'SBI highest MCLR + 2 %, changing over time',
    value: {
      enabled: true,
      graceDays: 0,
      rates: [
        { effectiveFrom: '2025-04-01', annualRatePercent: 10.85 },
        { effectiveFrom: '2025-11-01', annualRatePercent: 10.65 },
      ],
      demandTypes: ['MILESTONE', 'MANUAL'],
      payerTypes: ['BUYER', 'CO_BUYER'],
    },
  },
  disabled: {
    summary: 'No interest (the default)',
    value: {
      enabled: false,
      graceDays: 0,
      rates: [],
      demandTypes: ['MILESTONE', 'MANUAL'],
      payerTypes: ['BUYER', 'CO_BUYER'],
    },
  },
};
