import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import type { Request } from 'express';
import { from, lastValueFrom, Observable } from 'rxjs';

/**
 * Runs each tenant request in one transaction with `app.tenant_id` set transaction-locally, so
 * row-level security applies to every query and every write commits or rolls back as a whole.
 * The handler is awaited inside the transaction: commit happens before the response is sent.
 */
@Injectable()
export class TenantTransactionInterceptor implements NestInterceptor {
  constructor(private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const tenant = context.switchToHttp().getRequest<Request>().tenant;
    if (!tenant) return next.handle();
    return from(
      this.txHost.withTransaction(async () => {
        await this.txHost.tx.query(`SELECT set_config('app.tenant_id', $1, true)`, [
          tenant.tenantId,
        ]);
        return lastValueFrom<unknown, undefined>(next.handle(), { defaultValue: undefined });
      }),
    );
  }
}
