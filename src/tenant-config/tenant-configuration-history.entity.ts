import { Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';
import { Tenant } from '@/http/tenancy/tenant.entity';
import { TenantConfiguration } from './tenant-configuration.entity';

/** A field's value in a configuration: text, a whole number or a flag. */
export type ConfigurationValue = string | number | boolean | null;

export interface ConfigurationChangeRecord {
  field: string;
  from: ConfigurationValue;
  to: ConfigurationValue;
}

/**
 * One stored version of a tenant's configuration (append-only).
 * Mirrors migrations/1763776800000-InitialSchema.ts; test/entities-schema.e2e-spec.ts keeps it so.
 */
@Entity('tenant_configuration_history')
@ForeignKey(() => TenantConfiguration, ['tenantId', 'configurationId'], ['tenantId', 'id'], {
  name: 'tenant_configuration_history_tenant_id_configuration_id_fkey',
})
export class TenantConfigurationHistory {
  @PrimaryColumn({ name: 'tenant_id', type: 'uuid' })
  @ForeignKey(() => Tenant, { name: 'tenant_configuration_history_tenant_id_fkey' })
  tenantId: string;

  @PrimaryColumn({ name: 'configuration_id', type: 'uuid' })
  configurationId: string;

  @PrimaryColumn({ type: 'integer' })
  version: number;

  @Column({ type: 'jsonb' })
  snapshot: Record<string, unknown>;

  @Column({ type: 'jsonb' })
  changes: ConfigurationChangeRecord[];

  @Column({ name: 'changed_at', type: 'timestamptz', default: () => 'now()' })
  changedAt: Date;

  @Column({ name: 'changed_by', type: 'text' })
  changedBy: string;
}
