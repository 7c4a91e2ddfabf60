import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { RoutingTransactionAdapter } from '@/platform/replicas/routing-transaction-adapter';
import { OutboxService } from '@/platform/outbox/outbox.service';
import { TenantContext } from '@/common/tenant-context';
import { AppError } from '@/common/app-error';
import { parseLocalDate } from '@/common/dates/local-date';
import { Clock } from '@/platform/clock/clock';
import { pastDateProblems } from '@/common/dates/plausible-dates';
import { decimalFromJson } from '@/common/field-validators';
import { pageStatement, PageRow, settlePage, toPage } from '@/search/search-page';
import { parseSearchRequest, RawSearchQuery } from '@/search/search-request';
import { NumberingService } from '@/numbering/numbering.service';
import { BOOKING_SEARCH, BOOKING_TABLE } from './booking-search';
import { BookingPage } from './dto/booking-page.view';
import { BOOKING_NOT_FOUND } from './bookings.errors';
import {
  BOOKING_BY_ID_SQL,
  BOOKING_COLUMNS,
  bookingByIdParams,
  BookingRow,
  INSERT_BOOKING_SQL,
  insertBookingParams,
} from './bookings.sql';
import { BookingView, toBookingView } from './dto/booking.view';
import { CreateBookingRequest } from './dto/create-booking.request';

/** Bookings, always through the request's transaction (row-level security) and by tenant. */
@Injectable()
export class BookingsService {
  constructor(
    private readonly txHost: TransactionHost<RoutingTransactionAdapter>,
    private readonly clock: Clock,
    private readonly numbering: NumberingService,
    private readonly outbox: OutboxService,
  ) {}

  async create(tenant: TenantContext, body: CreateBookingRequest): Promise<BookingView> {
    const problems = pastDateProblems('bookingDate', body.bookingDate, this.clock.today(tenant));
    if (problems.length > 0) throw AppError.validation(problems);
    const bookingNumber = await this.numbering.allocate(tenant, 'booking', {
      date: parseLocalDate(body.bookingDate),
    });
    const [row] = await this.txHost.tx.query<BookingRow[]>(
      INSERT_BOOKING_SQL,
      insertBookingParams({
        tenantId: tenant.tenantId,
        bookingNumber,
        unitId: body.unit,
        unitName: body.unitName ?? null,
        buyerName: body.buyerName,
        buyerId: body.buyerId ?? null,
        bookingDate: body.bookingDate,
        createdBy: tenant.actor,
        agreementValue:
          body.agreementValue === undefined || body.agreementValue === null
            ? null
            : decimalFromJson(body.agreementValue).toFixed(2),
      }),
    );
    const booking = toBookingView(row, tenant);
    this.outbox.record('booking.created', booking);
    return booking;
  }

  /** POST /bookings/search: one page of bookings. */
  async search(tenant: TenantContext, query: RawSearchQuery, body: unknown): Promise<BookingPage> {
    const parsed = parseSearchRequest(BOOKING_SEARCH, query, body);
    const statement = pageStatement(BOOKING_TABLE, parsed, tenant.tenantId, BOOKING_COLUMNS);
    const page = settlePage(
      parsed,
      await this.txHost.tx.query<PageRow<BookingRow>[]>(statement.text, statement.params),
    );
    return toPage(
      page.rows.map((r) => toBookingView(r, tenant)),
      parsed.page,
      parsed.size,
      page.totalElements,
    );
  }

  async findOne(tenant: TenantContext, id: string): Promise<BookingView> {
    const [row] = await this.txHost.tx.query<BookingRow[]>(
      BOOKING_BY_ID_SQL,
      bookingByIdParams({ tenantId: tenant.tenantId, id }),
    );
    if (!row) throw BOOKING_NOT_FOUND.error(id);
    return toBookingView(row, tenant);
  }
}
