import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsISO4217CurrencyCode,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
} from 'class-validator';
import { IsNotBlank } from '@/common/field-validators';
import { ACCOUNT_NUMBER } from '@/bank/account-number';

export const IFSC = /^[A-Z]{4}0[A-Z0-9]{6}$/;

/** Spaces and hyphens go; letters are compared in upper case. */
const compactAccountNumber = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.replace(/[\s-]/g, '').toUpperCase() : value;

export class CreateBankAccountRequest {
  @ApiProperty({
    description: 'What the desk calls the account; 1 to 200 characters.',
    example: 'HDFC collections (Skyline Heights)',
    maxLength: 200,
  })
  @IsString()
  @IsNotBlank()
  @MaxLength(200)
  name: string;

  @ApiProperty({
    description:
      'The account number or IBAN: 6 to 34 letters and digits once spaces and hyphens are removed (they are not stored). Unique in the tenant (else 409 BANK_ACCOUNT_EXISTS); shown masked but its last four characters.',
    example: '50200012345678',
  })
  @Transform(compactAccountNumber)
  @IsString()
  @Matches(ACCOUNT_NUMBER, {
    message: 'accountNumber must be 6 to 34 letters and digits (spaces and hyphens are removed)',
  })
  accountNumber: string;

  @ApiPropertyOptional({
    description: 'The branch IFSC: 4 letters, 0, then 6 letters or digits.',
    example: 'HDFC0001234',
    pattern: IFSC.source,
    nullable: true,
    type: String,
  })
  @IsOptional()
  @IsString()
  @Matches(IFSC, { message: 'ifsc must be 4 letters, 0, then 6 letters or digits (HDFC0001234)' })
  ifsc?: string | null;

  @ApiProperty({
    description:
      "ISO 4217 code of the account's currency. Statement amounts in another currency are refused; only accounts in the tenant's currency are matched to receipts.",
    example: 'INR',
  })
  @IsISO4217CurrencyCode()
  currency: string;

  @ApiPropertyOptional({
    description:
      'The account buyers pay into (default false). At most one per tenant and currency: setting it here clears it on the other account (a bank-account.updated event). Demand letters print the collection account in full.',
    example: true,
    default: false,
  })
  @IsOptional()
  @IsBoolean()
  collection?: boolean;
}
