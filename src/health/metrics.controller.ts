import { Controller, Get, Header } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { Route } from '@/http/route.decorator';
import { ApiPublic } from '@/http/swagger';
import { Metrics, PoolStats } from '@/platform/metrics/metrics';

@ApiTags('health')
// @Route's scopes: 'public' lets requests in; the document's empty security requirement must
// sit on the class, since @nestjs/swagger drops an empty one on a method.
@ApiPublic()
@Controller('metrics')
export class MetricsController {
  constructor(
    private readonly metrics: Metrics,
    @InjectDataSource() dataSource: DataSource,
  ) {
    // TypeORM's pool for requests (node-postgres' Pool behind the driver).
    const driver = dataSource.driver as unknown as { master?: PoolStats };
    metrics.registerPool('main', () => driver.master);
  }

  @Get()
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  @Header('Cache-Control', 'no-store')
  @Route({
    summary: 'Prometheus metrics.',
    description:
      'Text exposition format: http_requests_total and http_request_duration_seconds by method, route template and status; db_pool_connections (total, idle, waiting) per pool (main, export, webhooks, and one per read replica); db_reads_total by where reads were served, db_replica_lag_seconds and db_replica_usable per replica; events_committed_total by type, receipts_recorded_total; webhook_delivery_attempts_total by outcome and webhook_subscriptions_due; process memory, CPU and event-loop lag. No tenant, id or user appears in any label. Public like the health checks and never rate-limited: expose it on an internal network only.',
    scopes: 'public',
  })
  @ApiProduces('text/plain')
  @ApiOkResponse({
    description: 'The metrics of this instance.',
    content: {
      'text/plain': {
        schema: {
          type: 'string',
          example:
            '# HELP http_requests_total HTTP requests answered, by method, route template and status.\n# TYPE http_requests_total counter\nhttp_requests_total{method="POST",route="/receipts",status="201"} 42\n',
        },
      },
    },
  })
  scrape(): Promise<string> {
    return this.metrics.registry.metrics();
  }
}
