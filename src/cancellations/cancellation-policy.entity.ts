import { Check, Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';
import { Tenant } from '@/http/tenancy/tenant.entity';

/**
 * A tenant's cancellation policy in force (none until the first PUT: the defaults).
 * Mirrors migrations/1765670000000-Cancellations.ts; test/entities-schema.e2e-spec.ts keeps it so.
 */
@Entity('cancellation_policies')
@Check('cancellation_policies_rule_check', `rule IN ('MAHARERA_2022', 'PERCENT_OF_VALUE', 'BANDS')`)
@Check('cancellation_policies_percent_check', `percent BETWEEN 0 AND 100`)
@Check('cancellation_policies_refund_days_check', `refund_days BETWEEN 1 AND 365`)
export class CancellationPolicy {
  @PrimaryColumn({ name: 'tenant_id', type: 'uuid' })
  @ForeignKey(() => Tenant, { name: 'cancellation_policies_tenant_id_fkey' })
  tenantId: string;

  @Column({ type: 'integer' })
  version: number;

  @Column({ type: 'text' })
  rule: string;

  @Column({ type: 'numeric', precision: 5, scale: 2 })
  percent: string;

  /** `[{ fromDay, percent }]`, fromDay ascending from 0. */
  @Column({ type: 'jsonb' })
  bands: { fromDay: number; percent: string }[];

  @Column({ name: 'refund_days', type: 'integer' })
  refundDays: number;

  @Column({ name: 'modified_at', type: 'timestamptz', default: () => 'now()' })
  modifiedAt: Date;

  @Column({ name: 'modified_by', type: 'text' })
  modifiedBy: string;
}
