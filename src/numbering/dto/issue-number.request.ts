import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, Matches } from 'class-validator';

export class IssueNumberRequest {
  @ApiPropertyOptional({
    description: "The document's date (YYYY-MM-DD); defaults to today in the tenant's time zone.",
    format: 'date',
    example: '2026-11-22',
  })
  @IsOptional()
  @Matches(/^\d{4}-\d{2}-\d{2}$/, { message: 'date must be YYYY-MM-DD' })
  date?: string;
}
