import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { AppError } from '@/common/app-error';
import { OutboxService } from '@/platform/outbox/outbox.service';
import { TenantContext } from '@/common/tenant-context';
import { parseLocalDate } from '@/common/dates/local-date';
import { pageStatement, PageRow, settlePage, toPage } from '@/search/search-page';
import { parseSearchRequest, RawSearchQuery } from '@/search/search-request';
import { NumberingService } from '@/numbering/numbering.service';
import { BOOKING_SEARCH, BOOKING_TABLE } from './booking-search';
import { BookingPage } from './dto/booking-search.dto';
import { BOOKING_COLUMNS, BookingRow, BookingView, toBookingView } from './dto/booking.view';
import { CreateBookingRequest } from './dto/create-booking.request';

/** Bookings, always through the request's transaction (row-level security) and by tenant. */
@Injectable()
export class BookingsService {
  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly numbering: NumberingService,
    private readonly outbox: OutboxService,
  ) {}

  async create(tenant: TenantContext, body: CreateBookingRequest): Promise<BookingView> {
    const bookingNumber = await this.numbering.allocate(tenant, 'booking', {
      date: parseLocalDate(body.bookingDate),
    });
    const [row] = await this.txHost.tx.query<BookingRow[]>(
      `INSERT INTO bookings (tenant_id, booking_number, unit_id, buyer_name, buyer_id, booking_date, status, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, 'ACTIVE', $7)
       RETURNING ${BOOKING_COLUMNS}`,
      [
        tenant.tenantId,
        bookingNumber,
        body.unit,
        body.buyerName,
        body.buyerId ?? null,
        body.bookingDate,
        tenant.actor,
      ],
    );
    const booking = toBookingView(row);
    this.outbox.record('booking.created', booking);
    return booking;
  }

  /** POST /bookings/search: one page of bookings (contract §7.6). */
  async search(tenant: TenantContext, query: RawSearchQuery, body: unknown): Promise<BookingPage> {
    const parsed = parseSearchRequest(BOOKING_SEARCH, query, body);
    const statement = pageStatement(BOOKING_TABLE, parsed, tenant.tenantId, BOOKING_COLUMNS);
    const page = settlePage(
      parsed,
      await this.txHost.tx.query<PageRow<BookingRow>[]>(statement.text, statement.params),
    );
    return toPage(page.rows.map(toBookingView), parsed.page, parsed.size, page.totalElements);
  }

  async findOne(tenant: TenantContext, id: string): Promise<BookingView> {
    const [row] = await this.txHost.tx.query<BookingRow[]>(
      `SELECT ${BOOKING_COLUMNS} FROM bookings WHERE tenant_id = $1 AND id = $2`,
      [tenant.tenantId, id],
    );
    if (!row) throw bookingNotFound(id);
    return toBookingView(row);
  }
}

export const bookingNotFound = (id: string) =>
  AppError.notFound('BOOKING_NOT_FOUND', `Booking ${id} was not found.`);
