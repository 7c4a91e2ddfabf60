import {
  Check,
  Column,
  Entity,
  ForeignKey,
  Index,
  PrimaryColumn,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { Tenant } from '@/http/tenancy/tenant.entity';
import { BankLine } from './bank-line.entity';

/**
 * Every match, unmatch and ignore of a statement line. Mirrors
 * migrations/1765300000000-BankMatching.ts; test/entities-schema.e2e-spec.ts keeps it so.
 */
@Entity('bank_line_history')
@ForeignKey(() => BankLine, ['tenantId', 'bankLineId'], ['tenantId', 'id'], {
  name: 'bank_line_history_tenant_id_bank_line_id_fkey',
})
@Check('bank_line_history_action_check', `action IN ('MATCHED', 'UNMATCHED', 'IGNORED')`)
@Check(
  'bank_line_history_rule_check',
  `rule IN ('REFERENCE', 'GROUP', 'AMOUNT_DATE', 'MANUAL', 'RETURN')`,
)
@Index('bank_line_history_line_idx', ['tenantId', 'bankLineId', 'at'])
export class BankLineHistory {
  @PrimaryColumn({ name: 'tenant_id', type: 'uuid' })
  @ForeignKey(() => Tenant, { name: 'bank_line_history_tenant_id_fkey' })
  tenantId: string;

  /** Defaults to gen_random_uuid() in the database. */
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'bank_line_id', type: 'uuid' })
  bankLineId: string;

  @Column({ type: 'timestamptz', default: () => 'clock_timestamp()' })
  at: Date;

  @Column({ type: 'text' })
  actor: string;

  @Column({ type: 'text' })
  action: string;

  @Column({ type: 'text', nullable: true })
  rule: string | null;

  @Column({ type: 'text', nullable: true })
  reason: string | null;

  @Column({ type: 'uuid', array: true, default: () => "'{}'" })
  receipts: string[];
}
