import { ApiProperty } from '@nestjs/swagger';
import { IsLocalDate } from '@/common/field-validators';

export class InterestDemandRequest {
  @ApiProperty({
    description:
      "The last day billed (YYYY-MM-DD), not after today in the tenant's zone (else 400); becomes the demand's interestThrough. Must be after the latest interestThrough of the booking's interest demands that are not cancelled (else 422 INTEREST_ALREADY_DEMANDED).",
    format: 'date',
    example: '2026-09-30',
  })
  @IsLocalDate()
  asOf: string;

  @ApiProperty({
    description:
      "When the interest demand is due (YYYY-MM-DD); not before today in the tenant's zone (else 400 VALIDATION_FAILED).",
    format: 'date',
    example: '2026-12-15',
  })
  @IsLocalDate()
  dueDate: string;
}
