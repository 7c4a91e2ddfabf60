import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/**
 * A retried POST with the same Idempotency-Key returns the stored response.
 * Mirrors migrations/1763776800000-InitialSchema.ts and 1764000000000-Housekeeping.ts;
 * test/entities-schema.e2e-spec.ts keeps it so.
 */
@Entity('idempotency_keys')
@Index('idempotency_keys_created_idx', ['tenantId', 'createdAt'])
export class IdempotencyKey {
  /** References tenants(id), named by table: platform sits below http/tenancy (no import up). */
  @PrimaryColumn({ name: 'tenant_id', type: 'uuid' })
  @ForeignKey('tenants', { name: 'idempotency_keys_tenant_id_fkey' })
  tenantId: string;

  @PrimaryColumn({ type: 'text' })
  key: string;

  @Column({ name: 'request_hash', type: 'text' })
  requestHash: string;

  @Column({ name: 'response_status', type: 'integer' })
  responseStatus: number;

  @Column({ name: 'response_body', type: 'jsonb' })
  responseBody: unknown;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;
}
