import {
  Column,
  Entity,
  ForeignKey,
  Index,
  PrimaryColumn,
  PrimaryGeneratedColumn,
  Unique,
} from 'typeorm';
import { Tenant } from '@/http/tenancy/tenant.entity';
import { Demand } from './demand.entity';

/**
 * A tax invoice as issued, frozen (migrations/1765640000000-DemandTax.ts; docs/gst.md):
 * `document` is the invoice's JSON without its demand, never changed after issue.
 */
@Entity('tax_invoices')
@Unique('tax_invoices_number_key', ['tenantId', 'number'])
@Unique('tax_invoices_demand_key', ['tenantId', 'demandId'])
@ForeignKey(() => Demand, ['tenantId', 'demandId'], ['tenantId', 'id'], {
  name: 'tax_invoices_tenant_id_demand_id_fkey',
})
@Index('tax_invoices_date_idx', ['tenantId', 'invoiceDate', 'id'])
export class TaxInvoice {
  @PrimaryColumn({ name: 'tenant_id', type: 'uuid' })
  @ForeignKey(() => Tenant, { name: 'tax_invoices_tenant_id_fkey' })
  tenantId: string;

  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'demand_id', type: 'uuid' })
  demandId: string;

  @Column({ type: 'text' })
  number: string;

  @Column({ name: 'invoice_date', type: 'date' })
  invoiceDate: string;

  /** The recipient's GSTIN when it had one (a B2B invoice); null for a buyer without one. */
  @Column({ name: 'recipient_gstin', type: 'text', nullable: true })
  recipientGstin: string | null;

  @Column({ type: 'jsonb' })
  document: Record<string, unknown>;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;
}
