import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { LifecycleState, lifecycleState } from '@/platform/lifecycle/lifecycle-state';
import { HealthController } from './health.controller';
import { MetricsController } from './metrics.controller';

@Module({
  imports: [TerminusModule],
  controllers: [HealthController, MetricsController],
  // The process-wide instance: signal handlers and the database supervisor live outside Nest.
  providers: [{ provide: LifecycleState, useValue: lifecycleState }],
})
export class HealthModule {}
