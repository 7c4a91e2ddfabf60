import { Global, Module } from '@nestjs/common';
import { TenantConfigModule } from '@/tenant-config/tenant-config.module';
import { TenantProvisioningService } from './tenant-provisioning.service';
import { TenantsService } from './tenants.service';

@Global()
@Module({
  imports: [TenantConfigModule],
  providers: [TenantsService, TenantProvisioningService],
  exports: [TenantsService, TenantProvisioningService],
})
export class TenantsModule {}
