import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
  registerDecorator,
  ValidateNested,
  ValidationArguments,
} from 'class-validator';
import { IsNotBlank } from '@/common/field-validators';
import { DEFAULT_PARTY_GROUP, DEFAULT_PARTY_LEDGER, PARTY_TOKENS } from '../vouchers';

/** Tally's ledger names are short; so are these. */
export const MAX_LEDGER_NAME = 100;

/** Why `value` is not a party ledger template, or null. */
export function partyTemplateProblem(value: unknown): string | null {
  if (typeof value !== 'string') return 'must be a string';
  if (!value.includes('{bookingNumber}')) {
    return 'must contain {bookingNumber} (one party ledger per booking)';
  }
  const unknown = (value.match(/\{[^}]*\}/g) ?? []).find(
    (t) => !(PARTY_TOKENS as readonly string[]).includes(t),
  );
  return unknown === undefined
    ? null
    : `has an unknown token ${unknown} (tokens: ${PARTY_TOKENS.join(', ')})`;
}

function IsPartyTemplate() {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isPartyTemplate',
      target: target.constructor,
      propertyName,
      validator: {
        validate: (value: unknown) => partyTemplateProblem(value) === null,
        defaultMessage: (args: ValidationArguments) =>
          `${args.property} ${partyTemplateProblem(args.value) ?? 'is not valid'}`,
      },
    });
}

/** The ledgers vouchers post to; each omitted (or null) one takes its default. */
export class BooksLedgersRequest {
  @ApiPropertyOptional({
    description:
      'Income of CONSTRUCTION demands (credited by Sales, debited by credit notes). 1 to 100 characters; omitted or null: "Sales - Construction".',
    example: 'Sales - Construction',
    nullable: true,
    type: String,
    minLength: 1,
    maxLength: MAX_LEDGER_NAME,
  })
  @IsOptional()
  @IsString()
  @IsNotBlank()
  @MaxLength(MAX_LEDGER_NAME)
  construction?: string | null;

  @ApiPropertyOptional({
    description:
      'Income of OTHER_CHARGES demands. 1 to 100 characters; omitted or null: "Other Charges".',
    example: 'Other Charges',
    nullable: true,
    type: String,
    minLength: 1,
    maxLength: MAX_LEDGER_NAME,
  })
  @IsOptional()
  @IsString()
  @IsNotBlank()
  @MaxLength(MAX_LEDGER_NAME)
  otherCharges?: string | null;

  @ApiPropertyOptional({
    description:
      'Income of INTEREST demands. 1 to 100 characters; omitted or null: "Interest on Delayed Payment".',
    example: 'Interest on Delayed Payment',
    nullable: true,
    type: String,
    minLength: 1,
    maxLength: MAX_LEDGER_NAME,
  })
  @IsOptional()
  @IsString()
  @IsNotBlank()
  @MaxLength(MAX_LEDGER_NAME)
  interest?: string | null;

  @ApiPropertyOptional({
    description:
      'Output CGST of invoices and credit notes. 1 to 100 characters; omitted or null: "Output CGST".',
    example: 'Output CGST',
    nullable: true,
    type: String,
    minLength: 1,
    maxLength: MAX_LEDGER_NAME,
  })
  @IsOptional()
  @IsString()
  @IsNotBlank()
  @MaxLength(MAX_LEDGER_NAME)
  cgst?: string | null;

  @ApiPropertyOptional({
    description:
      'Output SGST of invoices and credit notes. 1 to 100 characters; omitted or null: "Output SGST".',
    example: 'Output SGST',
    nullable: true,
    type: String,
    minLength: 1,
    maxLength: MAX_LEDGER_NAME,
  })
  @IsOptional()
  @IsString()
  @IsNotBlank()
  @MaxLength(MAX_LEDGER_NAME)
  sgst?: string | null;

  @ApiPropertyOptional({
    description:
      'Debited by TDS receipts. 1 to 100 characters; omitted or null: "TDS Receivable u/s 194-IA".',
    example: 'TDS Receivable u/s 194-IA',
    nullable: true,
    type: String,
    minLength: 1,
    maxLength: MAX_LEDGER_NAME,
  })
  @IsOptional()
  @IsString()
  @IsNotBlank()
  @MaxLength(MAX_LEDGER_NAME)
  tds?: string | null;

  @ApiPropertyOptional({
    description:
      'Debited by the interest paid with a refund. 1 to 100 characters; omitted or null: "Interest on Refunds".',
    example: 'Interest on Refunds',
    nullable: true,
    type: String,
    minLength: 1,
    maxLength: MAX_LEDGER_NAME,
  })
  @IsOptional()
  @IsString()
  @IsNotBlank()
  @MaxLength(MAX_LEDGER_NAME)
  refundInterest?: string | null;

  @ApiPropertyOptional({
    description:
      'Debited by GST that can no longer be credited (time-barred invoices). 1 to 100 characters; omitted or null: "GST Written Off".',
    example: 'GST Written Off',
    nullable: true,
    type: String,
    minLength: 1,
    maxLength: MAX_LEDGER_NAME,
  })
  @IsOptional()
  @IsString()
  @IsNotBlank()
  @MaxLength(MAX_LEDGER_NAME)
  gstNotRecoverable?: string | null;

  @ApiPropertyOptional({
    description:
      'Debited by non-cash receipts not realised into a bank account, credited by refunds when there is no collection account. 1 to 100 characters; omitted or null: "Bank".',
    example: 'Bank',
    nullable: true,
    type: String,
    minLength: 1,
    maxLength: MAX_LEDGER_NAME,
  })
  @IsOptional()
  @IsString()
  @IsNotBlank()
  @MaxLength(MAX_LEDGER_NAME)
  bank?: string | null;

  @ApiPropertyOptional({
    description:
      'Debited by CASH receipts, credited by CASH refunds. 1 to 100 characters; omitted or null: "Cash".',
    example: 'Cash',
    nullable: true,
    type: String,
    minLength: 1,
    maxLength: MAX_LEDGER_NAME,
  })
  @IsOptional()
  @IsString()
  @IsNotBlank()
  @MaxLength(MAX_LEDGER_NAME)
  cash?: string | null;
}

/**
 * PUT /tenant/books: the whole settings. Every field is optional and a field left out (or null)
 * takes its default, so a PUT replaces rather than merges.
 */
export class BooksSettingsRequest {
  @ApiPropertyOptional({
    description:
      "The Tally company the vouchers are imported into (SVCURRENTCOMPANY); 1 to 200 characters. Omitted or null: the tenant's name.",
    example: 'Skyline Developers Private Limited',
    nullable: true,
    type: String,
    minLength: 1,
    maxLength: 200,
  })
  @IsOptional()
  @IsString()
  @IsNotBlank()
  @MaxLength(200)
  company?: string | null;

  @ApiPropertyOptional({
    description: `The name of each booking's party ledger, a template of the tokens ${PARTY_TOKENS.join(', ')} ({unit}: the unit's name, else its id); it must contain {bookingNumber}. Omitted or null: "${DEFAULT_PARTY_LEDGER}".`,
    example: DEFAULT_PARTY_LEDGER,
    nullable: true,
    type: String,
    minLength: 1,
    maxLength: MAX_LEDGER_NAME,
  })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_LEDGER_NAME)
  @IsPartyTemplate()
  partyLedger?: string | null;

  @ApiPropertyOptional({
    description: `The group party ledgers are created under. Omitted or null: "${DEFAULT_PARTY_GROUP}".`,
    example: DEFAULT_PARTY_GROUP,
    nullable: true,
    type: String,
    minLength: 1,
    maxLength: MAX_LEDGER_NAME,
  })
  @IsOptional()
  @IsString()
  @IsNotBlank()
  @MaxLength(MAX_LEDGER_NAME)
  partyGroup?: string | null;

  @ApiPropertyOptional({
    description: 'The ledgers; each omitted (or null) one takes its default.',
    type: BooksLedgersRequest,
    nullable: true,
  })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => BooksLedgersRequest)
  ledgers?: BooksLedgersRequest | null;
}

export const BOOKS_SETTINGS_EXAMPLES = {
  named: {
    summary: 'Ledgers as the accountant named them',
    value: {
      company: 'Skyline Developers Pvt Ltd (2026-27)',
      partyLedger: '{bookingNumber} {buyerName}',
      partyGroup: 'Sundry Debtors',
      ledgers: { construction: 'Flat Sales', bank: 'HDFC Collection A/c' },
    },
  },
  defaults: { summary: 'The defaults', value: {} },
};
