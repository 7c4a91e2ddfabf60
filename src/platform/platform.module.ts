import { DynamicModule, Global, Module } from '@nestjs/common';
import { DatabaseAvailability } from '@/platform/lifecycle/database-availability';
import { AppConfig } from '@/platform/config/app-config';
import { Metrics } from '@/platform/metrics/metrics';
import { OutboxService } from '@/platform/outbox/outbox.service';
import { ReadReplicas } from '@/platform/replicas/read-replicas';

/** Global providers every feature may inject: the validated configuration, the outbox, metrics,
 * the read replicas. */
@Global()
@Module({})
export class PlatformModule {
  static register(config: AppConfig): DynamicModule {
    return {
      module: PlatformModule,
      providers: [
        { provide: AppConfig, useValue: config },
        DatabaseAvailability,
        OutboxService,
        Metrics,
        ReadReplicas,
      ],
      exports: [AppConfig, DatabaseAvailability, OutboxService, Metrics, ReadReplicas],
    };
  }
}
