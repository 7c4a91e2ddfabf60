import {
  Check,
  Column,
  Entity,
  ForeignKey,
  Index,
  PrimaryColumn,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { Booking } from '@/bookings/booking.entity';
import { Tenant } from '@/http/tenancy/tenant.entity';

/**
 * Interest forgiven to a payer of a booking (append-only).
 * Mirrors migrations/1765100000000-Interest.ts; test/entities-schema.e2e-spec.ts keeps it so.
 */
@Entity('interest_waivers')
@ForeignKey(() => Booking, ['tenantId', 'bookingId'], ['tenantId', 'id'], {
  name: 'interest_waivers_tenant_id_booking_id_fkey',
})
@Check('interest_waivers_amount_check', `amount > 0`)
@Index('interest_waivers_booking_idx', ['tenantId', 'bookingId'])
export class InterestWaiver {
  @PrimaryColumn({ name: 'tenant_id', type: 'uuid' })
  @ForeignKey(() => Tenant, { name: 'interest_waivers_tenant_id_fkey' })
  tenantId: string;

  /** Defaults to gen_random_uuid() in the database. */
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'booking_id', type: 'uuid' })
  bookingId: string;

  @Column({ name: 'payer_id', type: 'uuid' })
  payerId: string;

  @Column({ type: 'numeric', precision: 18, scale: 2 })
  amount: string;

  @Column({ type: 'text' })
  reason: string;

  @Column({ name: 'waived_on', type: 'date' })
  waivedOn: string;

  @Column({ name: 'waived_by', type: 'text' })
  waivedBy: string;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;
}
