import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Clock } from '@/platform/clock/clock';
import { TransactionHost } from '@nestjs-cls/transactional';
import { RoutingTransactionAdapter } from '@/platform/replicas/routing-transaction-adapter';
import Decimal from 'decimal.js';
import { OutboxService } from '@/platform/outbox/outbox.service';
import { TenantContext } from '@/common/tenant-context';
import { decimalFromJson } from '@/common/field-validators';
import { BOOKING_NOT_FOUND } from '@/bookings/bookings.errors';
import { AppError } from '@/common/app-error';
import { validationFailed } from '@/http/errors/validation';
import { parseLocalDate } from '@/common/dates/local-date';
import { demandDateProblems } from '@/common/dates/plausible-dates';
import { pageStatement, PageRow, settlePage, toPage } from '@/search/search-page';
import { parseSearchRequest, RawSearchQuery } from '@/search/search-request';
import { NumberingService } from '@/numbering/numbering.service';
import { DEMAND_SEARCH, DEMAND_TABLE } from './demand-search';
import {
  BOOKING_CANCELLED,
  BUYER_ADDRESS_REQUIRED,
  CREDIT_NOTE_NOT_FOUND,
  INVOICE_NOT_FOUND,
  DEMAND_NOT_FOUND,
  DEMAND_SPLITS_MISMATCH,
  INVOICE_DATE_INVALID,
} from './demands.errors';
import {
  BOOKING_FOR_DEMAND_SQL,
  BookingForDemandRow,
  CREDIT_NOTE_BY_ID_SQL,
  CREDIT_NOTES_PAGE_SQL,
  CreditNoteRow,
  creditNotesParams,
  TAX_INVOICE_OF_DEMAND_SQL,
  TaxInvoiceRow,
  bookingForDemandParams,
  DEMAND_BY_ID_SQL,
  DEMAND_COLUMNS,
  demandByIdParams,
  DemandRow,
  DemandSplitRow,
  INSERT_DEMAND_SPLITS_SQL,
  INSERT_DEMAND_SQL,
  insertDemandParams,
  insertDemandSplitsParams,
  SPLITS_OF_DEMAND_SQL,
  SPLITS_OF_DEMANDS_SQL,
  splitsOfDemandParams,
  splitsOfDemandsParams,
} from './demands.sql';
import { CreateDemandRequest } from './dto/create-demand.request';
import { DemandPage } from './dto/demand-page.view';
import { paiseText, toPaise } from '@/common/money/paise';
import { GstSettingsService } from '@/gst-settings/gst-settings.service';
import { ChargeType } from '@/gst/gst-tax';
import { planDemandTax } from './demand-tax';
import { invoiceDocument } from './tax-invoice-document';
import { DemandView, toDemandView } from './dto/demand.view';

/**
 * A demand to raise: POST /demands' body, or what another feature raises (interest, a bounce's
 * charges), which passes its money as decimal text rather than a JSON number.
 */
export type DemandInput = Omit<CreateDemandRequest, 'totalAmount' | 'splits'> & {
  totalAmount: number | string;
  splits: (Omit<CreateDemandRequest['splits'][number], 'amount'> & { amount: number | string })[];
};

/** Demands and their splits, always through the request's transaction and by tenant. */
@Injectable()
export class DemandsService {
  constructor(
    private readonly clock: Clock,
    private readonly txHost: TransactionHost<RoutingTransactionAdapter>,
    private readonly numbering: NumberingService,
    private readonly outbox: OutboxService,
    private readonly gst: GstSettingsService,
  ) {}

  /**
   * POST /demands; also raises the demands of other features (a bounce's charges, interest on
   * late payment with its `interestThrough`). `dueBeforeDemandDate`: a bounce's charges fall
   * due on the bounce day, which is usually already past when they are raised.
   */
  async create(
    tenant: TenantContext,
    body: DemandInput,
    options: { interestThrough?: string; dueBeforeDemandDate?: boolean; untaxed?: boolean } = {},
  ): Promise<DemandView> {
    const chargeType = chargeTypeOf(body);
    const demandDate = body.demandDate ?? this.clock.today(tenant);
    const dueDate = options.dueBeforeDemandDate ? demandDate : body.dueDate;
    const dateProblems = demandDateProblems({ dueDate, demandDate });
    if (dateProblems.length > 0) throw AppError.validation(dateProblems);
    const total = decimalFromJson(body.totalAmount);
    const amounts = body.splits.map((s) => decimalFromJson(s.amount));
    const sum = amounts.reduce((a, b) => a.plus(b), new Decimal(0));
    if (!sum.eq(total)) {
      throw DEMAND_SPLITS_MISMATCH.errorWith(
        {
          errors: [
            {
              field: 'splits',
              message: `sum ${sum.toFixed(2)} differs from totalAmount ${total.toFixed(2)}`,
            },
          ],
        },
        sum.toFixed(2),
        total.toFixed(2),
      );
    }

    const em = this.txHost.tx;
    const [booking] = await em.query<BookingForDemandRow[]>(
      BOOKING_FOR_DEMAND_SQL,
      bookingForDemandParams({ tenantId: tenant.tenantId, bookingId: body.booking }),
    );
    if (!booking) throw BOOKING_NOT_FOUND.error(body.booking);
    if (booking.status !== 'ACTIVE') throw BOOKING_CANCELLED.error(body.booking);
    const bookingProblems = demandDateProblems({
      dueDate,
      demandDate,
      bookingDate: booking.booking_date,
    });
    if (bookingProblems.length > 0) throw AppError.validation(bookingProblems);

    const settings = await this.gst.settings(tenant);
    const plan = planDemandTax({
      settings,
      booking: {
        gstExempt: booking.gst_exempt,
        carpetAreaSqm: booking.carpet_area_sqm,
        metroCity: booking.metro_city,
        agreementValue: booking.agreement_value,
        buyerAddress: booking.buyer_address,
        buyerGstin: booking.buyer_gstin,
      },
      chargeType,
      consideration: toPaise(total.toFixed(2)),
      splitAmounts: amounts.map((a) => toPaise(a.toFixed(2))),
      demandDate,
      today: this.clock.today(tenant),
      untaxed: options.untaxed,
    });
    if (plan.kind === 'INVOICE_DATE_INVALID') {
      throw INVOICE_DATE_INVALID.errorWith(
        { errors: [{ field: 'demandDate', message: `demandDate: ${plan.why}` }] },
        demandDate,
        plan.why,
      );
    }
    if (plan.kind === 'BUYER_ADDRESS_REQUIRED') {
      throw BUYER_ADDRESS_REQUIRED.error(body.booking, plan.taxableValue);
    }

    const date = parseLocalDate(demandDate);
    // The invoice is numbered with the demand, in its transaction: a rolled-back demand uses no
    // number of either series.
    const [demandNumber, invoiceNumber] = await this.numbering.allocateEach(tenant, [
      { type: 'demand', request: { date, parent: booking.booking_number } },
      ...(plan.kind === 'TAXED' ? [{ type: 'tax-invoice' as const, request: { date } }] : []),
    ]);
    let invoice: Parameters<typeof insertDemandParams>[0]['invoice'] = null;
    if (plan.kind === 'TAXED') {
      invoice = {
        id: randomUUID(),
        number: invoiceNumber,
        recipientGstin: booking.buyer_gstin,
        document: invoiceDocument({
          number: invoiceNumber,
          date: demandDate,
          settings,
          booking,
          demand: { remarks: body.remarks ?? '', milestone: body.milestone ?? null, chargeType },
          consideration: total.toFixed(2),
          tax: plan.tax,
        }),
      };
    }
    const [demand] = await em.query<DemandRow[]>(
      INSERT_DEMAND_SQL,
      insertDemandParams({
        tenantId: tenant.tenantId,
        bookingId: body.booking,
        unitId: booking.unit_id,
        buyerName: booking.buyer_name,
        milestoneId: body.milestone ?? null,
        demandType: body.demandType,
        demandNumber,
        totalAmount: total.toFixed(2),
        dueDate: body.dueDate,
        demandDate,
        remarks: body.remarks ?? '',
        createdBy: tenant.actor,
        interestThrough: options.interestThrough ?? null,
        chargeType,
        tax: plan.kind === 'TAXED' ? plan.tax : null,
        invoice,
      }),
    );

    const numbers = await this.numbering.allocateMany(
      tenant,
      'demand-split',
      { date, parent: demandNumber },
      body.splits.length,
    );
    const splits = await em.query<DemandSplitRow[]>(
      INSERT_DEMAND_SPLITS_SQL,
      insertDemandSplitsParams({
        tenantId: tenant.tenantId,
        demandId: demand.id,
        splits: body.splits.map((s, i) => ({
          payerType: s.payerType,
          payerId: s.payerId,
          demandSplitNumber: numbers[i],
          amount: amounts[i].toFixed(2),
          payerName: s.payerName ?? null,
          taxAmount: plan.kind === 'TAXED' ? paiseText(plan.splitTax[i]) : '0.00',
        })),
      }),
    );
    // RETURNING order follows the insert order in practice, but do not rely on it.
    const byNumber = new Map(splits.map((s) => [s.demand_split_number, s]));
    const view = toDemandView(
      demand,
      numbers.map((n) => byNumber.get(n) as DemandSplitRow),
      tenant,
    );
    this.outbox.record('demand.created', view);
    return view;
  }

  /** POST /demands/search: one page of demands with their splits (grammar: docs/search.md). */
  async search(tenant: TenantContext, query: RawSearchQuery, body: unknown): Promise<DemandPage> {
    const parsed = parseSearchRequest(DEMAND_SEARCH, query, body);
    const statement = pageStatement(DEMAND_TABLE, parsed, tenant.tenantId, DEMAND_COLUMNS);
    const em = this.txHost.tx;
    const page = settlePage(
      parsed,
      await em.query<PageRow<DemandRow>[]>(statement.text, statement.params),
    );
    const splits =
      page.rows.length === 0
        ? []
        : await em.query<DemandSplitRow[]>(
            SPLITS_OF_DEMANDS_SQL,
            splitsOfDemandsParams({
              tenantId: tenant.tenantId,
              demandIds: page.rows.map((d) => d.id),
            }),
          );
    const byDemand = new Map<string, DemandSplitRow[]>();
    for (const s of splits) byDemand.set(s.demand_id, [...(byDemand.get(s.demand_id) ?? []), s]);
    const content = page.rows.map((d) => toDemandView(d, byDemand.get(d.id) ?? [], tenant));
    return toPage(content, parsed.page, parsed.size, page.totalElements);
  }

  async findOne(tenant: TenantContext, id: string): Promise<DemandView> {
    const em = this.txHost.tx;
    const [demand] = await em.query<DemandRow[]>(
      DEMAND_BY_ID_SQL,
      demandByIdParams({ tenantId: tenant.tenantId, id }),
    );
    if (!demand) throw DEMAND_NOT_FOUND.error(id);
    const splits = await em.query<DemandSplitRow[]>(
      SPLITS_OF_DEMAND_SQL,
      splitsOfDemandParams({ tenantId: tenant.tenantId, demandId: id }),
    );
    return toDemandView(demand, splits, tenant);
  }

  /** A demand with its tax invoice as issued; 404 INVOICE_NOT_FOUND when it is untaxed. */
  async invoice(
    tenant: TenantContext,
    demandId: string,
  ): Promise<{ demand: DemandView; invoice: TaxInvoiceRow }> {
    const demand = await this.findOne(tenant, demandId);
    const [invoice] = await this.txHost.tx.query<TaxInvoiceRow[]>(
      TAX_INVOICE_OF_DEMAND_SQL,
      demandByIdParams({ tenantId: tenant.tenantId, id: demandId }),
    );
    if (!invoice) throw INVOICE_NOT_FOUND.error(demandId);
    return { demand, invoice };
  }

  /** One credit note as issued; 404 for none or another tenant's. */
  async creditNote(tenant: TenantContext, id: string): Promise<CreditNoteRow> {
    const [row] = await this.txHost.tx.query<CreditNoteRow[]>(
      CREDIT_NOTE_BY_ID_SQL,
      demandByIdParams({ tenantId: tenant.tenantId, id }),
    );
    if (!row) throw CREDIT_NOTE_NOT_FOUND.error(id);
    return row;
  }

  /** A page of credit notes, oldest first, with the total. */
  async creditNotes(
    tenant: TenantContext,
    filter: { booking?: string; from?: string; to?: string; page: number; size: number },
  ): Promise<{ rows: CreditNoteRow[]; total: number }> {
    const rows = await this.txHost.tx.query<(CreditNoteRow & { total: number })[]>(
      CREDIT_NOTES_PAGE_SQL,
      creditNotesParams({ tenantId: tenant.tenantId, ...filter }),
    );
    return { rows, total: rows[0]?.total ?? 0 };
  }
}

/** The charge type a request asks for: INTEREST always and only for an INTEREST demand. */
function chargeTypeOf(body: DemandInput): ChargeType {
  const interest = body.demandType === 'INTEREST';
  const chargeType = body.chargeType ?? (interest ? 'INTEREST' : 'CONSTRUCTION');
  if ((chargeType === 'INTEREST') !== interest) {
    throw validationFailed([
      {
        field: 'chargeType',
        message: interest
          ? 'chargeType must be INTEREST for an INTEREST demand'
          : 'chargeType INTEREST is only for an INTEREST demand',
      },
    ]);
  }
  return chargeType;
}
