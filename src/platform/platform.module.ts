import { DynamicModule, Global, Module } from '@nestjs/common';
import { DatabaseAvailability } from '@/platform/lifecycle/database-availability';
import { AppConfig } from '@/platform/config/app-config';
import { Clock } from '@/platform/clock/clock';
import { Metrics } from '@/platform/metrics/metrics';
import { OutboxService } from '@/platform/outbox/outbox.service';
import { ReadReplicas } from '@/platform/replicas/read-replicas';
import { SecretsKeyring } from '@/platform/secrets/secrets-keyring';

/** Global providers every feature may inject: the validated configuration, the outbox, metrics,
 * the read replicas, the keys secrets are sealed with at rest, the clock. */
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
        SecretsKeyring,
        Clock,
      ],
      exports: [
        AppConfig,
        DatabaseAvailability,
        OutboxService,
        Metrics,
        ReadReplicas,
        SecretsKeyring,
        Clock,
      ],
    };
  }
}
