import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  registerDecorator,
  ValidateNested,
  ValidationArguments,
} from 'class-validator';
import { IsLocalDate, IsNotBlank } from '@/common/field-validators';
import { DEFAULT_OTHER_CHARGES_SAC, INTEREST_TAX_MODES } from '@/gst/gst-tax';

export const MAX_ANNUAL_RETURNS = 100;
export const MONTH_PATTERN = /^[0-9]{4}-(0[1-9]|1[0-2])$/;
export const SAC_PATTERN = /^[0-9]{6}$/;

/** Why `value` is not a financial year written `2025-26` (April 2025 to March 2026), or null. */
export function financialYearProblem(value: unknown): string | null {
  const match = typeof value === 'string' ? /^([0-9]{4})-([0-9]{2})$/.exec(value) : null;
  if (!match) return 'must be a financial year written YYYY-YY, e.g. 2025-26';
  if ((Number(match[1]) + 1) % 100 !== Number(match[2])) {
    return `must name two consecutive years (${match[1]}-${String((Number(match[1]) + 1) % 100).padStart(2, '0')})`;
  }
  return null;
}

function IsFinancialYear() {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isFinancialYear',
      target: target.constructor,
      propertyName,
      validator: {
        validate: (value: unknown) => financialYearProblem(value) === null,
        defaultMessage: (args: ValidationArguments) =>
          `${args.property} ${financialYearProblem(args.value) ?? 'is not valid'}`,
      },
    });
}

/** The financial year listed twice in `returns`, or null (one filing per year). */
export function repeatedFinancialYear(returns: unknown): string | null {
  if (!Array.isArray(returns)) return null;
  const years = returns
    .map((r: unknown) =>
      typeof r === 'object' && r !== null
        ? (r as { financialYear?: unknown }).financialYear
        : undefined,
    )
    .filter((y): y is string => typeof y === 'string');
  return years.find((y, i) => years.indexOf(y) !== i) ?? null;
}

function OneReturnPerYear() {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'oneReturnPerYear',
      target: target.constructor,
      propertyName,
      validator: {
        validate: (value: unknown) => repeatedFinancialYear(value) === null,
        defaultMessage: (args: ValidationArguments) =>
          `${args.property} must not list financial year ${repeatedFinancialYear(args.value)} twice`,
      },
    });
}

export class AnnualReturnRequest {
  @ApiPropertyOptional({
    description: 'The financial year (April to March) of the annual return, written YYYY-YY.',
    example: '2025-26',
    pattern: '^[0-9]{4}-[0-9]{2}$',
  })
  @IsFinancialYear()
  financialYear: string;

  @ApiPropertyOptional({
    description:
      'The day the annual return was filed (YYYY-MM-DD; not after today): credit notes for that year are refused from the next day.',
    format: 'date',
    example: '2026-11-15',
  })
  @IsLocalDate()
  filedOn: string;
}

/**
 * PUT /tenant/gst: the whole settings. Every field is optional and a field left out (or null)
 * takes its default, so a PUT replaces rather than merges; stateCode is read-only and ignored, so
 * a client can PUT back what it got.
 */
export class GstSettingsRequest {
  @ApiPropertyOptional({
    description:
      'Whether demands are taxed and invoiced (default false). true needs gstin, legalName and address (else 422 GST_SETTINGS_INCOMPLETE).',
    example: true,
    nullable: true,
    type: Boolean,
  })
  @IsOptional()
  @IsBoolean()
  enabled?: boolean | null;

  @ApiPropertyOptional({
    description:
      "The tenant's GSTIN (15 characters, trimmed and upper-cased; the check character is verified: else 400 GSTIN_INVALID), or null.",
    nullable: true,
    type: String,
    example: '27AAPFU0939F1ZV',
  })
  @IsOptional()
  @IsString()
  gstin?: string | null;

  @ApiPropertyOptional({
    description:
      'The legal name of the registered person, as printed on tax invoices; 1 to 200 characters, or null.',
    nullable: true,
    type: String,
    minLength: 1,
    maxLength: 200,
    example: 'Skyline Developers Private Limited',
  })
  @IsOptional()
  @IsString()
  @IsNotBlank()
  @MaxLength(200)
  legalName?: string | null;

  @ApiPropertyOptional({
    description: 'The registered address printed on tax invoices; 1 to 500 characters, or null.',
    nullable: true,
    type: String,
    minLength: 1,
    maxLength: 500,
    example: '4th Floor, Skyline House, Senapati Bapat Marg, Lower Parel, Mumbai 400013',
  })
  @IsOptional()
  @IsString()
  @IsNotBlank()
  @MaxLength(500)
  address?: string | null;

  @ApiPropertyOptional({
    description: "Read-only (the GSTIN's first two digits); ignored on input.",
    nullable: true,
    type: String,
    example: '27',
    readOnly: true,
  })
  @IsOptional()
  stateCode?: unknown;

  @ApiPropertyOptional({
    description: `The SAC printed on OTHER_CHARGES invoice lines: 6 digits (default ${DEFAULT_OTHER_CHARGES_SAC}).`,
    example: DEFAULT_OTHER_CHARGES_SAC,
    pattern: SAC_PATTERN.source,
    nullable: true,
    type: String,
  })
  @IsOptional()
  @IsString()
  @Matches(SAC_PATTERN, { message: 'otherChargesSac must be 6 digits' })
  otherChargesSac?: string | null;

  @ApiPropertyOptional({
    description:
      'How interest on late payment is taxed: AS_PRINCIPAL (default: as the construction it is charged on) or STANDARD_18 (9 % + 9 %, no land deduction).',
    enum: INTEREST_TAX_MODES,
    example: 'AS_PRINCIPAL',
    nullable: true,
  })
  @IsOptional()
  @IsIn(INTEREST_TAX_MODES)
  interestTax?: string | null;

  @ApiPropertyOptional({
    description:
      'The last month (YYYY-MM) whose return is filed, or null: no tax invoice is dated in or before it.',
    nullable: true,
    type: String,
    pattern: MONTH_PATTERN.source,
    example: '2026-09',
  })
  @IsOptional()
  @IsString()
  @Matches(MONTH_PATTERN, { message: 'lockedThrough must be a month written YYYY-MM' })
  lockedThrough?: string | null;

  @ApiPropertyOptional({
    description: `Annual returns filed, at most ${MAX_ANNUAL_RETURNS}, one per financial year (default none); kept oldest year first.`,
    type: [AnnualReturnRequest],
    maxItems: MAX_ANNUAL_RETURNS,
    nullable: true,
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_ANNUAL_RETURNS)
  @ValidateNested({ each: true })
  @Type(() => AnnualReturnRequest)
  @OneReturnPerYear()
  annualReturns?: AnnualReturnRequest[] | null;
}

export const GST_SETTINGS_EXAMPLES = {
  registered: {
    summary: 'Registered in Maharashtra, September 2026 filed',
    value: {
      enabled: true,
      gstin: '27AAPFU0939F1ZV',
      legalName: 'Skyline Developers Private Limited',
      address: '4th Floor, Skyline House, Senapati Bapat Marg, Lower Parel, Mumbai 400013',
      otherChargesSac: '999799',
      interestTax: 'AS_PRINCIPAL',
      lockedThrough: '2026-09',
      annualReturns: [{ financialYear: '2025-26', filedOn: '2026-11-15' }],
    },
  },
  disabled: { summary: 'Not registered (the defaults)', value: { enabled: false } },
};
