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
import { DemandSplit } from '@/demands/demand-split.entity';
import { Demand } from '@/demands/demand.entity';
import { Tenant } from '@/http/tenancy/tenant.entity';

/**
 * A reminder step of a split, SENT or SKIPPED (an earlier step a later one replaced); append-only.
 * `reminders_split_step_key` is why a step goes out once, whatever runs at the same time.
 * Mirrors migrations/1765530000000-Letters.ts; test/entities-schema.e2e-spec.ts keeps it so.
 */
@Entity('reminders')
@Unique('reminders_split_step_key', ['tenantId', 'demandSplitId', 'step'])
@ForeignKey(() => DemandSplit, ['tenantId', 'demandSplitId'], ['tenantId', 'id'], {
  name: 'reminders_tenant_id_demand_split_id_fkey',
})
@ForeignKey(() => Demand, ['tenantId', 'demandId'], ['tenantId', 'id'], {
  name: 'reminders_tenant_id_demand_id_fkey',
})
@Check('reminders_status_check', `status IN ('SENT', 'SKIPPED')`)
@Index('reminders_demand_idx', ['tenantId', 'demandId'])
export class Reminder {
  @PrimaryColumn({ name: 'tenant_id', type: 'uuid' })
  @ForeignKey(() => Tenant, { name: 'reminders_tenant_id_fkey' })
  tenantId: string;

  /** Defaults to gen_random_uuid() in the database. */
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'demand_split_id', type: 'uuid' })
  demandSplitId: string;

  @Column({ name: 'demand_id', type: 'uuid' })
  demandId: string;

  @Column({ type: 'text' })
  step: string;

  @Column({ type: 'text' })
  status: 'SENT' | 'SKIPPED';

  @Column({ name: 'as_of', type: 'date' })
  asOf: string;

  @Column({ name: 'sent_at', type: 'timestamptz', default: () => 'now()' })
  sentAt: Date;

  @Column({ name: 'run_id', type: 'uuid' })
  runId: string;
}
