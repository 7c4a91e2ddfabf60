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
 * A hold on a booking's reminders (a dispute): covers `fromDate` through `untilDate` (null:
 * open-ended). Ending it sets `untilDate` to that day, so it still covers it.
 * Mirrors migrations/1765530000000-Letters.ts; test/entities-schema.e2e-spec.ts keeps it so.
 */
@Entity('collection_holds')
@ForeignKey(() => Booking, ['tenantId', 'bookingId'], ['tenantId', 'id'], {
  name: 'collection_holds_tenant_id_booking_id_fkey',
})
@Check('collection_holds_until_check', `until_date >= from_date`)
@Index('collection_holds_booking_idx', ['tenantId', 'bookingId'])
export class CollectionHold {
  @PrimaryColumn({ name: 'tenant_id', type: 'uuid' })
  @ForeignKey(() => Tenant, { name: 'collection_holds_tenant_id_fkey' })
  tenantId: string;

  /** Defaults to gen_random_uuid() in the database. */
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'booking_id', type: 'uuid' })
  bookingId: string;

  @Column({ type: 'text' })
  reason: string;

  @Column({ name: 'from_date', type: 'date' })
  fromDate: string;

  @Column({ name: 'until_date', type: 'date', nullable: true })
  untilDate: string | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ name: 'created_by', type: 'text' })
  createdBy: string;

  @Column({ name: 'ended_at', type: 'timestamptz', nullable: true })
  endedAt: Date | null;

  @Column({ name: 'ended_by', type: 'text', nullable: true })
  endedBy: string | null;
}
