import {
  Check,
  Column,
  Entity,
  ForeignKey,
  Index,
  PrimaryColumn,
  PrimaryGeneratedColumn,
  Unique,
} from 'typeorm';
import { PayerType, PaymentMode, ReceiptStatus } from '@/common/domain/enums';
import { Booking } from '@/bookings/booking.entity';
import { DemandSplit } from '@/demands/demand-split.entity';
import { Demand } from '@/demands/demand.entity';
import { Tenant } from '@/http/tenancy/tenant.entity';

/**
 * Mirrors migrations/1763776800000-InitialSchema.ts, 1764200000000-IncrementalCounts.ts,
 * 1764200000001-CountIndexes.ts and 1764500000000-StatusChanges.ts;
 * test/entities-schema.e2e-spec.ts keeps it so.
 */
@Entity('receipts')
@Unique('receipts_tenant_id_receipt_number_key', ['tenantId', 'receiptNumber'])
@ForeignKey(() => DemandSplit, ['tenantId', 'demandSplitId'], ['tenantId', 'id'], {
  name: 'receipts_tenant_id_demand_split_id_fkey',
})
@ForeignKey(() => Demand, ['tenantId', 'demandId'], ['tenantId', 'id'], {
  name: 'receipts_tenant_id_demand_id_fkey',
})
@ForeignKey(() => Booking, ['tenantId', 'bookingId'], ['tenantId', 'id'], {
  name: 'receipts_tenant_id_booking_id_fkey',
})
@Check('receipts_payer_type_check', `payer_type IN ('BUYER', 'CO_BUYER', 'BANK', 'OTHER')`)
@Check('receipts_amount_check', `amount > 0`)
@Check(
  'receipts_payment_mode_check',
  `payment_mode IN
    ('CASH', 'CHEQUE', 'DEMAND_DRAFT', 'NEFT', 'RTGS', 'IMPS', 'UPI', 'CARD', 'ONLINE', 'OTHER', 'TDS')`,
)
@Check('receipts_status_check', `status IN ('ACTIVE', 'CANCELLED', 'BOUNCED')`)
@Index('receipts_amount_idx', ['tenantId', 'amount', 'id'])
@Index('receipts_created_idx', ['tenantId', 'createdAt', 'id'])
@Index('receipts_split_idx', ['tenantId', 'demandSplitId'])
@Index('receipts_demand_idx', ['tenantId', 'demandId'])
@Index('receipts_booking_idx', ['tenantId', 'bookingId'])
@Index('receipts_inserted_version_idx', ['tenantId', 'insertedVersion'])
// Beyond TypeORM's index description, so named here and left out of the comparison:
// (tenant_id, received_date DESC, receipt_number DESC, id DESC) INCLUDE (payment_mode, status,
// payer_type): descending keys and INCLUDE columns.
@Index('receipts_default_sort_idx', { synchronize: false })
// (tenant_id, payment_mode, received_date) INCLUDE (status): INCLUDE columns.
@Index('receipts_mode_date_idx', { synchronize: false })
// (tenant_id, lower(receipt_number)): an expression.
@Index('receipts_number_lower_idx', { synchronize: false })
// GIN (tenant_id, receipt_number gin_trgm_ops, transaction_ref gin_trgm_ops): operator classes.
@Index('receipts_text_trgm_idx', { synchronize: false })
// (tenant_id, status_changed_on) INCLUDE (demand_split_id, amount, received_date) WHERE status
// <> 'ACTIVE': INCLUDE columns (the ageing report's receipts that left ACTIVE after asOf).
@Index('receipts_left_active_idx', { synchronize: false })
// (tenant_id, bank_reference_key(transaction_ref)) WHERE ACTIVE with a reference: an expression
// and a predicate (none names a realisation column: realising stays a HOT update).
@Index('receipts_bank_ref_idx', { synchronize: false })
// (tenant_id, amount_paise(amount), received_date) WHERE ACTIVE: an expression and a
// partial-index predicate.
@Index('receipts_active_amount_idx', { synchronize: false })
export class Receipt {
  @PrimaryColumn({ name: 'tenant_id', type: 'uuid' })
  @ForeignKey(() => Tenant, { name: 'receipts_tenant_id_fkey' })
  tenantId: string;

  /** Defaults to gen_random_uuid() in the database. */
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'demand_split_id', type: 'uuid' })
  demandSplitId: string;

  @Column({ name: 'demand_id', type: 'uuid' })
  demandId: string;

  @Column({ name: 'booking_id', type: 'uuid' })
  bookingId: string;

  @Column({ name: 'payer_type', type: 'text' })
  payerType: PayerType;

  @Column({ name: 'receipt_number', type: 'text' })
  receiptNumber: string;

  @Column({ type: 'numeric', precision: 18, scale: 2 })
  amount: string;

  @Column({ name: 'payment_mode', type: 'text' })
  paymentMode: PaymentMode;

  @Column({ name: 'transaction_ref', type: 'text', default: '' })
  transactionRef: string;

  @Column({ name: 'received_date', type: 'date' })
  receivedDate: string;

  @Column({ type: 'text', default: 'ACTIVE' })
  status: ReceiptStatus;

  /** Why it left ACTIVE (cancelled or bounced); null while ACTIVE. */
  @Column({ name: 'status_reason', type: 'text', nullable: true })
  statusReason: string | null;

  /** The business date of that change (the day of the cancel, or of the bounce). */
  @Column({ name: 'status_changed_on', type: 'date', nullable: true })
  statusChangedOn: string | null;

  @Column({ name: 'status_changed_at', type: 'timestamptz', nullable: true })
  statusChangedAt: Date | null;

  @Column({ name: 'status_changed_by', type: 'text', nullable: true })
  statusChangedBy: string | null;

  /** When the refund of its cancelled booking was paid (docs/cancellation.md); null before. */
  @Column({ name: 'refunded_on', type: 'date', nullable: true })
  refundedOn: string | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ name: 'created_by', type: 'text' })
  createdBy: string;

  @Column({ name: 'modified_at', type: 'timestamptz', default: () => 'now()' })
  modifiedAt: Date;

  /** The tenant's receipt write version that inserted it (search/exact-counts.ts); bigint as text. */
  @Column({ name: 'inserted_version', type: 'bigint' })
  insertedVersion: string;

  /** The value date of the bank line matched to it (docs/bank.md); null until realised. */
  @Column({ name: 'realised_on', type: 'date', nullable: true })
  realisedOn: string | null;

  /** That bank line (no foreign key: receipts sit below bank in the layers). */
  @Column({ name: 'bank_line_id', type: 'uuid', nullable: true })
  bankLineId: string | null;
}
