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
import { Booking } from '@/bookings/booking.entity';
import { Tenant } from '@/http/tenancy/tenant.entity';

/**
 * A booking's cancellation (docs/cancellation.md): its figures frozen when made, its refund
 * written once when paid. Mirrors migrations/1765670000000-Cancellations.ts.
 */
@Entity('cancellations')
@Check('cancellations_initiated_by_check', `initiated_by IN ('BUYER', 'PROMOTER_DEFAULT')`)
@Check('cancellations_refund_amount_check', `refund_amount >= 0`)
@Check(
  'cancellations_refund_paid_check',
  `(refund_paid_on IS NULL) = (refund_paid_amount IS NULL) AND (refund_paid_on IS NULL) = (refund_interest IS NULL)`,
)
@Unique('cancellations_booking_key', ['tenantId', 'bookingId'])
@ForeignKey(() => Booking, ['tenantId', 'bookingId'], ['tenantId', 'id'], {
  name: 'cancellations_tenant_id_booking_id_fkey',
})
@Index('cancellations_refunds_due_idx', ['tenantId', 'refundDueDate', 'id'], {
  where: 'refund_paid_on IS NULL',
})
export class Cancellation {
  @PrimaryColumn({ name: 'tenant_id', type: 'uuid' })
  @ForeignKey(() => Tenant, { name: 'cancellations_tenant_id_fkey' })
  tenantId: string;

  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'booking_id', type: 'uuid' })
  bookingId: string;

  @Column({ name: 'requested_on', type: 'date' })
  requestedOn: string;

  @Column({ name: 'cancelled_on', type: 'date' })
  cancelledOn: string;

  @Column({ name: 'initiated_by', type: 'text' })
  initiatedBy: string;

  @Column({ type: 'text' })
  reason: string;

  /** The quote's figures as frozen (money as two-decimal text). */
  @Column({ type: 'jsonb' })
  figures: Record<string, unknown>;

  @Column({ name: 'refund_amount', type: 'numeric', precision: 18, scale: 2 })
  refundAmount: string;

  @Column({ name: 'refund_due_date', type: 'date' })
  refundDueDate: string;

  @Column({ name: 'refund_paid_on', type: 'date', nullable: true })
  refundPaidOn: string | null;

  @Column({ name: 'refund_interest', type: 'numeric', precision: 18, scale: 2, nullable: true })
  refundInterest: string | null;

  @Column({ name: 'refund_paid_amount', type: 'numeric', precision: 18, scale: 2, nullable: true })
  refundPaidAmount: string | null;

  @Column({ name: 'refund_payment_mode', type: 'text', nullable: true })
  refundPaymentMode: string | null;

  @Column({ name: 'refund_transaction_ref', type: 'text', nullable: true })
  refundTransactionRef: string | null;

  @Column({ name: 'refund_voucher_number', type: 'text', nullable: true })
  refundVoucherNumber: string | null;

  @Column({ name: 'refunded_at', type: 'timestamptz', nullable: true })
  refundedAt: Date | null;

  @Column({ name: 'refunded_by', type: 'text', nullable: true })
  refundedBy: string | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ name: 'created_by', type: 'text' })
  createdBy: string;
}
