import { ApiProperty } from '@nestjs/swagger';
import { CANCELLATION_RULES } from './cancellation-policy.request';

export class CancellationBandView {
  @ApiProperty({ description: 'The first day since allotment the band covers.', example: 31 })
  fromDay: number;
  @ApiProperty({ description: 'The percent of agreementValue kept from that day.', example: 1.5 })
  percent: number;
}

/** The tenant's cancellation policy as GET and PUT return it. */
export class CancellationPolicyView {
  @ApiProperty({
    description: 'How the cap on what the developer keeps is computed.',
    enum: CANCELLATION_RULES,
    example: 'MAHARERA_2022',
  })
  rule: (typeof CANCELLATION_RULES)[number];
  @ApiProperty({
    description: 'PERCENT_OF_VALUE: the percent of agreementValue kept.',
    example: 10,
  })
  percent: number;
  @ApiProperty({
    description:
      'BANDS: the bands, fromDay ascending from 0 (empty for the other rules unless given).',
    type: [CancellationBandView],
    example: [],
  })
  bands: CancellationBandView[];
  @ApiProperty({
    description: 'Days from requestedOn within which the refund is due.',
    example: 45,
  })
  refundDays: number;
}

export class CancellationPolicyVersion {
  @ApiProperty({ description: 'Version number (1 for the first stored policy).', example: 1 })
  version: number;
  @ApiProperty({
    description: 'When it was stored (UTC).',
    format: 'date-time',
    example: '2026-11-28T10:15:00.000Z',
  })
  changedAt: string;
  @ApiProperty({ description: 'Who stored it (the token user).', example: 'finance.head' })
  changedBy: string;
  @ApiProperty({ description: 'The policy as stored.', type: CancellationPolicyView })
  policy: CancellationPolicyView;
}
