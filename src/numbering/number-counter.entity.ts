import { Check, Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';
import { Tenant } from '@/http/tenancy/tenant.entity';

/**
 * One row per (document type, rendered number with the sequence masked).
 * Mirrors migrations/1763776800000-InitialSchema.ts; test/entities-schema.e2e-spec.ts keeps it so.
 */
@Entity('number_counters')
@Check('number_counters_next_value_check', `next_value >= 0`)
export class NumberCounter {
  @PrimaryColumn({ name: 'tenant_id', type: 'uuid' })
  @ForeignKey(() => Tenant, { name: 'number_counters_tenant_id_fkey' })
  tenantId: string;

  @PrimaryColumn({ name: 'document_type', type: 'text' })
  documentType: string;

  @PrimaryColumn({ name: 'counter_key', type: 'text' })
  counterKey: string;

  /** bigint as a string: never through a JS number. */
  @Column({ name: 'next_value', type: 'bigint' })
  nextValue: string;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;
}
