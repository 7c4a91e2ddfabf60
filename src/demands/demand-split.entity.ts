import { Column, Entity, PrimaryColumn } from 'typeorm';
import { DemandStatus, PayerType } from '@/common/domain/enums';

@Entity('demand_splits')
export class DemandSplit {
  @PrimaryColumn({ name: 'tenant_id', type: 'uuid' })
  tenantId: string;

  @PrimaryColumn({ type: 'uuid', default: () => 'gen_random_uuid()' })
  id: string;

  @Column({ name: 'demand_id', type: 'uuid' })
  demandId: string;

  @Column({ name: 'payer_type', type: 'text' })
  payerType: PayerType;

  @Column({ name: 'payer_id', type: 'uuid' })
  payerId: string;

  @Column({ name: 'demand_split_number', type: 'text' })
  demandSplitNumber: string;

  @Column({ type: 'numeric', precision: 18, scale: 2 })
  amount: string;

  @Column({ name: 'paid_amount', type: 'numeric', precision: 18, scale: 2 })
  paidAmount: string;

  @Column({ type: 'text' })
  status: DemandStatus;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ name: 'modified_at', type: 'timestamptz', default: () => 'now()' })
  modifiedAt: Date;
}
