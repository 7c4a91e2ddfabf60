import { Injectable } from '@nestjs/common';
import { Clock } from '@/platform/clock/clock';
import { TransactionHost } from '@nestjs-cls/transactional';
import Decimal from 'decimal.js';
import { FieldError } from '@/common/app-error';
import { isValidLocalDate, localDateFields } from '@/common/dates/local-date';
import { futureDueDateProblems } from '@/common/dates/plausible-dates';
import { decimalFromJson } from '@/common/field-validators';
import { Money, toMoney } from '@/common/money/money';
import { TenantContext } from '@/common/tenant-context';
import { BOOKING_NOT_FOUND } from '@/bookings/bookings.errors';
import { BOOKING_CANCELLED } from '@/demands/demands.errors';
import { DemandInput, DemandsService } from '@/demands/demands.service';
import { DemandView } from '@/demands/dto/demand.view';
import { OutboxService } from '@/platform/outbox/outbox.service';
import { RoutingTransactionAdapter } from '@/platform/replicas/routing-transaction-adapter';
import { BookingRecords } from '@/ledger/as-of';
import { LedgerService } from '@/ledger/ledger.service';
import { BookingInterestView } from './dto/booking-interest.view';
import { planInterestDemand } from './interest-demand';
import { interestRow } from './interest-records';
import { InterestDemandRequest } from './dto/interest-demand.request';
import { InterestWaiverRequest } from './dto/interest-waiver.request';
import { InterestWaiverView } from './dto/interest-waiver.view';
import {
  INTEREST_ALREADY_DEMANDED,
  INTEREST_DISABLED,
  NO_INTEREST_DUE,
  WAIVER_EXCEEDS_DUE,
} from './interest.errors';
import {
  PayerInterest,
  payerInterest,
  prepareTerms,
  SplitInterest,
  splitInterest,
} from './interest-rule';
import {
  bookingParams,
  bookingsInterestParams,
  INSERT_WAIVER_SQL,
  insertWaiverParams,
  INTEREST_SQL,
  InterestRow,
  InterestSplitRow,
  InterestTermsRow,
  InterestWaiverRow,
  LOCK_BOOKING_SQL,
  LockedBookingRow,
  WaiverRow,
} from './interest.sql';
import { validationFailed } from '@/http/errors/validation';

/**
 * Which interest demands and waivers count against what accrued:
 * - `asOf` (GET, waivers): demands dated on or before asOf, not cancelled at asOf, whose
 *   interestThrough is on or before asOf; waivers dated on or before asOf.
 * - `recorded` (a new interest demand): every demand not cancelled now and every waiver, so that
 *   a demand backdated before an earlier one was raised never bills the same days twice.
 */
type Counted = 'asOf' | 'recorded';

/** Interest of a booking (or of one payer) at asOf, as 10.3 defines each figure. */
export interface InterestFigures {
  accrued: Decimal;
  demanded: Decimal;
  waived: Decimal;
  /** accrued - demanded - waived per payer, never below 0 (summed over payers). */
  due: Decimal;
}

/** The interest of one booking at asOf, in decimals. */
export interface BookingInterest {
  row: InterestRow;
  asOf: string;
  enabled: boolean;
  splits: { split: InterestSplitRow; interest: SplitInterest }[];
  payers: PayerInterest[];
  waivers: InterestWaiverRow[];
  totals: InterestFigures;
  /** The latest interestThrough of the booking's interest demands not cancelled now. */
  demandedThrough: string | null;
}

/** The figures of the rule for one booking, from its interest row (interest-records.ts). */
export function bookingInterest(row: InterestRow, asOf: string, counted: Counted): BookingInterest {
  const enabled = row.policy?.enabled ?? false;
  const terms = prepareTerms({
    graceDays: row.policy?.grace_days ?? 0,
    rates: row.policy?.rates ?? [],
  });
  const splits = enabled
    ? row.splits.map((split) => ({
        split,
        interest: splitInterest(
          { amount: split.amount, dueDate: split.dueDate, payments: split.payments },
          terms,
          asOf,
        ),
      }))
    : [];
  const demanded = row.demanded.filter((d) =>
    counted === 'recorded'
      ? d.cancelledOn === null
      : d.demandDate <= asOf &&
        d.interestThrough <= asOf &&
        (d.cancelledOn === null || d.cancelledOn > asOf),
  );
  const waivers = row.waivers.filter((w) => counted === 'recorded' || w.waivedOn <= asOf);
  const payers = payerInterest(
    splits.map((s) => ({ payerId: s.split.payerId, amount: s.interest.accrued })),
    demanded,
    waivers,
  );
  const sum = (pick: (p: PayerInterest) => Decimal) =>
    payers.reduce((a, p) => a.plus(pick(p)), new Decimal(0));
  const through = row.demanded
    .filter((d) => d.cancelledOn === null)
    .map((d) => d.interestThrough)
    .sort();
  return {
    row,
    asOf,
    enabled,
    splits,
    payers,
    waivers,
    totals: {
      accrued: sum((p) => p.accrued),
      demanded: sum((p) => p.demanded),
      waived: sum((p) => p.waived),
      due: sum((p) => p.due),
    },
    demandedThrough: through.length > 0 ? through[through.length - 1] : null,
  };
}

/** The figures of one payer of a booking (zero when it has none), or of every payer. */
export function payerFigures(interest: BookingInterest, payerId?: string): InterestFigures {
  if (payerId === undefined) return interest.totals;
  const zero = new Decimal(0);
  const payer = interest.payers.find((p) => p.payerId === payerId);
  return payer ?? { accrued: zero, demanded: zero, waived: zero, due: zero };
}

function invalid(errors: FieldError[]) {
  return validationFailed(errors);
}

/**
 * Interest on late payment per booking (docs/interest.md): the figures of GET
 * /bookings/{id}/interest, interest demands and waivers. Every figure comes from one statement
 * per booking (INTEREST_SQL) and the pure rule (interest-rule.ts). Writes lock the booking first
 * (LOCK_BOOKING_SQL), so two of them on one booking queue and never bill or waive the same
 * interest twice.
 */
@Injectable()
export class InterestService {
  constructor(
    private readonly clock: Clock,
    private readonly txHost: TransactionHost<RoutingTransactionAdapter>,
    private readonly ledger: LedgerService,
    private readonly demands: DemandsService,
    private readonly outbox: OutboxService,
  ) {}

  /** The interest of a booking at asOf; 404 when it is not the tenant's. */
  async compute(
    tenant: TenantContext,
    bookingId: string,
    asOf: string,
    counted: Counted = 'asOf',
  ): Promise<BookingInterest> {
    const records = await this.ledger.booking(tenant, bookingId);
    if (!records) throw BOOKING_NOT_FOUND.error(bookingId);
    return this.fromRecords(tenant, records, asOf, counted);
  }

  /** The interest of a booking whose records (all of them, not cut at a date) the caller has. */
  async fromRecords(
    tenant: TenantContext,
    records: BookingRecords,
    asOf: string,
    counted: Counted = 'asOf',
  ): Promise<BookingInterest> {
    const terms = await this.terms(tenant, [records.id]);
    return bookingInterest(interestRow(records, terms.get(records.id), asOf), asOf, counted);
  }

  /**
   * The interest of many bookings at asOf, from the same statements as one booking's (a reminder
   * run's letters): by booking id; a booking that is not the tenant's is left out.
   */
  async computeMany(
    tenant: TenantContext,
    bookingIds: readonly string[],
    asOf: string,
  ): Promise<Map<string, BookingInterest>> {
    const result = new Map<string, BookingInterest>();
    if (bookingIds.length === 0) return result;
    const records = await this.ledger.bookings(tenant, bookingIds);
    const terms = await this.terms(tenant, bookingIds);
    for (const [id, r] of records) {
      result.set(id, bookingInterest(interestRow(r, terms.get(id), asOf), asOf, 'asOf'));
    }
    return result;
  }

  /** The policy and waivers of bookings, by booking id. */
  private async terms(
    tenant: TenantContext,
    bookingIds: readonly string[],
  ): Promise<Map<string, InterestTermsRow>> {
    const rows = await this.txHost.tx.query<InterestTermsRow[]>(
      INTEREST_SQL,
      bookingsInterestParams({ tenantId: tenant.tenantId, bookingIds }),
    );
    return new Map(rows.map((r) => [r.id, r]));
  }

  /** GET /bookings/{id}/interest?asOf= (default today; a future date projects). */
  async view(
    tenant: TenantContext,
    bookingId: string,
    raw: { asOf?: unknown },
  ): Promise<BookingInterestView> {
    let asOf = this.clock.today(tenant);
    if (raw.asOf !== undefined) {
      const fields = typeof raw.asOf === 'string' ? localDateFields(raw.asOf) : undefined;
      if (!fields || !isValidLocalDate(fields)) {
        throw invalid([{ field: 'asOf', message: 'must be a real calendar date as YYYY-MM-DD' }]);
      }
      asOf = raw.asOf as string;
    }
    return toView(await this.compute(tenant, bookingId, asOf), tenant);
  }

  /** POST /bookings/{id}/interest-demands: one INTEREST demand for what is due at asOf. */
  async raiseDemand(
    tenant: TenantContext,
    bookingId: string,
    body: InterestDemandRequest,
  ): Promise<DemandView> {
    const now = this.clock.today(tenant);
    if (body.asOf > now) {
      throw invalid([{ field: 'asOf', message: `must not be after today (${now})` }]);
    }
    const dueProblems = futureDueDateProblems(body.dueDate, now);
    if (dueProblems.length > 0) throw invalid(dueProblems);
    await this.lockBooking(tenant, bookingId, { refuseCancelled: true });
    const plan = planInterestDemand(
      await this.compute(tenant, bookingId, body.asOf, 'recorded'),
      body.asOf,
    );
    if (plan.kind === 'DISABLED') throw INTEREST_DISABLED.error();
    if (plan.kind === 'ALREADY_DEMANDED') {
      throw INTEREST_ALREADY_DEMANDED.errorWith(
        { errors: [{ field: 'asOf', message: `must be after ${plan.through}` }] },
        body.asOf,
        plan.through,
      );
    }
    if (plan.kind === 'NOTHING_DUE') throw NO_INTEREST_DUE.error(body.asOf);
    const request: DemandInput = {
      booking: bookingId,
      milestone: null,
      demandType: 'INTEREST',
      totalAmount: plan.total,
      dueDate: body.dueDate,
      demandDate: now,
      remarks: `Interest on late payment, ${plan.from} to ${body.asOf}`,
      splits: plan.splits.map((p) => ({
        payerType: p.payerType as DemandInput['splits'][number]['payerType'],
        payerId: p.payerId,
        amount: p.amount,
      })),
    };
    return this.demands.create(tenant, request, { interestThrough: body.asOf });
  }

  /** POST /bookings/{id}/interest-waivers: forgives up to the payer's interest due today. */
  async waive(
    tenant: TenantContext,
    bookingId: string,
    body: InterestWaiverRequest,
  ): Promise<InterestWaiverView> {
    const amount = decimalFromJson(body.amount);
    const now = this.clock.today(tenant);
    await this.lockBooking(tenant, bookingId, { refuseCancelled: false });
    const interest = await this.compute(tenant, bookingId, now);
    const payerId = body.payerId.toLowerCase();
    const due = interest.payers.find((p) => p.payerId === payerId)?.due ?? new Decimal(0);
    if (amount.gt(due)) {
      throw WAIVER_EXCEEDS_DUE.errorWith(
        { errors: [{ field: 'amount', message: `exceeds the ${due.toFixed(2)} due today` }] },
        amount.toFixed(2),
        due.toFixed(2),
      );
    }
    const [row] = await this.txHost.tx.query<WaiverRow[]>(
      INSERT_WAIVER_SQL,
      insertWaiverParams({
        tenantId: tenant.tenantId,
        bookingId,
        payerId,
        amount: amount.toFixed(2),
        reason: body.reason,
        waivedOn: now,
        waivedBy: tenant.actor,
      }),
    );
    const view: InterestWaiverView = {
      id: row.id,
      booking: row.booking_id,
      payerId: row.payer_id,
      amount: toMoney(row.amount, tenant.currency, tenant.locale),
      reason: row.reason,
      waivedOn: row.waived_on,
      waivedBy: row.waived_by,
    };
    this.outbox.record('interest.waived', view);
    return view;
  }

  private async lockBooking(
    tenant: TenantContext,
    bookingId: string,
    options: { refuseCancelled: boolean },
  ): Promise<void> {
    const [booking] = await this.txHost.tx.query<LockedBookingRow[]>(
      LOCK_BOOKING_SQL,
      bookingParams({ tenantId: tenant.tenantId, bookingId }),
    );
    if (!booking) throw BOOKING_NOT_FOUND.error(bookingId);
    if (options.refuseCancelled && booking.status === 'CANCELLED') {
      throw BOOKING_CANCELLED.error(bookingId);
    }
  }
}

/** The figures as the API shows them (Money objects in the tenant's currency and locale). */
export function toView(interest: BookingInterest, tenant: TenantContext): BookingInterestView {
  // A booking's periods repeat few amounts (an unpaid amount across rate changes, zeros): each
  // distinct amount is formatted once per response.
  const formatted = new Map<string, Money>();
  const money = (v: Decimal | string) => {
    const text = typeof v === 'string' ? v : v.toFixed(2);
    let m = formatted.get(text);
    if (!m) formatted.set(text, (m = toMoney(text, tenant.currency, tenant.locale)));
    return m;
  };
  const { row } = interest;
  return {
    booking: {
      id: row.id,
      bookingNumber: row.booking_number,
      unit: row.unit_id,
      buyerName: row.buyer_name,
    },
    asOf: interest.asOf,
    enabled: interest.enabled,
    splits: interest.splits.map(({ split, interest: i }) => ({
      demandSplit: split.id,
      demand: split.demand,
      demandNumber: split.demandNumber,
      payerType: split.payerType,
      payerId: split.payerId,
      dueDate: split.dueDate,
      periods: i.periods.map((p) => ({
        from: p.from,
        to: p.to,
        days: p.days,
        unpaid: money(p.unpaid),
        annualRatePercent: Number(p.annualRatePercent),
        interest: money(p.interest),
      })),
      accrued: money(i.accrued),
    })),
    payers: interest.payers.map((p) => ({
      payerId: p.payerId,
      accrued: money(p.accrued),
      demanded: money(p.demanded),
      waived: money(p.waived),
      due: money(p.due),
    })),
    waivers: interest.waivers.map((w) => ({
      id: w.id,
      booking: row.id,
      payerId: w.payerId,
      amount: money(w.amount),
      reason: w.reason,
      waivedOn: w.waivedOn,
      waivedBy: w.waivedBy,
    })),
    totals: {
      accrued: money(interest.totals.accrued),
      demanded: money(interest.totals.demanded),
      waived: money(interest.totals.waived),
      due: money(interest.totals.due),
    },
  };
}
