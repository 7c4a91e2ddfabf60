import { Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';
import { Tenant } from '@/http/tenancy/tenant.entity';

/**
 * Every number ever issued: the backstop that makes a repeat impossible even after a pattern or
 * prefix change.
 * Mirrors migrations/1763776800000-InitialSchema.ts; test/entities-schema.e2e-spec.ts keeps it so.
 */
@Entity('issued_numbers')
export class IssuedNumber {
  @PrimaryColumn({ name: 'tenant_id', type: 'uuid' })
  @ForeignKey(() => Tenant, { name: 'issued_numbers_tenant_id_fkey' })
  tenantId: string;

  @PrimaryColumn({ name: 'document_type', type: 'text' })
  documentType: string;

  @PrimaryColumn({ type: 'text' })
  number: string;

  @Column({ name: 'issued_at', type: 'timestamptz', default: () => 'now()' })
  issuedAt: Date;
}
