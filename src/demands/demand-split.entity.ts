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
import { DemandStatus, PayerType } from '@/common/domain/enums';
import { Tenant } from '@/http/tenancy/tenant.entity';
import { Demand } from './demand.entity';

/**
 * Mirrors migrations/1763776800000-InitialSchema.ts, 1765580000000-NamesOnPaper.ts and
 * 1765640000000-DemandTax.ts;
 * test/entities-schema.e2e-spec.ts keeps it so.
 */
@Entity('demand_splits')
@Unique('demand_splits_tenant_id_demand_split_number_key', ['tenantId', 'demandSplitNumber'])
@ForeignKey(() => Demand, ['tenantId', 'demandId'], ['tenantId', 'id'], {
  name: 'demand_splits_tenant_id_demand_id_fkey',
})
@Check('demand_splits_payer_type_check', `payer_type IN ('BUYER', 'CO_BUYER', 'BANK', 'OTHER')`)
@Check('demand_splits_amount_check', `amount > 0`)
@Check('demand_splits_status_check', `status IN ('PENDING', 'PARTIALLY_PAID', 'PAID', 'CANCELLED')`)
// The database itself refuses an overpaid split, whatever the application does.
@Check('demand_splits_check', `paid_amount >= 0 AND paid_amount <= amount + tax_amount`)
@Check('demand_splits_tax_amount_check', `tax_amount >= 0`)
@Index('demand_splits_demand_idx', ['tenantId', 'demandId'])
export class DemandSplit {
  @PrimaryColumn({ name: 'tenant_id', type: 'uuid' })
  @ForeignKey(() => Tenant, { name: 'demand_splits_tenant_id_fkey' })
  tenantId: string;

  /** Defaults to gen_random_uuid() in the database. */
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'demand_id', type: 'uuid' })
  demandId: string;

  @Column({ name: 'payer_type', type: 'text' })
  payerType: PayerType;

  @Column({ name: 'payer_id', type: 'uuid' })
  payerId: string;

  /** The payer's name as printed; null: the buyer's name or the payer type's label. */
  @Column({ name: 'payer_name', type: 'text', nullable: true })
  payerName: string | null;

  @Column({ name: 'demand_split_number', type: 'text' })
  demandSplitNumber: string;

  @Column({ type: 'numeric', precision: 18, scale: 2 })
  amount: string;

  /** The split's share of its demand's tax (0 while untaxed). */
  @Column({ name: 'tax_amount', type: 'numeric', precision: 18, scale: 2, default: 0 })
  taxAmount: string;

  /** What the split owes: amount + tax (stored generated column). */
  @Column({
    name: 'gross_amount',
    type: 'numeric',
    precision: 18,
    scale: 2,
    nullable: true,
    generatedType: 'STORED',
    asExpression: '(amount + tax_amount)',
    insert: false,
    update: false,
  })
  grossAmount: string;

  @Column({ name: 'paid_amount', type: 'numeric', precision: 18, scale: 2, default: 0 })
  paidAmount: string;

  @Column({ type: 'text', default: 'PENDING' })
  status: DemandStatus;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ name: 'modified_at', type: 'timestamptz', default: () => 'now()' })
  modifiedAt: Date;
}
