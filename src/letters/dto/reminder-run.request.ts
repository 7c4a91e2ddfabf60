import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { IsLocalDate } from '@/common/field-validators';

/** POST /reminders/run. */
export class ReminderRunRequest {
  @ApiPropertyOptional({
    format: 'date',
    description:
      "Today in the tenant's zone (the default): a run sends what is due now, so another date is 400 VALIDATION_FAILED (preview any date with GET /reminders/due?asOf=).",
    example: '2026-11-26',
  })
  @IsOptional()
  @IsLocalDate()
  asOf?: string;
}
