import { Injectable } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { OutboxService } from '@/platform/outbox/outbox.service';
import { matchRouteTemplate, RouteTemplate } from './route-templates';

/** A pg pool's counters, as node-postgres exposes them. */
export interface PoolStats {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

/**
 * The application's Prometheus metrics (GET /metrics, docs/operations.md). Labels carry route
 * templates, methods, statuses, pool names and event types only: never a tenant, an id or a
 * user. One registry per application (tests run several in one process).
 */
@Injectable()
export class Metrics {
  readonly registry = new Registry();
  private readonly pools = new Map<string, () => PoolStats | undefined>();
  private listRoutes: () => RouteTemplate[] = () => [];
  private routes: RouteTemplate[] = [];

  readonly httpRequests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route template and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  readonly httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from the request to the last byte of the response, by method, route template and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  readonly events = new Counter({
    name: 'events_committed_total',
    help: 'Outbox events committed by this instance, by type.',
    labelNames: ['type'] as const,
    registers: [this.registry],
  });
  readonly receiptsRecorded = new Counter({
    name: 'receipts_recorded_total',
    help: 'Receipts recorded (committed) by this instance.',
    registers: [this.registry],
  });
  readonly webhookAttempts = new Counter({
    name: 'webhook_delivery_attempts_total',
    help: 'Webhook delivery attempts made by this instance, by outcome (SUCCEEDED, RETRYING, FAILED).',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly webhookBacklog = new Gauge({
    name: 'webhook_subscriptions_due',
    help: "Subscriptions with undelivered events and no pending backoff, at this instance's last poll.",
    registers: [this.registry],
  });

  constructor(outbox: OutboxService) {
    collectDefaultMetrics({ register: this.registry });
    const pools = this.pools;
    new Gauge({
      name: 'db_pool_connections',
      help: 'Connections of each database pool: total (open), idle, and waiting (requests queued for one).',
      labelNames: ['pool', 'state'] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        for (const [pool, read] of pools) {
          const stats = read();
          if (!stats) continue;
          this.set({ pool, state: 'total' }, stats.totalCount);
          this.set({ pool, state: 'idle' }, stats.idleCount);
          this.set({ pool, state: 'waiting' }, stats.waitingCount);
        }
      },
    });
    outbox.onCommit((_tenantId, types) => {
      for (const type of types) this.events.inc({ type });
      const receipts = types.filter((t) => t === 'receipt.recorded').length;
      if (receipts > 0) this.receiptsRecorded.inc(receipts);
    });
  }

  /** Reports a pool's connections under `name` (main, export, webhooks). */
  registerPool(name: string, read: () => PoolStats | undefined): void {
    this.pools.set(name, read);
  }

  /**
   * Where the application's routes are read from (once they are registered), for responses given
   * before routing: a body refused as too large (413) or in an unsupported encoding (415) is
   * counted under the route it was sent to, not as unmatched.
   */
  useRoutes(list: () => RouteTemplate[]): void {
    this.listRoutes = list;
    this.routes = [];
  }

  private templateOf(req: Request): string | undefined {
    if (this.routes.length === 0) this.routes = this.listRoutes();
    return matchRouteTemplate(this.routes, req.method, req.path);
  }

  /** Express middleware: counts and times every response by its route template. */
  readonly middleware = (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const route = req.route as { path?: string } | undefined;
      const labels = {
        method: req.method,
        // The template (/receipts/:id), never the path: ids and tenants stay out of labels.
        route: route?.path ? `${req.baseUrl}${route.path}` : (this.templateOf(req) ?? 'unmatched'),
        status: String(res.statusCode),
      };
      this.httpRequests.inc(labels);
      this.httpDuration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
    });
    next();
  };
}
