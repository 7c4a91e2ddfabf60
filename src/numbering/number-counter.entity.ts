import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity('number_counters')
export class NumberCounter {
  @PrimaryColumn({ name: 'tenant_id', type: 'uuid' })
  tenantId: string;

  @PrimaryColumn({ name: 'document_type', type: 'text' })
  documentType: string;

  @PrimaryColumn({ name: 'counter_key', type: 'text' })
  counterKey: string;

  /** bigint as a string: never through a JS number. */
  @Column({ name: 'next_value', type: 'bigint' })
  nextValue: string;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}

@Entity('issued_numbers')
export class IssuedNumber {
  @PrimaryColumn({ name: 'tenant_id', type: 'uuid' })
  tenantId: string;

  @PrimaryColumn({ name: 'document_type', type: 'text' })
  documentType: string;

  @PrimaryColumn({ type: 'text' })
  number: string;

  @Column({ name: 'issued_at', type: 'timestamptz' })
  issuedAt: Date;
}
