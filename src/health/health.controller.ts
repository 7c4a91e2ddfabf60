import { Controller, Get, ServiceUnavailableException } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiProblems } from '@/http/errors/api-problems';
import { ApiPublic } from '@/http/swagger';
import { HealthCheck, HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { Public } from '@/http/auth/auth.decorators';
import { LifecycleState } from '@/platform/lifecycle/lifecycle-state';

@ApiTags('health')
@Public()
@ApiPublic()
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
    description:
      'For a process supervisor (Kubernetes livenessProbe): restart the process when this fails. It does not check the database: an unavailable database shows on readiness, not here.',
  })
  @ApiOkResponse({
    description: 'The process can serve (or recover by itself).',
    schema: {
      type: 'object',
      required: ['status'],
      properties: { status: { type: 'string', enum: ['ok'], example: 'ok' } },
    },
  })
  @ApiProblems({
    status: 503,
    code: 'SERVICE_UNAVAILABLE',
    detail: 'The embedded PostgreSQL could not be restarted after 3 attempts.',
  })
  live() {
    const problem = this.lifecycle.livenessProblem;
    if (problem) throw new ServiceUnavailableException(problem);
    return { status: 'ok' };
  }

  @Get('ready')
  @ApiProblems({
    status: 503,
    code: 'SERVICE_UNAVAILABLE',
    detail: 'Shutting down (SIGTERM received).',
  })
  // Its own Swagger responses are off: a 503 here is problem+json, not Terminus' report.
  @HealthCheck({ swaggerDocumentation: false })
  @ApiOkResponse({
    description: 'Ready: the database answered within 2 s.',
    schema: {
      type: 'object',
      required: ['status'],
      properties: {
        status: { type: 'string', enum: ['ok'], example: 'ok' },
        info: {
          type: 'object',
          additionalProperties: {
            type: 'object',
            properties: { status: { type: 'string', example: 'up' } },
          },
          example: { database: { status: 'up' } },
        },
        error: { type: 'object', example: {} },
        details: {
          type: 'object',
          additionalProperties: {
            type: 'object',
            properties: { status: { type: 'string', example: 'up' } },
          },
          example: { database: { status: 'up' } },
        },
      },
    },
  })
  @ApiOperation({
    summary: 'Readiness: the database answers and the service is not shutting down.',
    description:
      'For a load balancer (Kubernetes readinessProbe): route traffic here only while this answers 200. It answers 503 at once when shutdown begins, while the database is unreachable or while an embedded database restarts.',
  })
  ready() {
    // Answered without touching the database: a balancer must see this at once.
    const problem = this.lifecycle.readinessProblem;
    if (problem) throw new ServiceUnavailableException(problem);
    return this.health.check([() => this.db.pingCheck('database', { timeout: 2000 })]);
  }
}
