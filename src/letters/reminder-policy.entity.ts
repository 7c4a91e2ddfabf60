import { Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';
import { Tenant } from '@/http/tenancy/tenant.entity';

/**
 * A tenant's reminder policy (none until the first PUT: the default steps). Read and written with
 * SQL (reminders.sql.ts); the entity describes the table.
 * Mirrors migrations/1765530000000-Letters.ts; test/entities-schema.e2e-spec.ts keeps it so.
 */
@Entity('reminder_policies')
export class ReminderPolicy {
  @PrimaryColumn({ name: 'tenant_id', type: 'uuid' })
  @ForeignKey(() => Tenant, { name: 'reminder_policies_tenant_id_fkey' })
  tenantId: string;

  /** 0: the default, never stored by anyone; each replacement adds one. */
  @Column({ type: 'integer' })
  version: number;

  @Column({ type: 'boolean' })
  enabled: boolean;

  /** `[{ name, offsetDays }]`, in offset order. */
  @Column({ type: 'jsonb' })
  steps: { name: string; offsetDays: number }[];

  @Column({ name: 'modified_at', type: 'timestamptz', default: () => 'now()' })
  modifiedAt: Date;

  @Column({ name: 'modified_by', type: 'text' })
  modifiedBy: string;
}
