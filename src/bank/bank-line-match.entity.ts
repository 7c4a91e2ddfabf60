import { Check, Column, Entity, ForeignKey, PrimaryColumn, Unique } from 'typeorm';
import { Tenant } from '@/http/tenancy/tenant.entity';
import { Receipt } from '@/receipts/receipt.entity';
import { BankLine } from './bank-line.entity';

/**
 * A receipt a statement line accounts for. Mirrors migrations/1765300000000-BankMatching.ts;
 * test/entities-schema.e2e-spec.ts keeps it so.
 */
@Entity('bank_line_matches')
@Unique('bank_line_matches_tenant_id_receipt_id_kind_key', ['tenantId', 'receiptId', 'kind'])
@ForeignKey(() => BankLine, ['tenantId', 'bankLineId'], ['tenantId', 'id'], {
  name: 'bank_line_matches_tenant_id_bank_line_id_fkey',
})
@ForeignKey(() => Receipt, ['tenantId', 'receiptId'], ['tenantId', 'id'], {
  name: 'bank_line_matches_tenant_id_receipt_id_fkey',
})
@Check('bank_line_matches_kind_check', `kind IN ('CREDIT', 'RETURN')`)
@Check(
  'bank_line_matches_rule_check',
  `rule IN ('REFERENCE', 'GROUP', 'AMOUNT_DATE', 'MANUAL', 'RETURN')`,
)
export class BankLineMatch {
  @PrimaryColumn({ name: 'tenant_id', type: 'uuid' })
  @ForeignKey(() => Tenant, { name: 'bank_line_matches_tenant_id_fkey' })
  tenantId: string;

  @PrimaryColumn({ name: 'bank_line_id', type: 'uuid' })
  bankLineId: string;

  @PrimaryColumn({ name: 'receipt_id', type: 'uuid' })
  receiptId: string;

  /** CREDIT: the line that realised the receipt; RETURN: the debit that returned it. */
  @Column({ type: 'text' })
  kind: string;

  @Column({ type: 'numeric', precision: 18, scale: 2 })
  amount: string;

  @Column({ type: 'text' })
  rule: string;

  @Column({ type: 'numeric', precision: 4, scale: 3 })
  score: string;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;
}
