import { Global, Module } from '@nestjs/common';
import { TenantsService } from '@/http/tenancy/tenants.service';

/**
 * Tenant resolution for every request (TenantGuard, TenantTransactionInterceptor): the tenant
 * record lookup lives here, below the features, so cross-cutting code never reaches up into
 * one. Creating tenants (with their default configuration) is the `tenants` feature's.
 */
@Global()
@Module({
  providers: [TenantsService],
  exports: [TenantsService],
})
export class TenancyModule {}
