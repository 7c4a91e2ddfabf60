import { DynamicModule, Global, Module } from '@nestjs/common';
import { DatabaseAvailability } from '@/common/lifecycle/database-availability';
import { AppConfig } from './config/app-config';
import { Metrics } from './metrics/metrics';
import { OutboxService } from './outbox/outbox.service';
import { ReadReplicas } from './replicas/read-replicas';

/** Global providers every feature may inject: the validated configuration, the outbox, metrics,
 * the read replicas. */
@Global()
@Module({})
export class CommonModule {
  static register(config: AppConfig): DynamicModule {
    return {
      module: CommonModule,
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
