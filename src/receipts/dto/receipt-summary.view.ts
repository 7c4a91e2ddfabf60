import { ApiProperty } from '@nestjs/swagger';
import { MoneyView } from '@/common/money/money.view';

export class ReceiptSummaryGroupView {
  @ApiProperty({
    description:
      'The group value: an enum value, `YYYY-MM` for receivedMonth, `YYYY-MM-DD` for receivedDate.',
    example: 'NEFT',
  })
  key: string;
  @ApiProperty({ type: 'integer', description: 'Receipts in this group.', example: 912 })
  count: number;
  @ApiProperty({ description: 'Exact sum of their amounts.', type: MoneyView })
  amount: MoneyView;
}

export class ReceiptSummaryView {
  @ApiProperty({
    type: 'integer',
    description: "All receipts matching the filters (search's totalElements).",
    example: 1834,
  })
  count: number;
  @ApiProperty({ description: 'Exact sum of their amounts.', type: MoneyView })
  amount: MoneyView;
  @ApiProperty({
    description:
      'One entry per distinct value among the matches, by key ascending; [] without groupBy.',
    type: [ReceiptSummaryGroupView],
  })
  groups: ReceiptSummaryGroupView[];
}
