import type { PoolConfig } from 'pg';
import PgBoss from 'pg-boss';

export interface JobQueueOptions {
  connectionString: string;
  applicationName: string;
  /** How long a query may wait for one of the queue's connections (DB_CONNECT_TIMEOUT_MS). */
  connectTimeoutMs: number;
  /** Cron schedules (pg-boss' timekeeper); off where nothing is scheduled. */
  schedule?: boolean;
}

/**
 * pg-boss on the `pgboss` schema the migrations create (this process only reads and writes its
 * rows), on two connections of its own.
 *
 * The connect timeout is what lets a process that stopped its queue exit. pg-pool never answers a
 * request still waiting for a connection when the pool ends, and pg-boss' stop() ends its pool
 * without waiting for workers whose fetch is queued there: each such worker stays "stopping"
 * for good, and pg-boss polls for it every second, forever. With 4 workers on 2 connections, a
 * stop soon after the start left the process running 5 times in 5; with the timeout, 0 in 5.
 * test/job-queue.e2e-spec.ts keeps that case.
 */
export function jobQueue(options: JobQueueOptions): PgBoss {
  // pg-boss hands its whole configuration to pg.Pool; its types list only some pool settings.
  const config: PgBoss.ConstructorOptions & Pick<PoolConfig, 'connectionTimeoutMillis'> = {
    connectionString: options.connectionString,
    schema: 'pgboss',
    migrate: false,
    schedule: options.schedule ?? false,
    max: 2,
    connectionTimeoutMillis: options.connectTimeoutMs,
    application_name: options.applicationName,
  };
  return new PgBoss(config);
}
