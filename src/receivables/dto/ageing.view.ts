import { ApiProperty } from '@nestjs/swagger';
import { MoneyView } from '@/common/money/money.view';

/** `{ "NOT_DUE": Money, "1-30": Money, ... }`: every bucket label, zero where nothing is owed. */
const BY_BUCKET = {
  type: 'object',
  additionalProperties: { $ref: '#/components/schemas/MoneyView' },
  description: 'What is outstanding in each bucket, keyed by its label; every label is present.',
  example: {
    NOT_DUE: { amount: 250000, currency: 'INR', currencySymbol: '₹', formatted: '2,50,000.00' },
    '1-30': { amount: 120000.5, currency: 'INR', currencySymbol: '₹', formatted: '1,20,000.50' },
    '31-60': { amount: 0, currency: 'INR', currencySymbol: '₹', formatted: '0.00' },
    '61-90': { amount: 0, currency: 'INR', currencySymbol: '₹', formatted: '0.00' },
    '91+': { amount: 75000, currency: 'INR', currencySymbol: '₹', formatted: '75,000.00' },
  },
} as const;

export class AgeingTotalView {
  @ApiProperty({ description: 'Everything outstanding on asOf.', type: MoneyView })
  outstanding: MoneyView;
  @ApiProperty(BY_BUCKET)
  byBucket: Record<string, MoneyView>;
}

export class AgeingGroupView {
  @ApiProperty({
    description: 'The booking id (groupBy=booking) or the payerType / demandType value.',
    example: 'BUYER',
  })
  key: string;
  @ApiProperty({
    description: 'The booking number and buyer (groupBy=booking), else the key.',
    example: 'BKG/26-27/00012 — Ananya Iyer',
  })
  label: string;
  @ApiProperty({ description: "The group's outstanding on asOf.", type: MoneyView })
  outstanding: MoneyView;
  @ApiProperty(BY_BUCKET)
  byBucket: Record<string, MoneyView>;
}

export class AgeingView {
  @ApiProperty({
    description: 'The business date of the report (YYYY-MM-DD).',
    example: '2026-11-25',
  })
  asOf: string;
  @ApiProperty({
    description: 'The bucket labels in order: NOT_DUE, then 1-e1, (e1+1)-e2, ..., (ek+1)+.',
    type: [String],
    example: ['NOT_DUE', '1-30', '31-60', '61-90', '91+'],
  })
  buckets: string[];
  @ApiProperty({
    type: AgeingTotalView,
    description: 'Everything outstanding on asOf, in all and by bucket.',
  })
  total: AgeingTotalView;
  @ApiProperty({
    description:
      'One page of groups, largest outstanding first (then key); only groups with something outstanding; [] for groupBy=none.',
    type: [AgeingGroupView],
  })
  groups: AgeingGroupView[];
  @ApiProperty({ type: 'integer', description: 'How many groups there are.', example: 37 })
  totalGroups: number;
}
