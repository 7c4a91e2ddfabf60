import { Check, Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';
import { Tenant } from '@/http/tenancy/tenant.entity';

/**
 * A tenant's GST settings in force (none until the first PUT: the defaults). Read and written
 * with SQL (gst-settings.sql.ts); the entity describes the table.
 * Mirrors migrations/1765630000000-GstSettings.ts; test/entities-schema.e2e-spec.ts keeps it so.
 */
@Entity('gst_settings')
@Check('gst_settings_interest_tax_check', `interest_tax IN ('AS_PRINCIPAL', 'STANDARD_18')`)
@Check('gst_settings_other_charges_sac_check', `other_charges_sac ~ '^[0-9]{6}$'`)
@Check('gst_settings_locked_through_check', `locked_through ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'`)
@Check(
  'gst_settings_complete_check',
  `NOT enabled OR (gstin IS NOT NULL AND legal_name IS NOT NULL AND address IS NOT NULL)`,
)
export class GstSettings {
  @PrimaryColumn({ name: 'tenant_id', type: 'uuid' })
  @ForeignKey(() => Tenant, { name: 'gst_settings_tenant_id_fkey' })
  tenantId: string;

  /** 0: the defaults, never stored by anyone; each replacement adds one. */
  @Column({ type: 'integer' })
  version: number;

  @Column({ type: 'boolean' })
  enabled: boolean;

  @Column({ type: 'text', nullable: true })
  gstin: string | null;

  @Column({ name: 'legal_name', type: 'text', nullable: true })
  legalName: string | null;

  @Column({ type: 'text', nullable: true })
  address: string | null;

  @Column({ name: 'other_charges_sac', type: 'text' })
  otherChargesSac: string;

  @Column({ name: 'interest_tax', type: 'text' })
  interestTax: string;

  /** `YYYY-MM`: the last month whose return is filed. */
  @Column({ name: 'locked_through', type: 'text', nullable: true })
  lockedThrough: string | null;

  /** `[{ financialYear, filedOn }]`, oldest year first. */
  @Column({ name: 'annual_returns', type: 'jsonb' })
  annualReturns: { financialYear: string; filedOn: string }[];

  @Column({ name: 'modified_at', type: 'timestamptz', default: () => 'now()' })
  modifiedAt: Date;

  @Column({ name: 'modified_by', type: 'text' })
  modifiedBy: string;
}
