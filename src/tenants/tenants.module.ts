import { Global, Module } from '@nestjs/common';
import { TenantConfigModule } from '@/tenant-config/tenant-config.module';
import { TenantProvisioningService } from './tenant-provisioning.service';

/** Creating tenants, each with its default numbering configuration. */
@Global()
@Module({
  imports: [TenantConfigModule],
  providers: [TenantProvisioningService],
  exports: [TenantProvisioningService],
})
export class TenantsModule {}
