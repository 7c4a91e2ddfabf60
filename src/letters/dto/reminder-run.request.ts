import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { IsLocalDate } from '@/common/field-validators';

/** POST /reminders/run. */
export class ReminderRunRequest {
  @ApiPropertyOptional({
    format: 'date',
    description: "The business date (default today in the tenant's zone; not after today).",
    example: '2026-11-26',
  })
  @IsOptional()
  @IsLocalDate()
  asOf?: string;
}
