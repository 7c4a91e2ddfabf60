import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsInt,
  IsString,
  Matches,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';

export const MAX_STEPS = 10;
/** Step names: what a notifier switches on (`OVERDUE_1`), so plain upper-case words. */
export const STEP_NAME = /^[A-Z][A-Z0-9_]{0,39}$/;

export class ReminderStepRequest {
  @ApiProperty({
    description: 'Unique in the policy: upper-case letters, digits and _, at most 40.',
    example: 'OVERDUE_1',
    pattern: STEP_NAME.source,
  })
  @IsString()
  @Matches(STEP_NAME, { message: 'name must be upper-case letters, digits and _ (at most 40)' })
  name: string;

  @ApiProperty({
    description: 'Days from the due date: negative before it, 0 on it.',
    minimum: -60,
    maximum: 365,
    example: 7,
  })
  @IsInt()
  @Min(-60)
  @Max(365)
  offsetDays: number;
}

/** PUT /tenant/reminder-policy: both fields required; unknown fields are refused. */
export class ReminderPolicyRequest {
  @ApiProperty({ description: 'false: no reminder is due for any split.', example: true })
  @IsBoolean()
  enabled: boolean;

  @ApiProperty({
    type: [ReminderStepRequest],
    description: `At most ${MAX_STEPS} steps with unique names (else 400 VALIDATION_FAILED).`,
  })
  @IsArray()
  @ArrayMaxSize(MAX_STEPS)
  @ValidateNested({ each: true })
  @Type(() => ReminderStepRequest)
  steps: ReminderStepRequest[];
}
