import { Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';
import { Tenant } from '@/http/tenancy/tenant.entity';

/**
 * A tenant's books settings in force (none until the first PUT: the defaults). Read and written
 * with SQL (books.sql.ts); the entity describes the table.
 * Mirrors migrations/1765680000000-Books.ts; test/entities-schema.e2e-spec.ts keeps it so.
 */
@Entity('books_settings')
export class BooksSettingsEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'uuid' })
  @ForeignKey(() => Tenant, { name: 'books_settings_tenant_id_fkey' })
  tenantId: string;

  /** 0: the defaults, never stored by anyone; each replacement adds one. */
  @Column({ type: 'integer' })
  version: number;

  /** Null: the tenant's name. */
  @Column({ type: 'text', nullable: true })
  company: string | null;

  @Column({ name: 'party_ledger', type: 'text' })
  partyLedger: string;

  @Column({ name: 'party_group', type: 'text' })
  partyGroup: string;

  /** `{ construction, otherCharges, interest, cgst, sgst, tds, refundInterest, gstNotRecoverable, bank, cash }`. */
  @Column({ type: 'jsonb' })
  ledgers: Record<string, string>;

  @Column({ name: 'modified_at', type: 'timestamptz', default: () => 'now()' })
  modifiedAt: Date;

  @Column({ name: 'modified_by', type: 'text' })
  modifiedBy: string;
}
