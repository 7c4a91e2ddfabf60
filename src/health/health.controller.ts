import { Controller, Get, ServiceUnavailableException } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { Route } from '@/http/route.decorator';
import { ApiPublic } from '@/http/swagger';
import { LifecycleState } from '@/platform/lifecycle/lifecycle-state';
import { NOT_LIVE, NOT_READY } from './health.errors';

@ApiTags('health')
// @Route's scopes: 'public' lets requests in; the document's empty security requirement must
// sit on the class, since @nestjs/swagger drops an empty one on a method.
@ApiPublic()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly db: TypeOrmHealthIndicator,
    private readonly lifecycle: LifecycleState,
  ) {}

  @Get('live')
  @Route({
    summary:
      'Liveness: 503 only when the service cannot recover by itself (its embedded database could not be restarted).',
    description:
      'For a process supervisor (Kubernetes livenessProbe): restart the process when this fails. It does not check the database: an unavailable database shows on readiness, not here.',
    scopes: 'public',
    problems: [NOT_LIVE],
  })
  @ApiOkResponse({
    description: 'The process can serve (or recover by itself).',
    schema: {
      type: 'object',
      required: ['status'],
      properties: { status: { type: 'string', enum: ['ok'], example: 'ok' } },
    },
  })
  live() {
    const problem = this.lifecycle.livenessProblem;
    if (problem) throw new ServiceUnavailableException(NOT_LIVE.detail(problem));
    return { status: 'ok' };
  }

  @Get('ready')
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
  @Route({
    summary: 'Readiness: the database answers and the service is not shutting down.',
    description:
      'For a load balancer (Kubernetes readinessProbe): route traffic here only while this answers 200. It answers 503 at once when shutdown begins, while the database is unreachable or while an embedded database restarts.',
    scopes: 'public',
    problems: [NOT_READY],
  })
  ready() {
    // Answered without touching the database: a balancer must see this at once.
    const problem = this.lifecycle.readinessProblem;
    if (problem) throw new ServiceUnavailableException(NOT_READY.detail(problem));
    return this.health.check([() => this.db.pingCheck('database', { timeout: 2000 })]);
  }
}
