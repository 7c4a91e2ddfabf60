import {
  Check,
  Column,
  Entity,
  ForeignKey,
  PrimaryColumn,
  PrimaryGeneratedColumn,
  Unique,
} from 'typeorm';
import { Tenant } from '@/http/tenancy/tenant.entity';
import { BankAccount } from './bank-account.entity';

/**
 * One imported statement file and its import summary. Mirrors
 * migrations/1765200000000-BankStatements.ts; test/entities-schema.e2e-spec.ts keeps it so.
 */
@Entity('bank_statements')
@Unique('bank_statements_tenant_id_bank_account_id_file_sha256_key', [
  'tenantId',
  'bankAccountId',
  'fileSha256',
])
@ForeignKey(() => BankAccount, ['tenantId', 'bankAccountId'], ['tenantId', 'id'], {
  name: 'bank_statements_tenant_id_bank_account_id_fkey',
})
@Check('bank_statements_file_sha256_check', `octet_length(file_sha256) = 32`)
@Check('bank_statements_format_check', `format IN ('csv', 'camt053', 'mt940')`)
@Check('bank_statements_balance_check_check', `balance_check IN ('OK', 'MISMATCH')`)
export class BankStatement {
  @PrimaryColumn({ name: 'tenant_id', type: 'uuid' })
  @ForeignKey(() => Tenant, { name: 'bank_statements_tenant_id_fkey' })
  tenantId: string;

  /** Defaults to gen_random_uuid() in the database. */
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'bank_account_id', type: 'uuid' })
  bankAccountId: string;

  @Column({ name: 'file_sha256', type: 'bytea' })
  fileSha256: Buffer;

  @Column({ name: 'file_bytes', type: 'integer' })
  fileBytes: number;

  @Column({ type: 'text' })
  format: string;

  @Column({ type: 'text', nullable: true })
  layout: string | null;

  @Column({ type: 'text' })
  encoding: string;

  @Column({ name: 'line_count', type: 'integer', default: 0 })
  lineCount: number;

  @Column({ type: 'integer', default: 0 })
  imported: number;

  @Column({ type: 'integer', default: 0 })
  duplicates: number;

  @Column({ name: 'possible_duplicates', type: 'integer', default: 0 })
  possibleDuplicates: number;

  @Column({ type: 'integer', default: 0 })
  pending: number;

  @Column({ name: 'from_date', type: 'date', nullable: true })
  fromDate: string | null;

  @Column({ name: 'to_date', type: 'date', nullable: true })
  toDate: string | null;

  @Column({ name: 'opening_balance', type: 'numeric', precision: 18, scale: 2, nullable: true })
  openingBalance: string | null;

  @Column({ name: 'closing_balance', type: 'numeric', precision: 18, scale: 2, nullable: true })
  closingBalance: string | null;

  @Column({ name: 'balance_check', type: 'text', default: 'OK' })
  balanceCheck: string;

  @Column({ name: 'first_mismatch_line', type: 'integer', nullable: true })
  firstMismatchLine: number | null;

  @Column({ name: 'matched_auto', type: 'integer', default: 0 })
  matchedAuto: number;

  @Column({ name: 'matched_suggested', type: 'integer', default: 0 })
  matchedSuggested: number;

  @Column({ name: 'matched_unmatched', type: 'integer', default: 0 })
  matchedUnmatched: number;

  @Column({ name: 'imported_at', type: 'timestamptz', default: () => 'now()' })
  importedAt: Date;

  @Column({ name: 'imported_by', type: 'text' })
  importedBy: string;
}
