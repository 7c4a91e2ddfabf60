import { Check, Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';
import { Tenant } from '@/http/tenancy/tenant.entity';

/**
 * A tenant's interest policy in force (none until the first PUT: the default, disabled policy).
 * Read and written with SQL (interest.sql.ts); the entity describes the table.
 * Mirrors migrations/1765100000000-Interest.ts; test/entities-schema.e2e-spec.ts keeps it so.
 */
@Entity('interest_policies')
@Check('interest_policies_grace_days_check', `grace_days >= 0 AND grace_days <= 90`)
export class InterestPolicy {
  @PrimaryColumn({ name: 'tenant_id', type: 'uuid' })
  @ForeignKey(() => Tenant, { name: 'interest_policies_tenant_id_fkey' })
  tenantId: string;

  /** 0: the default, never stored by anyone; each replacement adds one. */
  @Column({ type: 'integer' })
  version: number;

  @Column({ type: 'boolean' })
  enabled: boolean;

  @Column({ name: 'grace_days', type: 'integer' })
  graceDays: number;

  /** `[{ effectiveFrom, annualRatePercent }]`, oldest first. */
  @Column({ type: 'jsonb' })
  rates: { effectiveFrom: string; annualRatePercent: number }[];

  @Column({ name: 'demand_types', type: 'text', array: true })
  demandTypes: string[];

  @Column({ name: 'payer_types', type: 'text', array: true })
  payerTypes: string[];

  @Column({ name: 'modified_at', type: 'timestamptz', default: () => 'now()' })
  modifiedAt: Date;

  @Column({ name: 'modified_by', type: 'text' })
  modifiedBy: string;
}
