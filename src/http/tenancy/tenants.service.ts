import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { LRUCache } from 'lru-cache';
import { DataSource } from 'typeorm';
import { Tenant } from '@/http/tenancy/tenant.entity';

/**
 * How long a tenant's descriptive fields (currency, locale, time zone, financial year) may be
 * served from memory after an operator changes them in SQL. Whether the tenant is still active
 * is never taken from this cache: every tenant transaction re-checks it (TENANT_SETUP_SQL).
 */
export const TENANT_CACHE_TTL_MS = 5_000;

/** Control-plane lookups (the tenants table is not tenant-owned, so not under RLS). */
@Injectable()
export class TenantsService {
  private readonly byKey = new LRUCache<string, Tenant>({
    max: 10_000,
    ttl: TENANT_CACHE_TTL_MS,
  });

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * The active tenant with this key, from memory when it was read in the last few seconds
   * (every request of a busy tenant would otherwise pay a round trip for a row that never
   * changes). Unknown or inactive keys are not cached, so a new tenant is usable at once.
   */
  async findActiveByKey(key: string): Promise<Tenant | null> {
    const cached = this.byKey.get(key);
    if (cached) return cached;
    const tenant = await this.dataSource.getRepository(Tenant).findOneBy({ key, active: true });
    if (tenant) this.byKey.set(key, tenant);
    return tenant;
  }

  /** Drops a tenant from the cache (it was found inactive, or changed by this instance). */
  forget(key: string): void {
    this.byKey.delete(key);
  }
}
