import {
  CallHandler,
  ExecutionContext,
  Injectable,
  NestInterceptor,
  SetMetadata,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import type { Request } from 'express';
import { from, lastValueFrom, Observable } from 'rxjs';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppConfig } from '@/common/config/app-config';
import { EventType, OutboxService } from '@/common/outbox/outbox.service';
import {
  DatabaseAvailability,
  isDatabaseUnavailable,
} from '@/common/lifecycle/database-availability';
import { TenantsService } from './tenants.service';
import { TenantContext } from './tenant-context';
import { tenantForbidden } from './tenant.guard';
import { TENANT_SETUP_SQL, TenantSetupRow } from './tenant-setup.sql';

/** Pause before the one retry: long enough for a fast restart, jittered so clients spread out. */
const RETRY_BASE_MS = 200;
const RETRY_JITTER_MS = 300;

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
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly config: AppConfig,
    private readonly availability: DatabaseAvailability,
    private readonly tenants: TenantsService,
    private readonly reflector: Reflector,
    private readonly outbox: OutboxService,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const tenant = context.switchToHttp().getRequest<Request>().tenant;
    if (!tenant || this.reflector.get<boolean>(OWN_TRANSACTION, context.getHandler())) {
      return next.handle();
    }
    return from(this.run(tenant, next));
  }

  /**
   * One transparent retry, after a short random pause, when the database was unavailable before
   * the handler ran (connect, BEGIN, set_config): nothing of the request was done, so a database
   * restart of a second costs the client nothing. Once the handler has started, a retry could
   * repeat a write, so the failure goes to the client as 503 DATABASE_UNAVAILABLE instead.
   */
  private async run(tenant: TenantContext, next: CallHandler): Promise<unknown> {
    for (let attempt = 1; ; attempt++) {
      let handlerStarted = false;
      let events: EventType[] = [];
      try {
        const result = await this.txHost.withTransaction(async () => {
          // Transaction-local settings: the tenant for RLS, and bounded waits so a stuck lock or
          // a runaway query becomes a retryable 503 instead of a hung request.
          const [setup] = await this.txHost.tx.query<TenantSetupRow[]>(TENANT_SETUP_SQL, [
            tenant.tenantId,
            `${this.config.dbLockTimeoutMs}ms`,
            `${this.config.dbStatementTimeoutMs}ms`,
          ]);
          if (!setup?.active) {
            // Deactivated since the guard read it from the cache: refuse as the guard would.
            this.tenants.forget(tenant.tenantKey);
            throw tenantForbidden();
          }
          handlerStarted = true;
          this.outbox.begin();
          const response = await lastValueFrom<unknown, undefined>(next.handle(), {
            defaultValue: undefined,
          });
          // Last statement before commit: the events of the changes, numbered (contract §8).
          events = await this.outbox.flush(tenant);
          return response;
        });
        this.availability.recordSuccess();
        if (events.length > 0) this.outbox.committed(tenant.tenantId, events);
        return result;
      } catch (error) {
        if (handlerStarted || attempt > 1 || !isDatabaseUnavailable(error)) throw error;
        await sleep(RETRY_BASE_MS + Math.random() * RETRY_JITTER_MS);
      }
    }
  }
}
