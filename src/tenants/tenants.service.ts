import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Tenant } from './tenant.entity';

/** Control-plane lookups (the tenants table is not tenant-owned, so not under RLS). */
@Injectable()
export class TenantsService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  findActiveByKey(key: string): Promise<Tenant | null> {
    return this.dataSource.getRepository(Tenant).findOneBy({ key, active: true });
  }
}
