import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A field's value in a configuration: text, a whole number or a flag. */
export type ConfigurationValue = string | number | boolean | null;

export interface ConfigurationChangeRecord {
  field: string;
  from: ConfigurationValue;
  to: ConfigurationValue;
}

/** One stored version of a tenant's configuration (append-only). */
@Entity('tenant_configuration_history')
export class TenantConfigurationHistory {
  @PrimaryColumn({ name: 'tenant_id', type: 'uuid' })
  tenantId: string;

  @PrimaryColumn({ name: 'configuration_id', type: 'uuid' })
  configurationId: string;

  @PrimaryColumn({ type: 'integer' })
  version: number;

  @Column({ type: 'jsonb' })
  snapshot: Record<string, unknown>;

  @Column({ type: 'jsonb' })
  changes: ConfigurationChangeRecord[];

  @Column({ name: 'changed_at', type: 'timestamptz' })
  changedAt: Date;

  @Column({ name: 'changed_by', type: 'text' })
  changedBy: string;
}
