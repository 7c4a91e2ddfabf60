import { ApiProperty } from '@nestjs/swagger';
import { MoneyView } from '@/common/money/money.view';
import { DEMAND_STATUSES, DEMAND_TYPES, PAYER_TYPES } from '@/common/domain/enums';

export class DemandSplitMetaView {
  @ApiProperty({ format: 'uuid', example: '3f1c2a9e-8b7d-4e6f-9a1b-2c3d4e5f6a7b' }) id: string;
  @ApiProperty({ format: 'uuid', example: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d' }) demand: string;
  @ApiProperty({ enum: PAYER_TYPES, example: 'BUYER' }) payerType: string;
  @ApiProperty({ format: 'uuid', example: '0d9c8b7a-6f5e-4d3c-9b2a-1f0e9d8c7b6a' }) payerId: string;
  @ApiProperty({ example: 'DSP/26-27/00012' }) demandSplitNumber: string;
  @ApiProperty({ type: MoneyView }) amount: MoneyView;
  @ApiProperty({ type: MoneyView }) paidAmount: MoneyView;
  @ApiProperty({ type: MoneyView }) pendingAmount: MoneyView;
  @ApiProperty({ enum: DEMAND_STATUSES, example: 'PAID' }) status: string;
}

export class DemandMetaView {
  @ApiProperty({ format: 'uuid', example: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d' }) id: string;
  @ApiProperty({ format: 'uuid', example: '5b4a3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d' }) booking: string;
  @ApiProperty({ format: 'uuid', example: 'c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f' }) unit: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String, example: null }) milestone: string | null;
  @ApiProperty({ enum: DEMAND_TYPES, example: 'MANUAL' }) demandType: string;
  @ApiProperty({ example: 'DMD/26-27/00007' }) demandNumber: string;
  @ApiProperty({ type: MoneyView }) totalAmount: MoneyView;
  @ApiProperty({ format: 'date', example: '2026-12-15' }) dueDate: string;
  @ApiProperty({ example: 'Plinth completion, tower B' }) remarks: string;
  @ApiProperty({ enum: DEMAND_STATUSES, example: 'PAID' }) status: string;
  @ApiProperty({ type: MoneyView }) receivedAmount: MoneyView;
  @ApiProperty({ type: MoneyView }) pendingAmount: MoneyView;
  @ApiProperty({ example: 'Ananya Iyer' }) buyerName: string;
}
