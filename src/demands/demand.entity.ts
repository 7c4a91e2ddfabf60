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
import { DemandStatus, DemandType } from '@/common/domain/enums';
import { Booking } from '@/bookings/booking.entity';
import { Tenant } from '@/http/tenancy/tenant.entity';

/**
 * Money columns are numeric(18,2) read as decimal strings; arithmetic uses decimal.js.
 * Mirrors migrations/1763776800000-InitialSchema.ts, 1764500000000-StatusChanges.ts and
 * 1764600000000-DemandBookingSearch.ts and 1765100000000-Interest.ts;
 * test/entities-schema.e2e-spec.ts keeps it so.
 */
@Entity('demands')
@Unique('demands_tenant_id_demand_number_key', ['tenantId', 'demandNumber'])
@ForeignKey(() => Booking, ['tenantId', 'bookingId'], ['tenantId', 'id'], {
  name: 'demands_tenant_id_booking_id_fkey',
})
@Check('demands_demand_type_check', `demand_type IN ('MANUAL', 'MILESTONE', 'INTEREST')`)
@Check('demands_total_amount_check', `total_amount > 0`)
@Check('demands_status_check', `status IN ('PENDING', 'PARTIALLY_PAID', 'PAID', 'CANCELLED')`)
@Check('demands_check', `received_amount >= 0 AND received_amount <= total_amount + tax_amount`)
@Check(
  'demands_charge_type_check',
  `charge_type IN ('CONSTRUCTION', 'OTHER_CHARGES', 'INTEREST') AND (charge_type = 'INTEREST') = (demand_type = 'INTEREST')`,
)
@Check('demands_tax_amount_check', `tax_amount >= 0`)
@Check('demands_interest_through_check', `interest_through IS NULL OR demand_type = 'INTEREST'`)
@Index('demands_booking_idx', ['tenantId', 'bookingId'])
@Index('demands_due_date_idx', ['tenantId', 'dueDate', 'id'])
@Index('demands_open_due_date_idx', ['tenantId', 'dueDate', 'id'], {
  where: `status IN ('PENDING', 'PARTIALLY_PAID')`,
})
// GIN over (tenant_id, buyer_name gin_trgm_ops, demand_number gin_trgm_ops): operator classes
// are beyond TypeORM's index description, so it is named here and left out of the comparison.
@Index('demands_text_trgm_idx', { synchronize: false })
export class Demand {
  @PrimaryColumn({ name: 'tenant_id', type: 'uuid' })
  @ForeignKey(() => Tenant, { name: 'demands_tenant_id_fkey' })
  tenantId: string;

  /** Defaults to gen_random_uuid() in the database. */
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'booking_id', type: 'uuid' })
  bookingId: string;

  @Column({ name: 'unit_id', type: 'uuid' })
  unitId: string;

  @Column({ name: 'buyer_name', type: 'text' })
  buyerName: string;

  @Column({ name: 'milestone_id', type: 'uuid', nullable: true })
  milestoneId: string | null;

  @Column({ name: 'demand_type', type: 'text' })
  demandType: DemandType;

  @Column({ name: 'demand_number', type: 'text' })
  demandNumber: string;

  @Column({ name: 'total_amount', type: 'numeric', precision: 18, scale: 2 })
  totalAmount: string;

  @Column({ name: 'received_amount', type: 'numeric', precision: 18, scale: 2, default: 0 })
  receivedAmount: string;

  @Column({ name: 'charge_type', type: 'text', default: 'CONSTRUCTION' })
  chargeType: string;

  /** A taxed demand's breakdown as computed when it was raised; null while untaxed. */
  @Column({ type: 'jsonb', nullable: true })
  tax: Record<string, unknown> | null;

  /** The tax's total (0 while untaxed). */
  @Column({ name: 'tax_amount', type: 'numeric', precision: 18, scale: 2, default: 0 })
  taxAmount: string;

  /** What is owed: total_amount + tax_amount (stored generated column). */
  @Column({
    name: 'gross_amount',
    type: 'numeric',
    precision: 18,
    scale: 2,
    nullable: true,
    generatedType: 'STORED',
    asExpression: '(total_amount + tax_amount)',
    insert: false,
    update: false,
  })
  grossAmount: string;

  @Column({ name: 'invoice_id', type: 'uuid', nullable: true })
  invoiceId: string | null;

  @Column({ name: 'invoice_number', type: 'text', nullable: true })
  invoiceNumber: string | null;

  /** Set when a cancel could not credit its tax: the credit note's window had closed. */
  @Column({ name: 'gst_credit_time_barred', type: 'boolean', default: false })
  gstCreditTimeBarred: boolean;

  /** What is still owed, computed by the database (stored generated column). */
  @Column({
    name: 'pending_amount',
    type: 'numeric',
    precision: 18,
    scale: 2,
    nullable: true,
    generatedType: 'STORED',
    // As PostgreSQL's catalogue renders `total_amount + tax_amount - received_amount`.
    asExpression: '((total_amount + tax_amount) - received_amount)',
    insert: false,
    update: false,
  })
  pendingAmount: string;

  @Column({ name: 'due_date', type: 'date' })
  dueDate: string;

  @Column({ name: 'demand_date', type: 'date' })
  demandDate: string;

  @Column({ type: 'text', default: '' })
  remarks: string;

  @Column({ type: 'text', default: 'PENDING' })
  status: DemandStatus;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ name: 'created_by', type: 'text' })
  createdBy: string;

  @Column({ name: 'modified_at', type: 'timestamptz', default: () => 'now()' })
  modifiedAt: Date;

  /** Why, when and by whom it was cancelled; null unless CANCELLED. */
  @Column({ name: 'cancel_reason', type: 'text', nullable: true })
  cancelReason: string | null;

  @Column({ name: 'cancelled_at', type: 'timestamptz', nullable: true })
  cancelledAt: Date | null;

  @Column({ name: 'cancelled_by', type: 'text', nullable: true })
  cancelledBy: string | null;

  /** The last day an INTEREST demand bills (1765100000000-Interest.ts); null otherwise. */
  @Column({ name: 'interest_through', type: 'date', nullable: true })
  interestThrough: string | null;
}
