import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { RoutingTransactionAdapter } from '@/platform/replicas/routing-transaction-adapter';
import { OutboxService } from '@/platform/outbox/outbox.service';
import { TenantContext } from '@/common/tenant-context';
import { AppError, FieldError } from '@/common/app-error';
import { parseLocalDate } from '@/common/dates/local-date';
import { Clock } from '@/platform/clock/clock';
import { pastDateProblems } from '@/common/dates/plausible-dates';
import { decimalFromJson } from '@/common/field-validators';
import { pageStatement, PageRow, settlePage, toPage } from '@/search/search-page';
import { parseSearchRequest, RawSearchQuery } from '@/search/search-request';
import { NumberingService } from '@/numbering/numbering.service';
import { checkedGstin } from '@/gst/gst.errors';
import { BOOKING_SEARCH, BOOKING_TABLE } from './booking-search';
import { BookingPage } from './dto/booking-page.view';
import { BOOKING_NOT_FOUND, BOOKING_UPDATE_CANCELLED } from './bookings.errors';
import {
  BOOKING_BY_ID_SQL,
  BOOKING_COLUMNS,
  bookingByIdParams,
  BookingGstValues,
  BookingRow,
  INSERT_BOOKING_SQL,
  insertBookingParams,
  LOCK_BOOKING_FOR_UPDATE_SQL,
  LockedBookingRow,
  UPDATE_BOOKING_SQL,
  updateBookingParams,
} from './bookings.sql';
import { BookingView, toBookingView } from './dto/booking.view';
import { CreateBookingRequest } from './dto/create-booking.request';
import { UpdateBookingRequest } from './dto/update-booking.request';

/** A JSON number checked by its DTO (money or area), as numeric text with two decimals. */
const decimalText = (value: number | null | undefined): string | null =>
  value === undefined || value === null ? null : decimalFromJson(value).toFixed(2);

/** An allotment is never dated before its booking. */
function allotmentDateProblems(allotmentDate: string | null, bookingDate: string): FieldError[] {
  return allotmentDate !== null && allotmentDate < bookingDate
    ? [{ field: 'allotmentDate', message: `must not be before bookingDate (${bookingDate})` }]
    : [];
}

/** A buyer's GSTIN normalised and checked (400 GSTIN_INVALID), or null. */
const buyerGstin = (value: string | null): string | null =>
  value === null ? null : checkedGstin('buyerGstin', value);

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
    const problems = [
      ...pastDateProblems('bookingDate', body.bookingDate, this.clock.today(tenant)),
      ...allotmentDateProblems(body.allotmentDate ?? null, body.bookingDate),
    ];
    if (problems.length > 0) throw AppError.validation(problems);
    const gst: BookingGstValues = {
      carpetAreaSqm: decimalText(body.carpetAreaSqm),
      metroCity: body.metroCity ?? false,
      gstExempt: body.gstExempt ?? false,
      buyerAddress: body.buyerAddress ?? null,
      buyerGstin: buyerGstin(body.buyerGstin ?? null),
      allotmentDate: body.allotmentDate ?? null,
    };
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
        agreementValue: decimalText(body.agreementValue),
        ...gst,
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

  /**
   * PATCH: changes the fields given (null clears one to its default), never a cancelled booking.
   * Writes a booking.updated event when anything changed.
   */
  async update(
    tenant: TenantContext,
    id: string,
    body: UpdateBookingRequest,
  ): Promise<BookingView> {
    const em = this.txHost.tx;
    const key = bookingByIdParams({ tenantId: tenant.tenantId, id });
    const [locked] = await em.query<LockedBookingRow[]>(LOCK_BOOKING_FOR_UPDATE_SQL, key);
    if (!locked) throw BOOKING_NOT_FOUND.error(id);
    if (locked.status === 'CANCELLED') throw BOOKING_UPDATE_CANCELLED.error(id);

    /** The new value of a field: left out keeps the stored one, null clears it. */
    const next = <T, S>(
      given: T | null | undefined,
      stored: S,
      convert: (v: T) => S,
      cleared: S,
    ) => (given === undefined ? stored : given === null ? cleared : convert(given));
    const same = <T>(v: T) => v;
    const values = {
      unitName: next(body.unitName, locked.unit_name, same, null),
      agreementValue: next(body.agreementValue, locked.agreement_value, decimalText, null),
      carpetAreaSqm: next(body.carpetAreaSqm, locked.carpet_area_sqm, decimalText, null),
      metroCity: next(body.metroCity, locked.metro_city, same, false),
      gstExempt: next(body.gstExempt, locked.gst_exempt, same, false),
      buyerAddress: next(body.buyerAddress, locked.buyer_address, same, null),
      buyerGstin: next(body.buyerGstin, locked.buyer_gstin, buyerGstin, null),
      allotmentDate: next(body.allotmentDate, locked.allotment_date, same, null),
    };
    const problems = allotmentDateProblems(values.allotmentDate, locked.booking_date);
    if (problems.length > 0) throw AppError.validation(problems);
    const stored = {
      unitName: locked.unit_name,
      agreementValue: locked.agreement_value,
      carpetAreaSqm: locked.carpet_area_sqm,
      metroCity: locked.metro_city,
      gstExempt: locked.gst_exempt,
      buyerAddress: locked.buyer_address,
      buyerGstin: locked.buyer_gstin,
      allotmentDate: locked.allotment_date,
    };
    if (JSON.stringify(values) === JSON.stringify(stored)) return this.findOne(tenant, id);

    const [row] = await em.query<BookingRow[]>(
      UPDATE_BOOKING_SQL,
      updateBookingParams({ tenantId: tenant.tenantId, id, ...values }),
    );
    const booking = toBookingView(row, tenant);
    this.outbox.record('booking.updated', booking);
    return booking;
  }
}
