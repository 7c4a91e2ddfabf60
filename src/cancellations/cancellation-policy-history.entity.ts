import { Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';
import { Tenant } from '@/http/tenancy/tenant.entity';

/**
 * One stored version of a tenant's cancellation policy (append-only).
 * Mirrors migrations/1765670000000-Cancellations.ts; test/entities-schema.e2e-spec.ts keeps it so.
 */
@Entity('cancellation_policy_history')
export class CancellationPolicyHistory {
  @PrimaryColumn({ name: 'tenant_id', type: 'uuid' })
  @ForeignKey(() => Tenant, { name: 'cancellation_policy_history_tenant_id_fkey' })
  tenantId: string;

  @PrimaryColumn({ type: 'integer' })
  version: number;

  /** The policy as GET returned it right after this version was stored. */
  @Column({ type: 'jsonb' })
  policy: Record<string, unknown>;

  @Column({ name: 'changed_at', type: 'timestamptz', default: () => 'now()' })
  changedAt: Date;

  @Column({ name: 'changed_by', type: 'text' })
  changedBy: string;
}
