import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsNotBlank } from '@/common/field-validators';

/** PATCH /bank-accounts/{id}: what may change once an account exists (its number may not). */
export class UpdateBankAccountRequest {
  @ApiPropertyOptional({
    description: 'What the desk calls the account; 1 to 200 characters.',
    example: 'HDFC collections (Skyline Heights)',
    maxLength: 200,
  })
  @IsOptional()
  @IsString()
  @IsNotBlank()
  @MaxLength(200)
  name?: string;

  @ApiPropertyOptional({
    description:
      "true: this becomes the tenant's collection account in its currency (the other one, if any, is cleared); false: it no longer is.",
    example: true,
  })
  @IsOptional()
  @IsBoolean()
  collection?: boolean;
}
