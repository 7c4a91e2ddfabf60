import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import type { Request } from 'express';
import { from, lastValueFrom, Observable } from 'rxjs';
import { AppConfig } from '@/common/config/app-config';

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
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const tenant = context.switchToHttp().getRequest<Request>().tenant;
    if (!tenant) return next.handle();
    return from(
      this.txHost.withTransaction(async () => {
        // Transaction-local settings: the tenant for RLS, and bounded waits so a stuck lock or a
        // runaway query becomes a retryable 503 instead of a hung request.
        await this.txHost.tx.query(
          `SELECT set_config('app.tenant_id', $1, true),
                  set_config('lock_timeout', $2, true),
                  set_config('statement_timeout', $3, true)`,
          [
            tenant.tenantId,
            `${this.config.dbLockTimeoutMs}ms`,
            `${this.config.dbStatementTimeoutMs}ms`,
          ],
        );
        return lastValueFrom<unknown, undefined>(next.handle(), { defaultValue: undefined });
      }),
    );
  }
}
