import { Column, Entity, PrimaryColumn } from 'typeorm';

const bigintAsNumber = {
  to: (value: number) => value,
  from: (value: string | null) => (value === null ? null : Number(value)),
};

@Entity('tenant_configurations')
export class TenantConfiguration {
  @PrimaryColumn({ name: 'tenant_id', type: 'uuid' })
  tenantId: string;

  @PrimaryColumn({ type: 'uuid', default: () => 'gen_random_uuid()' })
  id: string;

  @Column({ type: 'integer' })
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

  @Column({ type: 'text' })
  separator: string;

  @Column({ type: 'boolean' })
  active: boolean;

  @Column({ name: 'created_at', type: 'timestamptz' })
  created: Date;

  @Column({ name: 'created_by', type: 'text' })
  createdBy: string;

  @Column({ name: 'modified_at', type: 'timestamptz' })
  modified: Date;

  @Column({ name: 'last_modified_by', type: 'text' })
  lastModifiedBy: string;
}
