import {
  CallHandler,
  ExecutionContext,
  Injectable,
  NestInterceptor,
  SetMetadata,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { TransactionHost } from '@nestjs-cls/transactional';
import type { Request, Response } from 'express';
import { from, lastValueFrom, Observable, throwError } from 'rxjs';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppConfig } from '@/platform/config/app-config';
import { EventType, OutboxService } from '@/platform/outbox/outbox.service';
import {
  DatabaseAvailability,
  isDatabaseUnavailable,
} from '@/platform/lifecycle/database-availability';
import {
  CONSISTENCY_TOKEN_HEADER,
  consistencyTokenOf,
  lsnToToken,
} from '@/platform/replicas/consistency-token';
import {
  isReplicaRead,
  PRIMARY_ONLY_KEY,
  ReadReplicas,
  READ_ROUTE_KEY,
  REPLAYED_SQL,
  Replica,
} from '@/platform/replicas/read-replicas';
import { RoutingTransactionAdapter } from '@/platform/replicas/routing-transaction-adapter';
import { TenantsService } from '@/http/tenancy/tenants.service';
import { TenantContext } from '@/common/tenant-context';
import { tenantForbidden } from '@/http/tenancy/tenant.guard';
import {
  REPLICA_TENANT_SETUP_SQL,
  ReplicaTenantSetupRow,
  TENANT_SETUP_SQL,
} from '@/http/tenancy/tenant-setup.sql';

/** Pause before the one retry: long enough for a fast restart, jittered so clients spread out. */
const RETRY_BASE_MS = 200;
const RETRY_JITTER_MS = 300;
/** The replica had not replayed the request's token within REPLICA_WAIT_MS. */
class ReplicaBehind extends Error {}

/** SQLSTATE read_only_sql_transaction: a "read" that writes, refused by the standby. */
export const READ_ONLY_TRANSACTION = '25006';

const OWN_TRANSACTION = 'tenancy:own-transaction';

/**
 * The route opens its own tenant transaction (with TENANT_SETUP_SQL) instead of the request's:
 * for streams that outlive the interactive statement timeout and must not hold a connection of
 * the main pool (exports). Authentication and the tenant guard still run first.
 */
export const OwnTenantTransaction = () => SetMetadata(OWN_TRANSACTION, true);

/**
 * Runs each tenant request in one transaction with `app.tenant_id` set transaction-locally, so
 * row-level security applies to every query and every write commits or rolls back as a whole.
 * The handler is awaited inside the transaction: commit happens before the response is sent.
 */
@Injectable()
export class TenantTransactionInterceptor implements NestInterceptor {
  constructor(
    private readonly txHost: TransactionHost<RoutingTransactionAdapter>,
    private readonly config: AppConfig,
    private readonly availability: DatabaseAvailability,
    private readonly tenants: TenantsService,
    private readonly reflector: Reflector,
    private readonly outbox: OutboxService,
    private readonly replicas: ReadReplicas,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const request = http.getRequest<Request>();
    const tenant = request.tenant;
    if (!tenant) return next.handle();
    let token: bigint | undefined;
    try {
      token = consistencyTokenOf(request.headers['x-consistency-token']);
    } catch (error) {
      return throwError(() => error);
    }
    const handler = context.getHandler();
    if (this.reflector.get<boolean>(OWN_TRANSACTION, handler)) return next.handle();
    const read = isReplicaRead(
      request.method,
      {
        readRoute: this.reflector.get<boolean>(READ_ROUTE_KEY, handler),
        primaryOnly: this.reflector.get<boolean>(PRIMARY_ONLY_KEY, handler),
      },
      request.headers['if-match'] !== undefined,
    );
    return from(
      read
        ? this.read(tenant, next, token)
        : this.write(tenant, next, http.getResponse<Response>()),
    );
  }

  /**
   * A read: on a usable replica when one is configured (waiting up to REPLICA_WAIT_MS for it to
   * replay the request's token), else on the primary. A read holds no lock and writes nothing,
   * so when the replica fails or is too slow, running it again on the primary is always safe.
   */
  private async read(tenant: TenantContext, next: CallHandler, token?: bigint): Promise<unknown> {
    if (!this.replicas.configured) return this.run(tenant, next);
    const replica = this.replicas.pick(token);
    if (!replica) {
      this.replicas.served('primary:no-usable-replica');
      return this.run(tenant, next);
    }
    try {
      const result = await this.run(tenant, next, { replica, token });
      this.replicas.served('replica');
      return result;
    } catch (error) {
      if (error instanceof ReplicaBehind) {
        this.replicas.served('primary:token-not-replayed');
      } else if (isDatabaseUnavailable(error) || isReadOnlyViolation(error)) {
        if (isDatabaseUnavailable(error)) this.replicas.failed(replica, error);
        this.replicas.served('primary:replica-failed');
      } else {
        throw error;
      }
      return this.run(tenant, next);
    }
  }

  /**
   * A write, on the primary; once committed its response carries X-Consistency-Token, the
   * position its COMMIT returned (same round trip).
   */
  private write(tenant: TenantContext, next: CallHandler, res: Response): Promise<unknown> {
    return this.run(tenant, next, undefined, (position) =>
      res.setHeader(CONSISTENCY_TOKEN_HEADER, lsnToToken(position)),
    );
  }

  /**
   * One transparent retry, after a short random pause, when the database was unavailable before
   * the handler ran (connect, BEGIN, set_config): nothing of the request was done, so a database
   * restart of a second costs the client nothing. Once the handler has started, a retry could
   * repeat a write, so the failure goes to the client as 503 DATABASE_UNAVAILABLE instead.
   * On a replica (a read) there is no retry here: the caller falls back to the primary.
   */
  private async run(
    tenant: TenantContext,
    next: CallHandler,
    onReplica?: { replica: Replica; token?: bigint },
    onCommitted?: (position: bigint) => void,
  ): Promise<unknown> {
    for (let attempt = 1; ; attempt++) {
      let handlerStarted = false;
      let events: EventType[] = [];
      try {
        const result = await this.txHost.withTransaction(
          { dataSource: onReplica?.replica.dataSource, onCommitted },
          async () => {
            await this.setUp(tenant, onReplica?.token, onReplica !== undefined);
            handlerStarted = true;
            this.outbox.begin();
            const response = await lastValueFrom<unknown, undefined>(next.handle(), {
              defaultValue: undefined,
            });
            // Last statement before commit: the events of the changes, numbered in commit order.
            events = await this.outbox.flush(tenant);
            return response;
          },
        );
        if (!onReplica) this.availability.recordSuccess();
        if (events.length > 0) this.outbox.committed(tenant.tenantId, events);
        return result;
      } catch (error) {
        if (onReplica || handlerStarted || attempt > 1 || !isDatabaseUnavailable(error)) {
          throw error;
        }
        await sleep(RETRY_BASE_MS + Math.random() * RETRY_JITTER_MS);
      }
    }
  }

  /**
   * The transaction's first statement: transaction-local settings (the tenant for RLS, bounded
   * waits so a stuck lock or a runaway query becomes a retryable 503 instead of a hung request)
   * and whether the tenant is still active. On a replica, also how far it has replayed: a read
   * with a token waits until the replica has the write, or gives up (ReplicaBehind). Statements
   * after that wait see the write: each takes a new snapshot (read committed).
   */
  private async setUp(tenant: TenantContext, token: bigint | undefined, onReplica: boolean) {
    const params = [
      tenant.tenantId,
      `${this.config.dbLockTimeoutMs}ms`,
      `${this.config.dbStatementTimeoutMs}ms`,
    ];
    const [setup] = await this.txHost.tx.query<ReplicaTenantSetupRow[]>(
      onReplica ? REPLICA_TENANT_SETUP_SQL : TENANT_SETUP_SQL,
      params,
    );
    if (!setup?.active) {
      // Deactivated since the guard read it from the cache: refuse as the guard would.
      this.tenants.forget(tenant.tenantKey);
      throw tenantForbidden();
    }
    if (token === undefined || !onReplica) return;
    const caughtUp = await this.replicas.replayedTo(token, setup.replayed, async () => {
      const [row] = await this.txHost.tx.query<{ replayed: string | null }[]>(REPLAYED_SQL);
      return row?.replayed;
    });
    if (!caughtUp) throw new ReplicaBehind();
  }
}

function isReadOnlyViolation(error: unknown): boolean {
  const { code, driverError } = error as { code?: unknown; driverError?: { code?: unknown } };
  return code === READ_ONLY_TRANSACTION || driverError?.code === READ_ONLY_TRANSACTION;
}
