import { Column, Entity, PrimaryColumn } from 'typeorm';
import { PayerType, PaymentMode, ReceiptStatus } from '@/common/domain/enums';

@Entity('receipts')
export class Receipt {
  @PrimaryColumn({ name: 'tenant_id', type: 'uuid' })
  tenantId: string;

  @PrimaryColumn({ type: 'uuid', default: () => 'gen_random_uuid()' })
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

  @Column({ name: 'transaction_ref', type: 'text' })
  transactionRef: string;

  @Column({ name: 'received_date', type: 'date' })
  receivedDate: string;

  @Column({ type: 'text' })
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

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ name: 'created_by', type: 'text' })
  createdBy: string;

  @Column({ name: 'modified_at', type: 'timestamptz', default: () => 'now()' })
  modifiedAt: Date;

  /** The tenant's receipt write version that inserted it (search/exact-counts.ts); bigint as text. */
  @Column({ name: 'inserted_version', type: 'bigint' })
  insertedVersion: string;
}
