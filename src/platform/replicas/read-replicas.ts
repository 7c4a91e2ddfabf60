import {
  applyDecorators,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
  SetMetadata,
} from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import { Counter, Gauge } from 'prom-client';
import { setTimeout as sleep } from 'node:timers/promises';
import { DataSource } from 'typeorm';
import type { PostgresDataSourceOptions } from 'typeorm/driver/postgres/PostgresDataSourceOptions';
import { AppConfig } from '@/platform/config/app-config';
import { Metrics, PoolStats } from '@/platform/metrics/metrics';
import {
  CONSISTENCY_TOKEN_HEADER,
  CONSISTENCY_TOKEN_PARAMETER_DESCRIPTION,
  CONSISTENCY_TOKEN_PARAMETER_SCHEMA,
  parseLsn,
} from '@/platform/replicas/consistency-token';
import { PRIMARY_POSITION_SQL, REPLICA_STATE_SQL } from './replicas.sql';

/** How often a read waiting for a replica to replay its token asks again. */
const REPLAY_POLL_MS = 5;

export { REPLAYED_SQL } from './replicas.sql';

const READ_ROUTE = 'replicas:read-route';
const PRIMARY_ONLY = 'replicas:primary-only';

/**
 * A POST that only reads (search, summary, export): a replica may serve it like a GET, and it
 * takes X-Consistency-Token like one (documented here; GETs get the header in swagger.ts).
 */
export const ReplicaRead = () =>
  applyDecorators(
    SetMetadata(READ_ROUTE, true),
    ApiHeader({
      name: CONSISTENCY_TOKEN_HEADER,
      required: false,
      description: CONSISTENCY_TOKEN_PARAMETER_DESCRIPTION,
      schema: CONSISTENCY_TOKEN_PARAMETER_SCHEMA,
    }),
  );
/** A GET that must see the primary's latest commit order (the event feed's cursor). */
export const PrimaryOnly = () => SetMetadata(PRIMARY_ONLY, true);

/** Whether a request only reads, so a replica may serve it (docs/operations.md). */
export function isReplicaRead(
  method: string,
  marks: { readRoute?: boolean; primaryOnly?: boolean },
  hasIfMatch: boolean,
): boolean {
  if (marks.primaryOnly || hasIfMatch) return false;
  return method === 'GET' || method === 'HEAD' || marks.readRoute === true;
}

export const READ_ROUTE_KEY = READ_ROUTE;
export const PRIMARY_ONLY_KEY = PRIMARY_ONLY;

/** Why a read went where it went (label of db_reads_total). */
export type ReadRoute =
  'replica' | 'primary:no-usable-replica' | 'primary:token-not-replayed' | 'primary:replica-failed';

export interface Replica {
  /** replica-1, replica-2 ... in DATABASE_READ_URLS order (labels carry no host or password). */
  readonly name: string;
  readonly url: string;
  readonly dataSource: DataSource;
}

interface ReplicaState extends Replica {
  reachable: boolean;
  standby: boolean;
  /** Last replay position seen by the check. */
  replayed: bigint;
  lagMs: number;
  usable: boolean;
}

/**
 * The streaming replicas of DATABASE_READ_URLS (docs/operations.md): one pool each, and a
 * check every REPLICA_CHECK_INTERVAL_MS of whether each can serve reads.
 *
 * Lag is measured against the primary's WAL position, not a replay timestamp (which grows on an
 * idle primary): each check samples the primary's position, and a replica's lag is the age of
 * the oldest sample it has not replayed yet. So a replica that has everything is 0 ms behind
 * however long ago the last write was, and one whose replay stopped falls behind as soon as the
 * primary writes. The figure is a lower bound, exact to one check interval.
 */
@Injectable()
export class ReadReplicas implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ReadReplicas.name);
  private readonly replicas: ReplicaState[];
  private readonly samples: { at: number; lsn: bigint }[] = [];
  private timer?: NodeJS.Timeout;
  private checking?: Promise<void>;
  private nextIndex = 0;
  private readonly reads: Counter<'route'>;

  constructor(
    @InjectDataSource() private readonly primary: DataSource,
    private readonly config: AppConfig,
    metrics: Metrics,
  ) {
    const options = primary.options as PostgresDataSourceOptions;
    this.replicas = config.readReplicas.urls.map((url, i) => ({
      name: `replica-${i + 1}`,
      url,
      dataSource: new DataSource({
        ...options,
        url,
        migrations: [],
        extra: { ...(options.extra as object), application_name: 'finance-service-read' },
      }),
      reachable: false,
      standby: false,
      replayed: 0n,
      lagMs: Number.POSITIVE_INFINITY,
      usable: false,
    }));
    for (const r of this.replicas) {
      const driver = r.dataSource.driver as unknown as { master?: PoolStats };
      metrics.registerPool(r.name, () => driver.master);
    }
    this.reads = new Counter({
      name: 'db_reads_total',
      help: 'Read-only requests by where they were served: replica, or primary and why (no usable replica, token not replayed in time, replica failed).',
      labelNames: ['route'],
      registers: [metrics.registry],
    });
    const replicas = this.replicas;
    new Gauge({
      name: 'db_replica_lag_seconds',
      help: 'How far each read replica is behind the primary (lower bound, to one check interval); +Inf when unreachable.',
      labelNames: ['replica'],
      registers: [metrics.registry],
      collect() {
        for (const r of replicas) this.set({ replica: r.name }, r.lagMs / 1000);
      },
    });
    new Gauge({
      name: 'db_replica_usable',
      help: 'Whether each read replica is reachable, a standby and within REPLICA_MAX_LAG_MS (1) or skipped (0).',
      labelNames: ['replica'],
      registers: [metrics.registry],
      collect() {
        for (const r of replicas) this.set({ replica: r.name }, r.usable ? 1 : 0);
      },
    });
  }

  get configured(): boolean {
    return this.replicas.length > 0;
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.configured) return;
    // One check before serving, so the first reads already know which replicas are usable.
    await this.check();
    this.timer = setInterval(() => {
      this.checking ??= this.check().finally(() => (this.checking = undefined));
    }, this.config.readReplicas.checkIntervalMs);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.checking;
    await Promise.all(
      this.replicas.filter((r) => r.dataSource.isInitialized).map((r) => r.dataSource.destroy()),
    );
  }

  /**
   * A usable replica for a read, round robin; undefined when none is (the primary serves it).
   * With a token, one known to have replayed that far comes first.
   */
  pick(token?: bigint): Replica | undefined {
    const usable = this.replicas.filter((r) => r.usable);
    if (usable.length === 0) return undefined;
    const caughtUp = token === undefined ? usable : usable.filter((r) => r.replayed >= token);
    const from = caughtUp.length > 0 ? caughtUp : usable;
    return from[this.nextIndex++ % from.length];
  }

  /** A replica failed a request: skipped until a check finds it well again. */
  failed(replica: Replica, error: unknown): void {
    const state = this.replicas.find((r) => r.name === replica.name);
    if (state) this.setState(state, { reachable: false }, error);
  }

  /**
   * Whether a replica has replayed up to `token`, asking it (`replayedNow`, on the read's own
   * connection) every few ms for at most REPLICA_WAIT_MS. `first` is what the read's first
   * statement already returned. Once true, the read's later statements see the write: each
   * takes a new snapshot (read committed) or its first one after this (repeatable read).
   */
  async replayedTo(
    token: bigint,
    first: string | null | undefined,
    replayedNow: () => Promise<string | null | undefined>,
  ): Promise<boolean> {
    const deadline = Date.now() + this.config.readReplicas.waitMs;
    let replayed = (first && parseLsn(first)) || 0n;
    while (replayed < token) {
      if (Date.now() >= deadline) return false;
      await sleep(REPLAY_POLL_MS);
      const now = await replayedNow();
      replayed = (now && parseLsn(now)) || 0n;
    }
    return true;
  }

  /** Counts where a read was served (db_reads_total). */
  served(route: ReadRoute): void {
    this.reads.inc({ route });
  }

  /**
   * The primary's WAL insert position now (the lag check's sample). A write's own token comes
   * with its COMMIT instead (COMMIT_RETURNING_POSITION_SQL).
   */
  async primaryPosition(): Promise<bigint> {
    const [row] = await this.primary.query<{ lsn: string }[]>(PRIMARY_POSITION_SQL);
    const lsn = row ? parseLsn(row.lsn) : undefined;
    if (lsn === undefined) throw new Error('pg_current_wal_insert_lsn() returned nothing');
    return lsn;
  }

  /** Samples the primary's position, then each replica's replay position. */
  async check(): Promise<void> {
    const now = Date.now();
    try {
      this.samples.push({ at: now, lsn: await this.primaryPosition() });
    } catch {
      // Primary unreachable: replicas keep their last state; reads fail on the primary anyway.
    }
    // Enough history to tell any lag up to the limit; older than that is "too far behind".
    const keepMs = this.config.readReplicas.maxLagMs + 2 * this.config.readReplicas.checkIntervalMs;
    while (this.samples.length > 2 && now - this.samples[0].at > keepMs) this.samples.shift();
    await Promise.all(this.replicas.map((r) => this.checkReplica(r, now)));
  }

  private async checkReplica(r: ReplicaState, now: number): Promise<void> {
    try {
      if (!r.dataSource.isInitialized) await r.dataSource.initialize();
      const [row] =
        await r.dataSource.query<{ standby: boolean; replayed: string | null }[]>(
          REPLICA_STATE_SQL,
        );
      const replayed = (row?.replayed && parseLsn(row.replayed)) || 0n;
      this.setState(r, {
        reachable: true,
        standby: row?.standby === true,
        replayed,
        lagMs: this.lagOf(replayed, now),
      });
    } catch (error) {
      this.setState(r, { reachable: false }, error);
    }
  }

  /** The age of the oldest primary sample the replica has not replayed (0 when it has all). */
  private lagOf(replayed: bigint, now: number): number {
    const behind = this.samples.find((s) => s.lsn > replayed);
    return behind ? now - behind.at : 0;
  }

  /** Applies a check's findings; a change of usability is one log line, not one per request. */
  private setState(
    r: ReplicaState,
    change: Partial<Pick<ReplicaState, 'reachable' | 'standby' | 'replayed' | 'lagMs'>>,
    error?: unknown,
  ): void {
    Object.assign(r, change);
    if (!r.reachable) r.lagMs = Number.POSITIVE_INFINITY;
    const usable = r.reachable && r.standby && r.lagMs <= this.config.readReplicas.maxLagMs;
    if (usable === r.usable) return;
    r.usable = usable;
    if (usable) {
      this.logger.log(`${r.name} serves reads (${r.lagMs} ms behind the primary)`);
      return;
    }
    const why = !r.reachable
      ? `unreachable (${error instanceof Error ? error.message : String(error)})`
      : !r.standby
        ? 'not a standby (promoted?)'
        : `${r.lagMs} ms behind the primary (REPLICA_MAX_LAG_MS ${this.config.readReplicas.maxLagMs})`;
    this.logger.warn(`${r.name} skipped for reads: ${why}`);
  }
}
