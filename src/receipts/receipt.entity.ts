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

  @Column({ name: 'cancel_reason', type: 'text', nullable: true })
  cancelReason: string | null;

  @Column({ name: 'cancelled_at', type: 'timestamptz', nullable: true })
  cancelledAt: Date | null;

  @Column({ name: 'cancelled_by', type: 'text', nullable: true })
  cancelledBy: string | null;

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
