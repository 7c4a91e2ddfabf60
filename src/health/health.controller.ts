import { Controller, Get, ServiceUnavailableException } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { Public } from '@/common/auth/auth.decorators';
import { LifecycleState } from '@/common/lifecycle/lifecycle-state';

@ApiTags('health')
@Public()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly db: TypeOrmHealthIndicator,
    private readonly lifecycle: LifecycleState,
  ) {}

  @Get('live')
  @ApiOperation({
    summary:
      'Liveness: 503 only when the service cannot recover by itself (its embedded database could not be restarted).',
  })
  live() {
    const problem = this.lifecycle.livenessProblem;
    if (problem) throw new ServiceUnavailableException(problem);
    return { status: 'ok' };
  }

  @Get('ready')
  @HealthCheck()
  @ApiOperation({
    summary: 'Readiness: the database answers and the service is not shutting down.',
  })
  ready() {
    // Answered without touching the database: a balancer must see this at once.
    const problem = this.lifecycle.readinessProblem;
    if (problem) throw new ServiceUnavailableException(problem);
    return this.health.check([() => this.db.pingCheck('database', { timeout: 2000 })]);
  }
}
