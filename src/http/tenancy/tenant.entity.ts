import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** Control-plane record: not under row-level security (looked up before a tenant is known). */
@Entity('tenants')
export class Tenant {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'text', unique: true })
  key: string;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'char', length: 3 })
  currency: string;

  @Column({ type: 'text' })
  locale: string;

  @Column({ type: 'text' })
  timezone: string;

  @Column({ name: 'fy_start_month', type: 'smallint' })
  fyStartMonth: number;

  @Column({ type: 'boolean' })
  active: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
