import { EntityManager } from 'typeorm';
import { BIND_TENANT_SQL } from './tenant-setup.sql';

/**
 * Scopes the current transaction to one tenant for row-level security. Transaction-local
 * (`is_local = true`): nothing survives on the pooled connection. Request transactions get this
 * (plus timeouts) from TenantTransactionInterceptor; this is for work outside a request.
 */
export async function bindTenant(em: EntityManager, tenantId: string): Promise<void> {
  await em.query(BIND_TENANT_SQL, [tenantId]);
}
