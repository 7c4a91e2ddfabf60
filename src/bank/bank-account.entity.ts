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

/**
 * A tenant's bank account. Mirrors migrations/1765200000000-BankStatements.ts and
 * 1765530000000-Letters.ts;
 * test/entities-schema.e2e-spec.ts keeps it so.
 */
@Entity('bank_accounts')
@Unique('bank_accounts_tenant_id_account_number_key', ['tenantId', 'accountNumber'])
@Check('bank_accounts_name_check', `length(name) BETWEEN 1 AND 200`)
@Check('bank_accounts_account_number_check', `account_number ~ '^[A-Z0-9]{6,34}$'`)
@Check('bank_accounts_ifsc_check', `ifsc ~ '^[A-Z]{4}0[A-Z0-9]{6}$'`)
@Check('bank_accounts_currency_check', `currency ~ '^[A-Z]{3}$'`)
@Index('bank_accounts_list_idx', ['tenantId', 'createdAt', 'id'])
@Index('bank_accounts_collection_key', ['tenantId', 'currency'], {
  unique: true,
  where: 'collection',
})
export class BankAccount {
  @PrimaryColumn({ name: 'tenant_id', type: 'uuid' })
  @ForeignKey(() => Tenant, { name: 'bank_accounts_tenant_id_fkey' })
  tenantId: string;

  /** Defaults to gen_random_uuid() in the database. */
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'text' })
  name: string;

  /** Letters and digits, upper case, without spaces and hyphens; shown masked. */
  @Column({ name: 'account_number', type: 'text' })
  accountNumber: string;

  @Column({ type: 'text', nullable: true })
  ifsc: string | null;

  @Column({ type: 'text' })
  currency: string;

  /** The account buyers pay into: at most one per tenant and currency. */
  @Column({ type: 'boolean', default: false })
  collection: boolean;

  /** The sequence of the account's last line; bigint as text. */
  @Column({ name: 'last_line_sequence', type: 'bigint', default: 0 })
  lastLineSequence: string;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ name: 'created_by', type: 'text' })
  createdBy: string;
}
