import { Check, Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, Unique } from 'typeorm';

/**
 * Control-plane record: not under row-level security (looked up before a tenant is known).
 * Mirrors migrations/1763776800000-InitialSchema.ts; test/entities-schema.e2e-spec.ts keeps it so.
 */
@Entity('tenants')
@Unique('tenants_key_key', ['key'])
@Check('tenants_key_check', `key ~ '^[a-z0-9][a-z0-9-]{0,62}$'`)
@Check('tenants_name_check', `length(name) BETWEEN 1 AND 200`)
@Check('tenants_fy_start_month_check', `fy_start_month BETWEEN 1 AND 12`)
export class Tenant {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'text' })
  key: string;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'char', length: 3, default: 'INR' })
  currency: string;

  @Column({ type: 'text', default: 'en-IN' })
  locale: string;

  @Column({ type: 'text', default: 'Asia/Kolkata' })
  timezone: string;

  @Column({ name: 'fy_start_month', type: 'smallint', default: 4 })
  fyStartMonth: number;

  @Column({ type: 'boolean', default: true })
  active: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
