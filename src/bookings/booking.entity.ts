import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity('bookings')
export class Booking {
  @PrimaryColumn({ name: 'tenant_id', type: 'uuid' })
  tenantId: string;

  @PrimaryColumn({ type: 'uuid', default: () => 'gen_random_uuid()' })
  id: string;

  @Column({ name: 'booking_number', type: 'text' })
  bookingNumber: string;

  @Column({ name: 'unit_id', type: 'uuid' })
  unitId: string;

  @Column({ name: 'buyer_name', type: 'text' })
  buyerName: string;

  @Column({ name: 'buyer_id', type: 'uuid', nullable: true })
  buyerId: string | null;

  /** `YYYY-MM-DD`: date columns are read as strings (see database type parsers). */
  @Column({ name: 'booking_date', type: 'date' })
  bookingDate: string;

  @Column({ type: 'text' })
  status: 'ACTIVE' | 'CANCELLED';

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ name: 'created_by', type: 'text' })
  createdBy: string;
}
