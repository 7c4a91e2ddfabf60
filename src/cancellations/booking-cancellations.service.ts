import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { FieldError } from '@/common/app-error';
import { pastDateProblems } from '@/common/dates/plausible-dates';
import { parseLocalDate } from '@/common/dates/local-date';
import { isLocalDateString } from '@/common/field-validators';
import { toMoney } from '@/common/money/money';
import { MoneyView } from '@/common/money/money.view';
import { paiseText, toPaise } from '@/common/money/paise';
import { TenantContext } from '@/common/tenant-context';
import { BOOKING_NOT_FOUND } from '@/bookings/bookings.errors';
import { BookingsService } from '@/bookings/bookings.service';
import { DemandsService } from '@/demands/demands.service';
import { GstSettingsService } from '@/gst-settings/gst-settings.service';
import { integerQueryParam, refuseInvalidQuery } from '@/http/cursor-query';
import { validationFailed } from '@/http/errors/validation';
import { InterestPolicyService } from '@/interest/interest-policy.service';
import { dayNumber } from '@/interest/interest-rule';
import { NumberingService } from '@/numbering/numbering.service';
import { Clock } from '@/platform/clock/clock';
import { OutboxService } from '@/platform/outbox/outbox.service';
import { RoutingTransactionAdapter } from '@/platform/replicas/routing-transaction-adapter';
import {
  ACTIVE_RECEIPTS_OF_BOOKING_SQL,
  ActiveReceiptRow,
  bookingParams,
  bookingsParams,
  CANCELLATION_BY_ID_SQL,
  CANCELLATION_OF_BOOKING_SQL,
  CancellationRow,
  FrozenFigures,
  idParams,
  INSERT_CANCELLATION_SQL,
  insertCancellationParams,
  LOCK_CANCELLATION_SQL,
  LOCK_QUOTE_BOOKING_SQL,
  PAY_REFUND_SQL,
  payRefundParams,
  QUOTE_BOOKING_SQL,
  QUOTE_DEMANDS_SQL,
  QuoteBookingRow,
  QuoteDemandRow,
  REFUNDS_QUEUE_SQL,
  RefundQueueStatus,
  refundsQueueParams,
  RefundsQueueRow,
} from './booking-cancellations.sql';
import { CancellationPolicyService } from './cancellation-policy.service';
import { InitiatedBy, QuoteDemand, quoteCancellation } from './cancellation-quote';
import {
  AGREEMENT_VALUE_REQUIRED,
  ALREADY_CANCELLED,
  CANCELLATION_NOT_FOUND,
  REFUND_ALREADY_PAID,
  REFUND_MODE_NOT_ALLOWED,
} from './cancellations.errors';
import { CancellationsService } from './cancellations.service';
import { creditWindowCloses, financialYearOf } from './credit-notes';
import {
  BookingCancellationRequest,
  INITIATED_BY,
  RefundRequest,
} from './dto/booking-cancellation.request';
import {
  CancellationFiguresView,
  CancellationQuoteView,
  CancellationView,
  RefundQueueItemView,
  RefundQueuePage,
} from './dto/cancellation.view';
import { refundInterest } from './refund-interest';

/** Income-tax section 269T: from this amount a refund goes through a bank. */
const CASH_REFUND_LIMIT = toPaise('20000.00');
const NOT_THROUGH_A_BANK = new Set(['CASH', 'OTHER']);

/** What a quote or a cancellation is asked with, checked. */
interface QuoteAsk {
  requestedOn: string;
  initiatedBy: InitiatedBy;
}

/**
 * Cancelling a booking that has been paid for (docs/cancellation.md): the quote, the
 * cancellation (its figures frozen, the booking, demands and splits cancelled, credit notes
 * issued, the refund due), the refund's payment with its interest, and the refunds queue. The
 * figures are `quoteCancellation`'s (pure); this reads what it needs and writes what it decides.
 *
 * The cancellation takes the cancel's lock order (booking, splits, demands): a receipt recorded,
 * cancelled or bounced at the same time either commits first and is counted, or waits and finds
 * the demand cancelled (409). Two cancellations of one booking queue on the booking's lock; the
 * second finds it cancelled (409 ALREADY_CANCELLED).
 */
@Injectable()
export class BookingCancellationsService {
  constructor(
    private readonly txHost: TransactionHost<RoutingTransactionAdapter>,
    private readonly cancels: CancellationsService,
    private readonly bookings: BookingsService,
    private readonly demands: DemandsService,
    private readonly policies: CancellationPolicyService,
    private readonly gst: GstSettingsService,
    private readonly interest: InterestPolicyService,
    private readonly numbering: NumberingService,
    private readonly outbox: OutboxService,
    private readonly clock: Clock,
  ) {}

  async quote(
    tenant: TenantContext,
    bookingId: string,
    raw: { requestedOn?: unknown; initiatedBy?: unknown },
  ): Promise<CancellationQuoteView> {
    const errors: FieldError[] = [];
    if (raw.requestedOn !== undefined && !isLocalDateString(raw.requestedOn)) {
      errors.push({ field: 'requestedOn', message: 'must be a real calendar date as YYYY-MM-DD' });
    }
    if (
      raw.initiatedBy !== undefined &&
      !(INITIATED_BY as readonly unknown[]).includes(raw.initiatedBy)
    ) {
      errors.push({ field: 'initiatedBy', message: `must be one of ${INITIATED_BY.join(', ')}` });
    }
    refuseInvalidQuery(errors);
    const [booking] = await this.txHost.tx.query<QuoteBookingRow[]>(
      QUOTE_BOOKING_SQL,
      bookingParams({ tenantId: tenant.tenantId, bookingId }),
    );
    if (!booking) throw BOOKING_NOT_FOUND.error(bookingId);
    if (booking.status === 'CANCELLED') throw ALREADY_CANCELLED.error('Booking', bookingId);
    const ask = this.ask(tenant, booking, {
      requestedOn: raw.requestedOn as string | undefined,
      initiatedBy: raw.initiatedBy as InitiatedBy | undefined,
    });
    const figures = await this.figures(tenant, booking, ask);
    return {
      ...toFiguresView(bookingId, ask, figures, tenant),
      refund: this.money(tenant, figures.refund),
    };
  }

  async cancel(
    tenant: TenantContext,
    bookingId: string,
    body: BookingCancellationRequest,
  ): Promise<CancellationView> {
    const em = this.txHost.tx;
    const [booking] = await em.query<QuoteBookingRow[]>(
      LOCK_QUOTE_BOOKING_SQL,
      bookingParams({ tenantId: tenant.tenantId, bookingId }),
    );
    if (!booking) throw BOOKING_NOT_FOUND.error(bookingId);
    if (booking.status === 'CANCELLED') throw ALREADY_CANCELLED.error('Booking', bookingId);
    const ask = this.ask(tenant, booking, body);
    // Splits and demands locked before they are read: the figures are those of the commit.
    await this.cancels.lockDemands(tenant, 'booking', bookingId);
    const figures = await this.figures(tenant, booking, ask);
    const cancelledOn = this.clock.today(tenant);
    const nothingToRefund = figures.refund === '0.00';
    const [row] = await em.query<{ id: string }[]>(
      INSERT_CANCELLATION_SQL,
      insertCancellationParams({
        tenantId: tenant.tenantId,
        bookingId,
        requestedOn: ask.requestedOn,
        cancelledOn,
        initiatedBy: ask.initiatedBy,
        reason: body.reason,
        figures,
        refundAmount: figures.refund,
        refundDueDate: figures.refundDueDate,
        settledOn: nothingToRefund ? cancelledOn : null,
        actor: tenant.actor,
      }),
    );
    const demandIds = await this.cancels.cancelDemandRows(
      tenant,
      'booking',
      bookingId,
      body.reason,
    );
    await this.cancels.issueCreditNotes(tenant, bookingId, demandIds, body.reason, {
      credited: creditedByDemand(figures),
      cancellationId: row.id,
    });
    await this.cancels.cancelBookingRow(tenant, bookingId, body.reason);
    const cancellation = await this.read(tenant, CANCELLATION_BY_ID_SQL, row.id);
    const cancelled = await this.bookings.findOne(tenant, bookingId);
    this.outbox.record('booking.cancelled', { ...cancelled, cancellation });
    for (const demandId of demandIds) {
      this.outbox.record('demand.cancelled', await this.demands.findOne(tenant, demandId));
    }
    return cancellation;
  }

  async findOne(tenant: TenantContext, id: string): Promise<CancellationView> {
    return this.read(tenant, CANCELLATION_BY_ID_SQL, id);
  }

  async ofBooking(tenant: TenantContext, bookingId: string): Promise<CancellationView> {
    return this.read(tenant, CANCELLATION_OF_BOOKING_SQL, bookingId, `of booking ${bookingId}`);
  }

  /** Pays the whole refund at once, with its interest; numbered from the refund series. */
  async payRefund(
    tenant: TenantContext,
    id: string,
    body: RefundRequest,
  ): Promise<CancellationView> {
    const em = this.txHost.tx;
    const [row] = await em.query<CancellationRow[]>(
      LOCK_CANCELLATION_SQL,
      idParams({ tenantId: tenant.tenantId, id }),
    );
    if (!row) throw CANCELLATION_NOT_FOUND.error(id);
    if (row.refund_paid_on !== null) throw REFUND_ALREADY_PAID.error(id, row.refund_paid_on);
    const problems = pastDateProblems('paidOn', body.paidOn, this.clock.today(tenant));
    if (problems.length === 0 && body.paidOn < row.cancelled_on) {
      problems.push({
        field: 'paidOn',
        message: `must not be before the cancellation (${row.cancelled_on})`,
      });
    }
    if (problems.length > 0) throw validationFailed(problems);

    const interest = await this.interestOn(tenant, row, body.paidOn);
    const paid = toPaise(row.refund_amount) + interest;
    if (NOT_THROUGH_A_BANK.has(body.paymentMode) && paid >= CASH_REFUND_LIMIT) {
      throw REFUND_MODE_NOT_ALLOWED.error(body.paymentMode, paiseText(paid));
    }
    const voucherNumber = await this.numbering.allocate(tenant, 'refund', {
      date: parseLocalDate(body.paidOn),
    });
    await em.query(
      PAY_REFUND_SQL,
      payRefundParams({
        tenantId: tenant.tenantId,
        id,
        paidOn: body.paidOn,
        interest: paiseText(interest),
        paidAmount: paiseText(paid),
        paymentMode: body.paymentMode,
        transactionRef: body.transactionRef,
        voucherNumber,
        actor: tenant.actor,
      }),
    );
    const cancellation = await this.read(tenant, CANCELLATION_BY_ID_SQL, id);
    this.outbox.record('refund.paid', cancellation);
    return cancellation;
  }

  /** GET /refunds: a page of the queue, oldest due first. */
  async queue(
    tenant: TenantContext,
    raw: { status?: unknown; page?: unknown; size?: unknown },
  ): Promise<RefundQueuePage> {
    const errors: FieldError[] = [];
    const statuses: readonly RefundQueueStatus[] = ['DUE', 'OVERDUE', 'PAID'];
    if (raw.status !== undefined && !(statuses as readonly unknown[]).includes(raw.status)) {
      errors.push({ field: 'status', message: 'must be DUE, OVERDUE or PAID' });
    }
    const page = integerQueryParam('page', raw.page, 0, 0, 1_000_000, errors);
    const size = integerQueryParam('size', raw.size, 20, 1, 500, errors);
    refuseInvalidQuery(errors);
    const status = (raw.status as RefundQueueStatus | undefined) ?? 'DUE';
    const today = this.clock.today(tenant);
    const rows = await this.txHost.tx.query<RefundsQueueRow[]>(
      REFUNDS_QUEUE_SQL(status),
      refundsQueueParams({ tenantId: tenant.tenantId, today, page, size }),
    );
    const rates = await this.rates(tenant);
    const atFault = rows.filter(
      (r) => r.initiated_by === 'PROMOTER_DEFAULT' && r.refund_paid_on === null,
    );
    const receipts = await this.activeReceipts(
      tenant,
      atFault.map((r) => r.booking_id),
    );
    const content = rows.map((r): RefundQueueItemView => {
      const paidOn = r.refund_paid_on;
      const interest =
        paidOn !== null
          ? toPaise(r.refund_interest ?? '0.00')
          : refundInterest({
              initiatedBy: r.initiated_by,
              refund: toPaise(r.refund_amount),
              dueDate: r.refund_due_date,
              paidOn: today,
              receipts: receipts.get(r.booking_id) ?? [],
              rates,
            });
      const late = dayNumber(paidOn ?? today) - dayNumber(r.refund_due_date);
      return {
        cancellation: r.id,
        booking: r.booking_id,
        bookingNumber: r.booking_number,
        buyerName: r.buyer_name,
        amount: this.money(tenant, r.refund_amount),
        dueDate: r.refund_due_date,
        daysOverdue: Math.max(0, late),
        interestToday: this.money(tenant, paiseText(interest)),
        status: paidOn !== null ? 'PAID' : r.refund_due_date < today ? 'OVERDUE' : 'DUE',
      };
    });
    return { content, totalElements: rows[0]?.total ?? 0 };
  }

  /** requestedOn (default today; not after today nor before the booking) and initiatedBy, checked. */
  private ask(
    tenant: TenantContext,
    booking: QuoteBookingRow,
    raw: { requestedOn?: string; initiatedBy?: InitiatedBy },
  ): QuoteAsk {
    const today = this.clock.today(tenant);
    const requestedOn = raw.requestedOn ?? today;
    const problems = pastDateProblems('requestedOn', requestedOn, today);
    if (problems.length === 0 && requestedOn < booking.booking_date) {
      problems.push({
        field: 'requestedOn',
        message: `must not be before the bookingDate (${booking.booking_date})`,
      });
    }
    if (problems.length > 0) throw validationFailed(problems);
    const initiatedBy = raw.initiatedBy ?? 'BUYER';
    if (initiatedBy === 'BUYER' && booking.agreement_value === null) {
      throw AGREEMENT_VALUE_REQUIRED.error(booking.id);
    }
    return { requestedOn, initiatedBy };
  }

  /** The figures of cancelling today (every ACTIVE receipt counts), as frozen. */
  private async figures(
    tenant: TenantContext,
    booking: QuoteBookingRow,
    ask: QuoteAsk,
  ): Promise<FrozenFigures> {
    const [policy, gst, rows] = [
      await this.policies.policy(tenant),
      await this.gst.settings(tenant),
      await this.txHost.tx.query<QuoteDemandRow[]>(
        QUOTE_DEMANDS_SQL,
        bookingParams({ tenantId: tenant.tenantId, bookingId: booking.id }),
      ),
    ];
    const cancelledOn = this.clock.today(tenant);
    const demands: QuoteDemand[] = rows.map((d) => ({
      id: d.id,
      number: d.demand_number,
      demandDate: d.demand_date,
      chargeType: d.charge_type,
      consideration: toPaise(d.total_amount),
      tax:
        d.tax === null
          ? null
          : {
              landDeduction: toPaise(d.tax.landDeduction),
              taxableValue: toPaise(d.tax.taxableValue),
              cgstRate: d.tax.cgstRate,
              cgst: toPaise(d.tax.cgst),
              sgstRate: d.tax.sgstRate,
              sgst: toPaise(d.tax.sgst),
            },
      timeBarred:
        d.invoice_date !== null &&
        cancelledOn > creditWindowCloses(financialYearOf(d.invoice_date), gst.annualReturns),
      paidBy: d.paid_by.map((p) => ({ ...p, paid: toPaise(p.paid) })),
    }));
    const q = quoteCancellation({
      policy,
      initiatedBy: ask.initiatedBy,
      requestedOn: ask.requestedOn,
      allotmentDate: booking.allotment_date,
      agreementValue: booking.agreement_value === null ? null : toPaise(booking.agreement_value),
      demands,
    });
    const t = paiseText;
    return {
      rule: policy.rule,
      days: q.days,
      capPercent: q.capPercent,
      cap: t(q.cap),
      agreementValue: booking.agreement_value,
      paid: { consideration: t(q.paid.consideration), tax: t(q.paid.tax), total: t(q.paid.total) },
      deduction: t(q.deduction),
      taxRetained: t(q.taxRetained),
      refund: t(q.refund),
      taxToClaim: t(q.taxToClaim),
      demands: q.demands.map((d, i) => ({
        demand: d.demand,
        demandNumber: d.demandNumber,
        chargeType: d.chargeType,
        consideration: t(demands[i].consideration),
        invoice:
          rows[i].invoice_number === null || rows[i].invoice_date === null
            ? null
            : { number: rows[i].invoice_number, date: rows[i].invoice_date },
        grossAmount: t(d.grossAmount),
        paid: t(d.paid),
        paidConsideration: t(d.paidConsideration),
        paidTax: t(d.paidTax),
        retained: t(d.retained),
        keptTax: t(d.keptTax),
        credit: {
          taxableValue: t(d.credit.taxableValue),
          cgst: t(d.credit.cgst),
          sgst: t(d.credit.sgst),
        },
        refund: t(d.refund),
        taxToClaim: t(d.taxToClaim),
        timeBarred: d.timeBarred,
      })),
      creditNote:
        q.creditNote === null
          ? null
          : {
              taxableValue: t(q.creditNote.taxableValue),
              cgst: t(q.creditNote.cgst),
              sgst: t(q.creditNote.sgst),
              tax: t(q.creditNote.tax),
            },
      refundDueDate: q.refundDueDate,
      byPayer: q.byPayer.map((p) => ({
        payerId: p.payerId,
        payerType: p.payerType,
        paid: t(p.paid),
        refund: t(p.refund),
      })),
    };
  }

  private async read(
    tenant: TenantContext,
    sql: string,
    id: string,
    what = id,
  ): Promise<CancellationView> {
    const [row] = await this.txHost.tx.query<CancellationRow[]>(
      sql,
      idParams({ tenantId: tenant.tenantId, id }),
    );
    if (!row) throw CANCELLATION_NOT_FOUND.error(what);
    return toCancellationView(row, tenant);
  }

  /** The interest owed on the refund if paid on `paidOn`. */
  private async interestOn(
    tenant: TenantContext,
    row: CancellationRow,
    paidOn: string,
  ): Promise<bigint> {
    const receipts =
      row.initiated_by === 'PROMOTER_DEFAULT'
        ? ((await this.activeReceipts(tenant, [row.booking_id])).get(row.booking_id) ?? [])
        : [];
    return refundInterest({
      initiatedBy: row.initiated_by,
      refund: toPaise(row.refund_amount),
      dueDate: row.refund_due_date,
      paidOn,
      receipts,
      rates: await this.rates(tenant),
    });
  }

  /** The interest policy's dated rates; null when it is disabled (no interest either way). */
  private async rates(tenant: TenantContext) {
    const { view } = await this.interest.get(tenant);
    return view.enabled ? view.rates : null;
  }

  private async activeReceipts(
    tenant: TenantContext,
    bookingIds: string[],
  ): Promise<Map<string, { amount: string; receivedDate: string }[]>> {
    const result = new Map<string, { amount: string; receivedDate: string }[]>();
    if (bookingIds.length === 0) return result;
    const rows = await this.txHost.tx.query<ActiveReceiptRow[]>(
      ACTIVE_RECEIPTS_OF_BOOKING_SQL,
      bookingsParams({ tenantId: tenant.tenantId, bookingIds }),
    );
    for (const r of rows) {
      result.set(r.booking_id, [
        ...(result.get(r.booking_id) ?? []),
        { amount: r.amount, receivedDate: r.received_date },
      ]);
    }
    return result;
  }

  private money(tenant: TenantContext, amount: string): MoneyView {
    return toMoney(amount, tenant.currency, tenant.locale);
  }
}

/** What the cancellation credits of each taxed demand's invoice (it keeps the rest). */
function creditedByDemand(
  figures: FrozenFigures,
): Map<string, { consideration: bigint; taxableValue: bigint; cgst: bigint; sgst: bigint }> {
  const credited = new Map<
    string,
    { consideration: bigint; taxableValue: bigint; cgst: bigint; sgst: bigint }
  >();
  for (const d of figures.demands) {
    if (d.invoice === null) continue;
    credited.set(d.demand, {
      // Its consideration less what is retained (the unpaid part is never received).
      consideration: toPaise(d.consideration) - toPaise(d.retained),
      taxableValue: toPaise(d.credit.taxableValue),
      cgst: toPaise(d.credit.cgst),
      sgst: toPaise(d.credit.sgst),
    });
  }
  return credited;
}

function toFiguresView(
  bookingId: string,
  ask: QuoteAsk,
  f: FrozenFigures,
  tenant: TenantContext,
): CancellationFiguresView {
  const m = (amount: string) => toMoney(amount, tenant.currency, tenant.locale);
  return {
    booking: bookingId,
    requestedOn: ask.requestedOn,
    initiatedBy: ask.initiatedBy,
    rule: f.rule,
    days: f.days,
    capPercent: Number(f.capPercent),
    cap: m(f.cap),
    agreementValue: f.agreementValue === null ? null : m(f.agreementValue),
    paid: { consideration: m(f.paid.consideration), tax: m(f.paid.tax), total: m(f.paid.total) },
    deduction: m(f.deduction),
    taxRetained: m(f.taxRetained),
    taxToClaim: m(f.taxToClaim),
    demands: f.demands.map((d) => ({
      demand: d.demand,
      demandNumber: d.demandNumber,
      chargeType: d.chargeType,
      invoice: d.invoice,
      grossAmount: m(d.grossAmount),
      paid: m(d.paid),
      paidConsideration: m(d.paidConsideration),
      paidTax: m(d.paidTax),
      retained: m(d.retained),
      keptTax: m(d.keptTax),
      credit: {
        taxableValue: m(d.credit.taxableValue),
        cgst: m(d.credit.cgst),
        sgst: m(d.credit.sgst),
      },
      refund: m(d.refund),
      taxToClaim: m(d.taxToClaim),
      timeBarred: d.timeBarred,
    })),
    creditNote:
      f.creditNote === null
        ? null
        : {
            taxableValue: m(f.creditNote.taxableValue),
            cgst: m(f.creditNote.cgst),
            sgst: m(f.creditNote.sgst),
            tax: m(f.creditNote.tax),
          },
    refundDueDate: f.refundDueDate,
    byPayer: f.byPayer.map((p) => ({
      payerId: p.payerId,
      payerType: p.payerType,
      paid: m(p.paid),
      refund: m(p.refund),
    })),
  };
}

export function toCancellationView(row: CancellationRow, tenant: TenantContext): CancellationView {
  const m = (amount: string) => toMoney(amount, tenant.currency, tenant.locale);
  const paid = row.refund_paid_on !== null;
  return {
    ...toFiguresView(
      row.booking_id,
      { requestedOn: row.requested_on, initiatedBy: row.initiated_by },
      row.figures,
      tenant,
    ),
    id: row.id,
    cancelledOn: row.cancelled_on,
    reason: row.reason,
    createdBy: row.created_by,
    creditNotes: row.credit_notes.map((n) => ({
      id: n.id,
      number: n.number,
      date: n.date,
      taxableValue: m(n.totals.taxableValue),
      tax: m(n.totals.tax),
    })),
    refund: {
      amount: m(row.refund_amount),
      dueDate: row.refund_due_date,
      status: paid ? 'PAID' : 'DUE',
      paidOn: row.refund_paid_on,
      interest: row.refund_interest === null ? null : m(row.refund_interest),
      paidAmount: row.refund_paid_amount === null ? null : m(row.refund_paid_amount),
      paymentMode: row.refund_payment_mode,
      transactionRef: row.refund_transaction_ref,
      voucherNumber: row.refund_voucher_number,
    },
  };
}
