import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/**
 * A retried POST with the same Idempotency-Key returns the stored response.
 * Mirrors migrations/1763776800000-InitialSchema.ts, 1764000000000-Housekeeping.ts and
 * 1765500000000-SecretsAtRest.ts; test/entities-schema.e2e-spec.ts keeps it so.
 */
@Entity('idempotency_keys')
@Index('idempotency_keys_created_idx', ['tenantId', 'createdAt'])
@Check(
  'idempotency_keys_response_secrets_check',
  'response_secrets IS NULL OR get_byte(response_secrets, 0) = 1',
)
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

  /** The response's secret fields, sealed with SECRETS_KEY (response_body has them as null). */
  @Column({ name: 'response_secrets', type: 'bytea', nullable: true })
  responseSecrets: Buffer | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;
}
