import {
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
 * A credit note as issued, frozen (migrations/1765640000000-DemandTax.ts; docs/gst.md):
 * `document` is its JSON (supplier, recipient, the invoices it credits, lines, totals).
 */
@Entity('credit_notes')
@Unique('credit_notes_number_key', ['tenantId', 'number'])
@ForeignKey(() => Booking, ['tenantId', 'bookingId'], ['tenantId', 'id'], {
  name: 'credit_notes_tenant_id_booking_id_fkey',
})
@Index('credit_notes_booking_idx', ['tenantId', 'bookingId', 'noteDate'])
@Index('credit_notes_date_idx', ['tenantId', 'noteDate', 'id'])
export class CreditNote {
  @PrimaryColumn({ name: 'tenant_id', type: 'uuid' })
  @ForeignKey(() => Tenant, { name: 'credit_notes_tenant_id_fkey' })
  tenantId: string;

  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'booking_id', type: 'uuid' })
  bookingId: string;

  @Column({ type: 'text' })
  number: string;

  @Column({ name: 'note_date', type: 'date' })
  noteDate: string;

  /** The booking cancellation that issued it; null for a demand's or an unpaid booking's cancel. */
  @Column({ name: 'cancellation_id', type: 'uuid', nullable: true })
  cancellationId: string | null;

  @Column({ name: 'recipient_gstin', type: 'text', nullable: true })
  recipientGstin: string | null;

  @Column({ type: 'jsonb' })
  document: Record<string, unknown>;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ name: 'created_by', type: 'text' })
  createdBy: string;
}
