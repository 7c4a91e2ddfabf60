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
import { Tenant } from '@/http/tenancy/tenant.entity';
import { BankAccount } from './bank-account.entity';
import { BankStatement } from './bank-statement.entity';

/**
 * One transaction of a bank statement. Mirrors migrations/1765200000000-BankStatements.ts;
 * test/entities-schema.e2e-spec.ts keeps it so.
 */
@Entity('bank_lines')
@Unique('bank_lines_tenant_id_bank_account_id_line_key_key', [
  'tenantId',
  'bankAccountId',
  'lineKey',
])
@Unique('bank_lines_tenant_id_bank_account_id_sequence_key', [
  'tenantId',
  'bankAccountId',
  'sequence',
])
@ForeignKey(() => BankAccount, ['tenantId', 'bankAccountId'], ['tenantId', 'id'], {
  name: 'bank_lines_tenant_id_bank_account_id_fkey',
})
@ForeignKey(() => BankStatement, ['tenantId', 'statementId'], ['tenantId', 'id'], {
  name: 'bank_lines_tenant_id_statement_id_fkey',
})
@Check('bank_lines_line_key_check', `octet_length(line_key) = 32`)
@Check('bank_lines_format_check', `format IN ('csv', 'camt053', 'mt940')`)
@Check('bank_lines_direction_check', `direction IN ('CREDIT', 'DEBIT')`)
@Check('bank_lines_amount_check', `amount > 0`)
@Check('bank_lines_status_check', `status IN ('UNMATCHED', 'SUGGESTED', 'MATCHED', 'IGNORED')`)
@Check(
  'bank_lines_match_rule_check',
  `match_rule IN ('REFERENCE', 'GROUP', 'AMOUNT_DATE', 'MANUAL', 'RETURN')`,
)
@Index('bank_lines_look_alike_idx', ['tenantId', 'valueDate', 'referenceKey'])
@Index('bank_lines_statement_idx', ['tenantId', 'statementId'])
// (tenant_id, amount_paise) WHERE status = 'UNMATCHED' AND direction = 'CREDIT': a partial index.
@Index('bank_lines_open_idx', { synchronize: false })
export class BankLine {
  @PrimaryColumn({ name: 'tenant_id', type: 'uuid' })
  @ForeignKey(() => Tenant, { name: 'bank_lines_tenant_id_fkey' })
  tenantId: string;

  /** Defaults to gen_random_uuid() in the database. */
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'bank_account_id', type: 'uuid' })
  bankAccountId: string;

  @Column({ name: 'statement_id', type: 'uuid' })
  statementId: string;

  /** Per account, in commit order (the lines feed's cursor); bigint as text. */
  @Column({ type: 'bigint' })
  sequence: string;

  /** SHA-256 of the line's content and occurrence (statements/line-key.ts). */
  @Column({ name: 'line_key', type: 'bytea' })
  lineKey: Buffer;

  @Column({ type: 'text' })
  format: string;

  @Column({ name: 'file_line', type: 'integer' })
  fileLine: number;

  @Column({ name: 'value_date', type: 'date' })
  valueDate: string;

  @Column({ name: 'booking_date', type: 'date', nullable: true })
  bookingDate: string | null;

  @Column({ type: 'text' })
  direction: string;

  @Column({ type: 'numeric', precision: 18, scale: 2 })
  amount: string;

  /** The amount in paise, computed by the database: compared under RLS (bigint = is leakproof). */
  @Column({
    name: 'amount_paise',
    type: 'bigint',
    nullable: true,
    generatedType: 'STORED',
    // As PostgreSQL's catalogue renders it.
    asExpression: '((amount * (100)::numeric))::bigint',
    insert: false,
    update: false,
  })
  amountPaise: string;

  @Column({ type: 'text' })
  narration: string;

  @Column({ type: 'text' })
  reference: string;

  /** The reference as compared across formats (statements/references.ts). */
  @Column({ name: 'reference_key', type: 'text' })
  referenceKey: string;

  @Column({ type: 'text', nullable: true })
  utr: string | null;

  @Column({ name: 'cheque_number', type: 'text', nullable: true })
  chequeNumber: string | null;

  @Column({ type: 'numeric', precision: 18, scale: 2, nullable: true })
  balance: string | null;

  @Column({ type: 'boolean', default: false })
  reversal: boolean;

  @Column({ name: 'possible_duplicate', type: 'boolean', default: false })
  possibleDuplicate: boolean;

  @Column({ type: 'text', default: 'UNMATCHED' })
  status: string;

  @Column({ name: 'match_rule', type: 'text', nullable: true })
  matchRule: string | null;

  @Column({ name: 'status_changed_at', type: 'timestamptz', nullable: true })
  statusChangedAt: Date | null;

  @Column({ type: 'text' })
  raw: string;

  /** The current suggestions [{ receipts, rule, score, reasons }] (bank-matching.sql.ts). */
  @Column({ type: 'jsonb', default: () => "'[]'" })
  suggestions: unknown[];

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;
}
