import { ApiProperty } from '@nestjs/swagger';
import { PAYER_TYPES } from '@/common/domain/enums';
import { COVERABLE_DEMAND_TYPES } from './interest-policy.request';

export class RateView {
  @ApiProperty({
    description: 'First day this rate is in force.',
    format: 'date',
    example: '2025-04-01',
  })
  effectiveFrom: string;
  @ApiProperty({ description: 'Simple annual interest in percent.', example: 10.85 })
  annualRatePercent: number;
}

/** The tenant's interest policy as GET and PUT return it. */
export class InterestPolicyView {
  @ApiProperty({ description: 'Whether interest accrues.', example: true })
  enabled: boolean;
  @ApiProperty({
    description: 'Days after the due date that bear no interest.',
    type: 'integer',
    example: 0,
  })
  graceDays: number;
  @ApiProperty({ description: 'The rates over time, oldest first.', type: [RateView] })
  rates: RateView[];
  @ApiProperty({
    description: 'Demand types that bear interest.',
    enum: COVERABLE_DEMAND_TYPES,
    isArray: true,
    example: ['MILESTONE', 'MANUAL'],
  })
  demandTypes: string[];
  @ApiProperty({
    description: 'Payer types whose splits bear interest.',
    enum: PAYER_TYPES,
    isArray: true,
    example: ['BUYER', 'CO_BUYER'],
  })
  payerTypes: string[];
}

export class InterestPolicyVersion {
  @ApiProperty({
    type: 'integer',
    example: 2,
    description: 'Version number, 1 = the first stored.',
  })
  version: number;
  @ApiProperty({
    description: 'When this version was stored (UTC).',
    format: 'date-time',
    example: '2026-11-20T11:02:17.456Z',
  })
  changedAt: string;
  @ApiProperty({
    description: 'Who stored it (preferred_username, else sub).',
    example: 'arjun.mehta',
  })
  changedBy: string;
  @ApiProperty({ type: InterestPolicyView, description: 'The policy as stored by this version.' })
  policy: InterestPolicyView;
}
