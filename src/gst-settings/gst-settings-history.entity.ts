import { Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';
import { Tenant } from '@/http/tenancy/tenant.entity';

/**
 * One stored version of a tenant's GST settings (append-only).
 * Mirrors migrations/1765630000000-GstSettings.ts; test/entities-schema.e2e-spec.ts keeps it so.
 */
@Entity('gst_settings_history')
export class GstSettingsHistory {
  @PrimaryColumn({ name: 'tenant_id', type: 'uuid' })
  @ForeignKey(() => Tenant, { name: 'gst_settings_history_tenant_id_fkey' })
  tenantId: string;

  @PrimaryColumn({ type: 'integer' })
  version: number;

  /** The settings as GET returned them right after this version was stored. */
  @Column({ type: 'jsonb' })
  settings: Record<string, unknown>;

  @Column({ name: 'changed_at', type: 'timestamptz', default: () => 'now()' })
  changedAt: Date;

  @Column({ name: 'changed_by', type: 'text' })
  changedBy: string;
}
