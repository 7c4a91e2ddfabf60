import { ApiProperty } from '@nestjs/swagger';
import { PAYMENT_MODES, PAYER_TYPES, RECEIPT_STATUSES } from '@/common/domain/enums';
import { toMoney } from '@/common/money/money';
import { MoneyView } from '@/common/money/money.view';
import { PageMetaView, toPage } from '@/search/search-page';
import { TenantContext } from '@/common/tenant-context';
import type { ReceiptRow } from '../receipts.sql';
import {
  DemandMetaView,
  DemandSplitMetaView,
  DemandView,
  MoneyOf,
  toDemandMetaView,
  toDemandSplitMetaView,
} from '@/demands/dto/demand.view';

export class ReceiptView {
  @ApiProperty({
    description: 'Receipt identifier.',
    format: 'uuid',
    example: 'e7d6c5b4-a3f2-4e1d-9c0b-8a7f6e5d4c3b',
  })
  id: string;
  @ApiProperty({
    description: 'The demand split paid.',
    format: 'uuid',
    example: '3f1c2a9e-8b7d-4e6f-9a1b-2c3d4e5f6a7b',
  })
  demandSplit: string;
  @ApiProperty({
    description: 'The demand of that split.',
    format: 'uuid',
    example: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
  })
  demand: string;
  @ApiProperty({
    description: 'The booking of that demand.',
    format: 'uuid',
    example: '5b4a3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d',
  })
  booking: string;
  @ApiProperty({
    description: 'Payer type of the split paid.',
    enum: PAYER_TYPES,
    example: 'BUYER',
  })
  payerType: string;
  @ApiProperty({
    description:
      'Human-readable, gap-free number from the tenant configuration; kept when cancelled.',
    example: 'RCT/26-27/00042',
  })
  receiptNumber: string;
  @ApiProperty({ description: 'Amount received.', type: MoneyView }) amount: MoneyView;
  @ApiProperty({ description: 'How the money was paid.', enum: PAYMENT_MODES, example: 'CASH' })
  paymentMode: string;
  @ApiProperty({ example: 'UTR20261122001234', description: 'May be an empty string.' })
  transactionRef: string;
  @ApiProperty({
    description: 'Date the money was received (YYYY-MM-DD).',
    format: 'date',
    example: '2026-11-22',
  })
  receivedDate: string;
  @ApiProperty({
    description:
      'ACTIVE, CANCELLED or BOUNCED (a cheque or demand draft that did not clear); every status stays searchable and keeps its number.',
    enum: RECEIPT_STATUSES,
    example: 'ACTIVE',
  })
  status: string;
  @ApiProperty({
    description: 'Why the receipt left ACTIVE (the cancel or bounce reason); null while ACTIVE.',
    type: 'string',
    nullable: true,
    example: null,
  })
  statusReason: string | null;
  @ApiProperty({
    description:
      "When it left ACTIVE (YYYY-MM-DD): the day of the cancel in the tenant's zone, or the bouncedOn date; null while ACTIVE.",
    type: 'string',
    format: 'date',
    nullable: true,
    example: null,
  })
  statusChangedOn: string | null;
  @ApiProperty({
    description: 'Who cancelled it or recorded the bounce (the token user); null while ACTIVE.',
    type: 'string',
    nullable: true,
    example: null,
  })
  statusChangedBy: string | null;
  @ApiProperty({
    description:
      'The value date of the bank statement line matched to it (realised: the money is in the bank); null until matched, and again after an unmatch.',
    type: 'string',
    format: 'date',
    nullable: true,
    example: null,
  })
  realisedOn: string | null;
  @ApiProperty({
    description: 'That bank statement line (GET /bank-lines/{id}); null until matched.',
    type: 'string',
    format: 'uuid',
    nullable: true,
    example: null,
  })
  bankLine: string | null;
  @ApiProperty({
    description:
      'When the refund of its cancelled booking was paid (POST /cancellations/{id}/refund); null before, and for a booking not cancelled.',
    type: 'string',
    format: 'date',
    nullable: true,
    example: null,
  })
  refundedOn: string | null;
  @ApiProperty({ description: 'Summary of the split paid.', type: DemandSplitMetaView })
  demandSplitMeta: DemandSplitMetaView;
  @ApiProperty({ description: 'Summary of its demand.', type: DemandMetaView })
  demandMeta: DemandMetaView;
}

export class BouncedReceiptView extends ReceiptView {
  @ApiProperty({
    description:
      'The MANUAL demand raised for the bounce charges (one split to the same payer, due bouncedOn); null when no charges were given.',
    type: DemandView,
    nullable: true,
  })
  chargesDemand: DemandView | null;
}

export class ReceiptPage extends PageMetaView {
  @ApiProperty({ description: 'The receipts of this page.', type: [ReceiptView] })
  content: ReceiptView[];
}

export function toReceiptView(row: ReceiptRow, tenant: TenantContext): ReceiptView {
  const money: MoneyOf = (v) => toMoney(v, tenant.currency, tenant.locale);
  return {
    id: row.id,
    demandSplit: row.demand_split_id,
    demand: row.demand_id,
    booking: row.booking_id,
    payerType: row.payer_type,
    receiptNumber: row.receipt_number,
    amount: money(row.amount),
    paymentMode: row.payment_mode,
    transactionRef: row.transaction_ref,
    receivedDate: row.received_date,
    status: row.status,
    statusReason: row.status_reason,
    statusChangedOn: row.status_changed_on,
    statusChangedBy: row.status_changed_by,
    realisedOn: row.realised_on,
    bankLine: row.bank_line_id,
    refundedOn: row.refunded_on,
    demandSplitMeta: toDemandSplitMetaView(
      {
        id: row.demand_split_id,
        demand_id: row.demand_id,
        payer_type: row.s_payer_type,
        payer_id: row.s_payer_id,
        demand_split_number: row.s_number,
        amount: row.s_amount,
        tax_amount: row.s_tax_amount,
        paid_amount: row.s_paid_amount,
        status: row.s_status,
      },
      money,
    ),
    demandMeta: toDemandMetaView(
      {
        id: row.demand_id,
        booking_id: row.d_booking_id,
        unit_id: row.d_unit_id,
        milestone_id: row.d_milestone_id,
        demand_type: row.d_demand_type,
        demand_number: row.d_number,
        total_amount: row.d_total_amount,
        tax_amount: row.d_tax_amount,
        received_amount: row.d_received_amount,
        due_date: row.d_due_date,
        remarks: row.d_remarks,
        status: row.d_status,
        buyer_name: row.d_buyer_name,
      },
      money,
    ),
  };
}

/** The page envelope around `content` (page `page` of `size`, out of `totalElements`). */
export function toReceiptPage(
  content: ReceiptView[],
  page: number,
  size: number,
  totalElements: number,
): ReceiptPage {
  return toPage(content, page, size, totalElements);
}
