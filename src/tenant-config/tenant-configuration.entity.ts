import { Column, Entity, ForeignKey, PrimaryColumn, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { Tenant } from '@/http/tenancy/tenant.entity';
import { DEFAULT_PATTERN } from '@/numbering/number-pattern';

const bigintAsNumber = {
  to: (value: number) => value,
  from: (value: string | null) => (value === null ? null : Number(value)),
};

/**
 * A tenant's numbering configuration: exactly one per tenant.
 * Mirrors migrations/1763776800000-InitialSchema.ts; test/entities-schema.e2e-spec.ts keeps it so.
 */
@Entity('tenant_configurations')
@Unique('tenant_configurations_tenant_id_key', ['tenantId'])
export class TenantConfiguration {
  @PrimaryColumn({ name: 'tenant_id', type: 'uuid' })
  @ForeignKey(() => Tenant, { name: 'tenant_configurations_tenant_id_fkey' })
  tenantId: string;

  /** Defaults to gen_random_uuid() in the database. */
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'integer', default: 1 })
  version: number;

  @Column({ name: 'booking_number_prefix', type: 'text' })
  bookingNumberPrefix: string;

  @Column({ name: 'booking_number_starting', type: 'bigint', transformer: bigintAsNumber })
  bookingNumberStarting: number;

  @Column({ name: 'booking_number_pattern', type: 'text' })
  bookingNumberPattern: string;

  @Column({ name: 'demand_number_prefix', type: 'text' })
  demandNumberPrefix: string;

  @Column({ name: 'demand_number_starting', type: 'bigint', transformer: bigintAsNumber })
  demandNumberStarting: number;

  @Column({ name: 'demand_number_pattern', type: 'text' })
  demandNumberPattern: string;

  @Column({ name: 'demand_split_number_prefix', type: 'text' })
  demandSplitNumberPrefix: string;

  @Column({ name: 'demand_split_number_starting', type: 'bigint', transformer: bigintAsNumber })
  demandSplitNumberStarting: number;

  @Column({ name: 'demand_split_number_pattern', type: 'text' })
  demandSplitNumberPattern: string;

  @Column({ name: 'receipt_number_prefix', type: 'text' })
  receiptNumberPrefix: string;

  @Column({ name: 'receipt_number_starting', type: 'bigint', transformer: bigintAsNumber })
  receiptNumberStarting: number;

  @Column({ name: 'receipt_number_pattern', type: 'text' })
  receiptNumberPattern: string;

  @Column({ name: 'snag_number_prefix', type: 'text' })
  snagNumberPrefix: string;

  @Column({ name: 'snag_number_starting', type: 'bigint', transformer: bigintAsNumber })
  snagNumberStarting: number;

  @Column({ name: 'snag_number_pattern', type: 'text' })
  snagNumberPattern: string;

  // GST documents (migrations/1765620000000-GstDocumentNumbers.ts): defaults for existing tenants.
  @Column({ name: 'tax_invoice_number_prefix', type: 'text', default: 'INV' })
  taxInvoiceNumberPrefix: string;

  @Column({
    name: 'tax_invoice_number_starting',
    type: 'bigint',
    default: 1,
    transformer: bigintAsNumber,
  })
  taxInvoiceNumberStarting: number;

  @Column({ name: 'tax_invoice_number_pattern', type: 'text', default: DEFAULT_PATTERN })
  taxInvoiceNumberPattern: string;

  @Column({ name: 'credit_note_number_prefix', type: 'text', default: 'CRN' })
  creditNoteNumberPrefix: string;

  @Column({
    name: 'credit_note_number_starting',
    type: 'bigint',
    default: 1,
    transformer: bigintAsNumber,
  })
  creditNoteNumberStarting: number;

  @Column({ name: 'credit_note_number_pattern', type: 'text', default: DEFAULT_PATTERN })
  creditNoteNumberPattern: string;

  @Column({ name: 'refund_number_prefix', type: 'text', default: 'RFD' })
  refundNumberPrefix: string;

  @Column({
    name: 'refund_number_starting',
    type: 'bigint',
    default: 1,
    transformer: bigintAsNumber,
  })
  refundNumberStarting: number;

  @Column({ name: 'refund_number_pattern', type: 'text', default: DEFAULT_PATTERN })
  refundNumberPattern: string;

  @Column({ type: 'text' })
  separator: string;

  @Column({ type: 'boolean', default: true })
  active: boolean;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  created: Date;

  @Column({ name: 'created_by', type: 'text' })
  createdBy: string;

  @Column({ name: 'modified_at', type: 'timestamptz', default: () => 'now()' })
  modified: Date;

  @Column({ name: 'last_modified_by', type: 'text' })
  lastModifiedBy: string;
}
