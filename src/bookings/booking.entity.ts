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
import { Tenant } from '@/http/tenancy/tenant.entity';

/**
 * Mirrors migrations/1763776800000-InitialSchema.ts, 1764500000000-StatusChanges.ts and
 * 1764600000000-DemandBookingSearch.ts, 1765530000000-Letters.ts and
 * 1765580000000-NamesOnPaper.ts and 1765630000000-GstSettings.ts; test/entities-schema.e2e-spec.ts
 * keeps it so.
 */
@Entity('bookings')
@Unique('bookings_tenant_id_booking_number_key', ['tenantId', 'bookingNumber'])
@Check('bookings_status_check', `status IN ('ACTIVE', 'CANCELLED')`)
@Check('bookings_agreement_value_check', `agreement_value > 0`)
@Check('bookings_carpet_area_sqm_check', `carpet_area_sqm > 0`)
@Check('bookings_allotment_date_check', `allotment_date >= booking_date`)
// (tenant_id, booking_date DESC, id DESC): TypeORM has no key order; the migration has it.
@Index('bookings_booking_date_idx', ['tenantId', 'bookingDate', 'id'])
// GIN over (tenant_id, booking_number gin_trgm_ops, buyer_name gin_trgm_ops): operator classes
// are beyond TypeORM's index description, so it is named here and left out of the comparison.
@Index('bookings_text_trgm_idx', { synchronize: false })
export class Booking {
  @PrimaryColumn({ name: 'tenant_id', type: 'uuid' })
  @ForeignKey(() => Tenant, { name: 'bookings_tenant_id_fkey' })
  tenantId: string;

  /** Defaults to gen_random_uuid() in the database. */
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'booking_number', type: 'text' })
  bookingNumber: string;

  @Column({ name: 'unit_id', type: 'uuid' })
  unitId: string;

  /** The unit's name as printed ("Tower B – 1203"); null: documents print unit_id. */
  @Column({ name: 'unit_name', type: 'text', nullable: true })
  unitName: string | null;

  @Column({ name: 'buyer_name', type: 'text' })
  buyerName: string;

  @Column({ name: 'buyer_id', type: 'uuid', nullable: true })
  buyerId: string | null;

  /** `YYYY-MM-DD`: date columns are read as strings (see database type parsers). */
  @Column({ name: 'booking_date', type: 'date' })
  bookingDate: string;

  /** The agreement's value (numeric text); null when not given. */
  @Column({
    name: 'agreement_value',
    type: 'numeric',
    precision: 18,
    scale: 2,
    nullable: true,
  })
  agreementValue: string | null;

  /** Carpet area in square metres (numeric text); null when not given. */
  @Column({
    name: 'carpet_area_sqm',
    type: 'numeric',
    precision: 10,
    scale: 2,
    nullable: true,
  })
  carpetAreaSqm: string | null;

  /** In a metropolitan city: the affordable carpet area is 60 m² there, 90 m² elsewhere. */
  @Column({ name: 'metro_city', type: 'boolean', default: false })
  metroCity: boolean;

  /** The whole consideration is received after the completion certificate: no GST. */
  @Column({ name: 'gst_exempt', type: 'boolean', default: false })
  gstExempt: boolean;

  @Column({ name: 'buyer_address', type: 'text', nullable: true })
  buyerAddress: string | null;

  /** A buyer registered for GST (upper case, check character verified); null otherwise. */
  @Column({ name: 'buyer_gstin', type: 'text', nullable: true })
  buyerGstin: string | null;

  /** Null: the booking date (rows written before the column existed need no backfill). */
  @Column({ name: 'allotment_date', type: 'date', nullable: true })
  allotmentDate: string | null;

  @Column({ type: 'text', default: 'ACTIVE' })
  status: 'ACTIVE' | 'CANCELLED';

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ name: 'created_by', type: 'text' })
  createdBy: string;

  /** Why, when and by whom it was cancelled; null while ACTIVE. */
  @Column({ name: 'cancel_reason', type: 'text', nullable: true })
  cancelReason: string | null;

  @Column({ name: 'cancelled_at', type: 'timestamptz', nullable: true })
  cancelledAt: Date | null;

  @Column({ name: 'cancelled_by', type: 'text', nullable: true })
  cancelledBy: string | null;
}
