import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { RoutingTransactionAdapter } from '@/platform/replicas/routing-transaction-adapter';
import Decimal from 'decimal.js';
import { AppError } from '@/common/app-error';
import { OutboxService } from '@/platform/outbox/outbox.service';
import { TenantContext } from '@/common/tenant-context';
import { decimalFromJson } from '@/common/field-validators';
import { BOOKING_NOT_FOUND } from '@/bookings/bookings.errors';
import { formatLocalDate, localDateInZone, parseLocalDate } from '@/common/dates/local-date';
import { pageStatement, PageRow, settlePage, toPage } from '@/search/search-page';
import { parseSearchRequest, RawSearchQuery } from '@/search/search-request';
import { NumberingService } from '@/numbering/numbering.service';
import { DEMAND_SEARCH, DEMAND_TABLE } from './demand-search';
import { CreateDemandRequest } from './dto/create-demand.request';
import { DemandPage } from './dto/demand-search.dto';
import {
  DEMAND_COLUMNS,
  DEMAND_SPLIT_COLUMNS,
  DemandRow,
  DemandSplitRow,
  DemandView,
  toDemandView,
} from './dto/demand-views';

interface BookingRef {
  booking_number: string;
  unit_id: string;
  buyer_name: string;
  status: string;
}

/** Demands and their splits, always through the request's transaction and by tenant. */
@Injectable()
export class DemandsService {
  constructor(
    private readonly txHost: TransactionHost<RoutingTransactionAdapter>,
    private readonly numbering: NumberingService,
    private readonly outbox: OutboxService,
  ) {}

  async create(tenant: TenantContext, body: CreateDemandRequest): Promise<DemandView> {
    const total = decimalFromJson(body.totalAmount);
    const amounts = body.splits.map((s) => decimalFromJson(s.amount));
    const sum = amounts.reduce((a, b) => a.plus(b), new Decimal(0));
    if (!sum.eq(total)) {
      throw AppError.unprocessable(
        'DEMAND_SPLITS_MISMATCH',
        `The splits add up to ${sum.toFixed(2)} but totalAmount is ${total.toFixed(2)}; they must be equal.`,
        [
          {
            field: 'splits',
            message: `sum ${sum.toFixed(2)} differs from totalAmount ${total.toFixed(2)}`,
          },
        ],
      );
    }

    const em = this.txHost.tx;
    const [booking] = await em.query<BookingRef[]>(
      // FOR SHARE: a booking being cancelled waits for this demand, or this waits and sees it cancelled.
      `SELECT booking_number, unit_id, buyer_name, status FROM bookings
        WHERE tenant_id = $1 AND id = $2 FOR SHARE`,
      [tenant.tenantId, body.booking],
    );
    if (!booking) throw BOOKING_NOT_FOUND.error(body.booking);
    if (booking.status !== 'ACTIVE') {
      throw AppError.conflict(
        'BOOKING_CANCELLED',
        `Booking ${body.booking} is cancelled; it takes no demands.`,
      );
    }

    const demandDate =
      body.demandDate ?? formatLocalDate(localDateInZone(new Date(), tenant.timezone));
    const date = parseLocalDate(demandDate);
    const demandNumber = await this.numbering.allocate(tenant, 'demand', {
      date,
      parent: booking.booking_number,
    });
    const [demand] = await em.query<DemandRow[]>(
      `INSERT INTO demands (tenant_id, booking_id, unit_id, buyer_name, milestone_id, demand_type,
                            demand_number, total_amount, received_amount, due_date, demand_date,
                            remarks, status, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8::numeric, 0, $9, $10, $11, 'PENDING', $12)
       RETURNING ${DEMAND_COLUMNS}`,
      [
        tenant.tenantId,
        body.booking,
        booking.unit_id,
        booking.buyer_name,
        body.milestone ?? null,
        body.demandType,
        demandNumber,
        total.toFixed(2),
        body.dueDate,
        demandDate,
        body.remarks ?? '',
        tenant.actor,
      ],
    );

    const numbers = await this.numbering.allocateMany(
      tenant,
      'demand-split',
      { date, parent: demandNumber },
      body.splits.length,
    );
    // One statement for all splits; WITH ORDINALITY keeps the order they were sent in.
    const splits = await em.query<DemandSplitRow[]>(
      `INSERT INTO demand_splits (tenant_id, demand_id, payer_type, payer_id, demand_split_number,
                                  amount, paid_amount, status)
       SELECT $1, $2, t.payer_type, t.payer_id, t.number, t.amount, 0, 'PENDING'
         FROM unnest($3::text[], $4::uuid[], $5::text[], $6::numeric[]) WITH ORDINALITY
              AS t(payer_type, payer_id, number, amount, ord)
        ORDER BY t.ord
       RETURNING ${DEMAND_SPLIT_COLUMNS}`,
      [
        tenant.tenantId,
        demand.id,
        body.splits.map((s) => s.payerType),
        body.splits.map((s) => s.payerId),
        numbers,
        amounts.map((a) => a.toFixed(2)),
      ],
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

  /** POST /demands/search: one page of demands with their splits (contract §7.6). */
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
            `SELECT ${DEMAND_SPLIT_COLUMNS} FROM demand_splits
              WHERE tenant_id = $1 AND demand_id = ANY($2::uuid[])
              ORDER BY created_at, length(demand_split_number), demand_split_number, id`,
            [tenant.tenantId, page.rows.map((d) => d.id)],
          );
    const byDemand = new Map<string, DemandSplitRow[]>();
    for (const s of splits) byDemand.set(s.demand_id, [...(byDemand.get(s.demand_id) ?? []), s]);
    const content = page.rows.map((d) => toDemandView(d, byDemand.get(d.id) ?? [], tenant));
    return toPage(content, parsed.page, parsed.size, page.totalElements);
  }

  async findOne(tenant: TenantContext, id: string): Promise<DemandView> {
    const em = this.txHost.tx;
    const [demand] = await em.query<DemandRow[]>(
      `SELECT ${DEMAND_COLUMNS} FROM demands WHERE tenant_id = $1 AND id = $2`,
      [tenant.tenantId, id],
    );
    if (!demand) throw AppError.notFound('DEMAND_NOT_FOUND', `Demand ${id} was not found.`);
    const splits = await em.query<DemandSplitRow[]>(
      `SELECT ${DEMAND_SPLIT_COLUMNS} FROM demand_splits WHERE tenant_id = $1 AND demand_id = $2
        ORDER BY created_at, length(demand_split_number), demand_split_number, id`,
      [tenant.tenantId, id],
    );
    return toDemandView(demand, splits, tenant);
  }
}
