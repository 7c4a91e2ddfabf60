import { ApiExtraModels, ApiProperty, getSchemaPath } from '@nestjs/swagger';
import Decimal from 'decimal.js';
import { Money, toMoney } from '@/common/money/money';
import { MoneyView } from '@/common/money/money.view';
import { TenantContext } from '@/common/tenant-context';
import { DEMAND_STATUSES, DEMAND_TYPES, PAYER_TYPES } from '@/common/domain/enums';
import type { DemandRow, DemandSplitRow } from '@/demands/demands.sql';

export class DemandSplitMetaView {
  @ApiProperty({
    description: 'Demand split identifier.',
    format: 'uuid',
    example: '3f1c2a9e-8b7d-4e6f-9a1b-2c3d4e5f6a7b',
  })
  id: string;
  @ApiProperty({
    description: 'The demand this split belongs to.',
    format: 'uuid',
    example: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
  })
  demand: string;
  @ApiProperty({ description: 'Who pays this part.', enum: PAYER_TYPES, example: 'BUYER' })
  payerType: string;
  @ApiProperty({
    description: 'Identifier of the payer (buyer, co-buyer, bank...) in the client system.',
    format: 'uuid',
    example: '0d9c8b7a-6f5e-4d3c-9b2a-1f0e9d8c7b6a',
  })
  payerId: string;
  @ApiProperty({
    description: 'Human-readable number from the tenant configuration.',
    example: 'DSP/26-27/00012',
  })
  demandSplitNumber: string;
  @ApiProperty({ description: 'Amount this payer owes.', type: MoneyView }) amount: MoneyView;
  @ApiProperty({ description: 'Sum of the active receipts against this split.', type: MoneyView })
  paidAmount: MoneyView;
  @ApiProperty({
    description: 'What is still owed: amount + its share of the tax (0 untaxed) - paidAmount.',
    type: MoneyView,
  })
  pendingAmount: MoneyView;
  @ApiProperty({
    description: 'PENDING (nothing paid), PARTIALLY_PAID, PAID, or CANCELLED.',
    enum: DEMAND_STATUSES,
    example: 'PAID',
  })
  status: string;
}

export class DemandMetaView {
  @ApiProperty({
    description: 'Demand identifier.',
    format: 'uuid',
    example: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
  })
  id: string;
  @ApiProperty({
    description: 'The booking the demand is raised against.',
    format: 'uuid',
    example: '5b4a3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d',
  })
  booking: string;
  @ApiProperty({
    description: 'The booked unit (from the booking).',
    format: 'uuid',
    example: 'c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f',
  })
  unit: string;
  @ApiProperty({
    description: 'Construction milestone for MILESTONE demands; null for MANUAL and INTEREST ones.',
    format: 'uuid',
    nullable: true,
    type: String,
    example: null,
  })
  milestone: string | null;
  @ApiProperty({
    description: 'MANUAL, MILESTONE or INTEREST (interest on late payment).',
    enum: DEMAND_TYPES,
    example: 'MANUAL',
  })
  demandType: string;
  @ApiProperty({
    description: 'Human-readable number from the tenant configuration.',
    example: 'DMD/26-27/00007',
  })
  demandNumber: string;
  @ApiProperty({ description: 'Total demanded; equals the sum of the splits.', type: MoneyView })
  totalAmount: MoneyView;
  @ApiProperty({
    description: 'Date payment is due (YYYY-MM-DD).',
    format: 'date',
    example: '2026-12-15',
  })
  dueDate: string;
  @ApiProperty({
    description: 'Free text printed on the demand letter.',
    example: 'Plinth completion, tower B',
  })
  remarks: string;
  @ApiProperty({
    description: 'PENDING, PARTIALLY_PAID, PAID (derived from the receipts), or CANCELLED.',
    enum: DEMAND_STATUSES,
    example: 'PAID',
  })
  status: string;
  @ApiProperty({ description: 'Sum of the active receipts against the splits.', type: MoneyView })
  receivedAmount: MoneyView;
  @ApiProperty({
    description:
      'What is still owed: totalAmount + the tax (0 for an untaxed demand) - receivedAmount.',
    type: MoneyView,
  })
  pendingAmount: MoneyView;
  @ApiProperty({ description: 'Name of the buyer (from the booking).', example: 'Ananya Iyer' })
  buyerName: string;
}

/** A taxed demand's tax: rates in percent, money as Money. */
export class DemandTaxView {
  @ApiProperty({
    description: 'One third of the consideration for construction (the land), else 0.',
    type: MoneyView,
  })
  landDeduction: MoneyView;
  @ApiProperty({ description: 'totalAmount - landDeduction.', type: MoneyView })
  taxableValue: MoneyView;
  @ApiProperty({ description: 'CGST rate in percent.', example: 3.75 })
  cgstRate: number;
  @ApiProperty({
    description: 'round(taxableValue x cgstRate), half-up to the paisa.',
    type: MoneyView,
  })
  cgst: MoneyView;
  @ApiProperty({ description: 'SGST rate in percent.', example: 3.75 })
  sgstRate: number;
  @ApiProperty({
    description: 'round(taxableValue x sgstRate), half-up to the paisa.',
    type: MoneyView,
  })
  sgst: MoneyView;
  @ApiProperty({ description: 'cgst + sgst.', type: MoneyView })
  total: MoneyView;
}

/** The tax invoice a taxed demand is. */
export class DemandInvoiceRefView {
  @ApiProperty({
    description: 'The tax invoice (GET /demands/{id}/invoice).',
    format: 'uuid',
    example: '6e5f4a3b-2c1d-4a9b-8c7d-5b4a3c2d1e0f',
  })
  id: string;
  @ApiProperty({
    description: 'Its number, from the tax-invoice series.',
    example: 'INV/26-27/00001',
  })
  number: string;
  @ApiProperty({ description: 'The demand date.', format: 'date', example: '2026-11-22' })
  date: string;
}

/** A split as a demand shows it: its summary, its tax and the payer's name. */
export class DemandSplitView extends DemandSplitMetaView {
  @ApiProperty({
    description:
      "The split's share of the demand's tax, in proportion to its amount (0.00 when the demand is untaxed).",
    type: MoneyView,
  })
  taxAmount: MoneyView;

  @ApiProperty({ description: 'What the split owes in all: amount + taxAmount.', type: MoneyView })
  grossAmount: MoneyView;

  @ApiProperty({
    description:
      "The payer's name as given, or null (documents then print a BUYER's as the booking's buyerName, any other as its payer type's label).",
    nullable: true,
    type: String,
    example: 'HDFC Bank, Andheri branch',
  })
  payerName: string | null;
}

/** A demand as returned by POST /demands and GET /demands/{id}: DemandMeta plus its date and splits. */
@ApiExtraModels(DemandTaxView, DemandInvoiceRefView)
export class DemandView extends DemandMetaView {
  @ApiProperty({
    description:
      "Date of the demand (YYYY-MM-DD, tenant's calendar); dates its number and its splits' numbers.",
    format: 'date',
    example: '2026-11-22',
  })
  demandDate: string;

  @ApiProperty({
    description:
      'INTEREST demands raised by POST /bookings/{id}/interest-demands: the last day of interest they bill (YYYY-MM-DD); null for every other demand.',
    format: 'date',
    nullable: true,
    type: String,
    example: null,
  })
  interestThrough: string | null;

  @ApiProperty({
    description:
      'CONSTRUCTION (default), OTHER_CHARGES (maintenance, legal, club, meter...), or INTEREST (always and only for INTEREST demands): decides the GST rate (docs/gst.md).',
    enum: ['CONSTRUCTION', 'OTHER_CHARGES', 'INTEREST'],
    example: 'CONSTRUCTION',
  })
  chargeType: string;

  @ApiProperty({
    description: 'The GST on the demand as invoiced; null when it is untaxed.',
    oneOf: [
      { $ref: getSchemaPath(DemandTaxView) },
      { type: 'object', nullable: true, enum: [null], description: 'Untaxed.' },
    ],
    example: null,
  })
  tax: DemandTaxView | null;

  @ApiProperty({ description: 'What is owed in all: totalAmount + tax.total.', type: MoneyView })
  grossAmount: MoneyView;

  @ApiProperty({
    description: 'The tax invoice this demand is (GET /demands/{id}/invoice); null when untaxed.',
    oneOf: [
      { $ref: getSchemaPath(DemandInvoiceRefView) },
      { type: 'object', nullable: true, enum: [null], description: 'Untaxed: no invoice.' },
    ],
    example: null,
  })
  invoice: DemandInvoiceRefView | null;

  @ApiProperty({
    description:
      'True when the demand was cancelled after the window for a GST credit note had closed (section 34): its tax was not credited.',
    example: false,
  })
  gstCreditTimeBarred: boolean;

  @ApiProperty({
    type: [DemandSplitView],
    description: 'One split per payer, in the order they were sent.',
  })
  splits: DemandSplitView[];
}

export type MoneyOf = (amount: string | Decimal) => Money;

export function toDemandSplitMetaView(
  row: Omit<DemandSplitRow, 'payer_name'>,
  money: MoneyOf,
): DemandSplitMetaView {
  const gross = new Decimal(row.amount).plus(row.tax_amount);
  return {
    id: row.id,
    demand: row.demand_id,
    payerType: row.payer_type,
    payerId: row.payer_id,
    demandSplitNumber: row.demand_split_number,
    amount: money(row.amount),
    paidAmount: money(row.paid_amount),
    pendingAmount: money(gross.minus(row.paid_amount)),
    status: row.status,
  };
}

/** The DemandMeta summary (also embedded in every receipt). */
/** What DemandMeta reads of a demand row (receipts embed it from their own columns). */
export type DemandMetaRow = Omit<
  DemandRow,
  | 'demand_date'
  | 'interest_through'
  | 'charge_type'
  | 'tax'
  | 'invoice_id'
  | 'invoice_number'
  | 'gst_credit_time_barred'
>;

export function toDemandMetaView(row: DemandMetaRow, money: MoneyOf): DemandMetaView {
  return {
    id: row.id,
    booking: row.booking_id,
    unit: row.unit_id,
    milestone: row.milestone_id,
    demandType: row.demand_type,
    demandNumber: row.demand_number,
    totalAmount: money(row.total_amount),
    dueDate: row.due_date,
    remarks: row.remarks,
    status: row.status,
    receivedAmount: money(row.received_amount),
    pendingAmount: money(
      new Decimal(row.total_amount).plus(row.tax_amount).minus(row.received_amount),
    ),
    buyerName: row.buyer_name,
  };
}

export function toDemandView(
  row: DemandRow,
  splits: DemandSplitRow[],
  tenant: TenantContext,
): DemandView {
  const money: MoneyOf = (v) => toMoney(v, tenant.currency, tenant.locale);
  return {
    ...toDemandMetaView(row, money),
    demandDate: row.demand_date,
    interestThrough: row.interest_through,
    chargeType: row.charge_type,
    tax: row.tax && {
      landDeduction: money(row.tax.landDeduction),
      taxableValue: money(row.tax.taxableValue),
      cgstRate: Number(row.tax.cgstRate),
      cgst: money(row.tax.cgst),
      sgstRate: Number(row.tax.sgstRate),
      sgst: money(row.tax.sgst),
      total: money(row.tax.total),
    },
    grossAmount: money(new Decimal(row.total_amount).plus(row.tax_amount)),
    invoice:
      row.invoice_id === null || row.invoice_number === null
        ? null
        : { id: row.invoice_id, number: row.invoice_number, date: row.demand_date },
    gstCreditTimeBarred: row.gst_credit_time_barred,
    splits: splits.map((s) => ({
      ...toDemandSplitMetaView(s, money),
      taxAmount: money(s.tax_amount),
      grossAmount: money(new Decimal(s.amount).plus(s.tax_amount)),
      payerName: s.payer_name,
    })),
  };
}
