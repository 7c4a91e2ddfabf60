import { Column, Entity, PrimaryColumn } from 'typeorm';
import { DemandStatus, DemandType } from '@/common/domain/enums';

/** Money columns are numeric(18,2) read as decimal strings; arithmetic uses decimal.js. */
@Entity('demands')
export class Demand {
  @PrimaryColumn({ name: 'tenant_id', type: 'uuid' })
  tenantId: string;

  @PrimaryColumn({ type: 'uuid', default: () => 'gen_random_uuid()' })
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

  @Column({ name: 'received_amount', type: 'numeric', precision: 18, scale: 2 })
  receivedAmount: string;

  @Column({ name: 'due_date', type: 'date' })
  dueDate: string;

  @Column({ name: 'demand_date', type: 'date' })
  demandDate: string;

  @Column({ type: 'text' })
  remarks: string;

  @Column({ type: 'text' })
  status: DemandStatus;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ name: 'created_by', type: 'text' })
  createdBy: string;

  @Column({ name: 'modified_at', type: 'timestamptz', default: () => 'now()' })
  modifiedAt: Date;
}
