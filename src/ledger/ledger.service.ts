import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TenantContext } from '@/common/tenant-context';
import { RoutingTransactionAdapter } from '@/platform/replicas/routing-transaction-adapter';
import { BookingRecords, withSplitFacts } from './as-of';
import { LEDGER_RECORDS_SQL, ledgerRecordsParams, LedgerRecordsSqlRow } from './ledger.sql';

/**
 * Reads the records "owed as of a date" is computed from (as-of.ts, booking-ledger.ts), through
 * the request's transaction. Read-only.
 */
@Injectable()
export class LedgerService {
  constructor(private readonly txHost: TransactionHost<RoutingTransactionAdapter>) {}

  /** One booking's records; undefined when it is not the tenant's. */
  async booking(tenant: TenantContext, bookingId: string): Promise<BookingRecords | undefined> {
    return (await this.bookings(tenant, [bookingId])).get(bookingId);
  }

  /** Many bookings' records, by booking id; a booking that is not the tenant's is left out. */
  async bookings(
    tenant: TenantContext,
    bookingIds: readonly string[],
  ): Promise<Map<string, BookingRecords>> {
    const result = new Map<string, BookingRecords>();
    if (bookingIds.length === 0) return result;
    const rows = await this.txHost.tx.query<LedgerRecordsSqlRow[]>(
      LEDGER_RECORDS_SQL,
      ledgerRecordsParams({ tenantId: tenant.tenantId, bookingIds, timezone: tenant.timezone }),
    );
    for (const row of rows) result.set(row.id, withSplitFacts(row));
    return result;
  }
}
