import { integerQueryParam } from '@/http/cursor-query';
import { Injectable } from '@nestjs/common';
import { Clock } from '@/platform/clock/clock';
import { etagOf, ifMatchAllows, WithEtag } from '@/http/etag';
import { TransactionHost } from '@nestjs-cls/transactional';
import Decimal from 'decimal.js';
import { randomUUID } from 'node:crypto';
import { FieldError } from '@/common/app-error';
import { toMoney } from '@/common/money/money';
import { TenantContext } from '@/common/tenant-context';
import { BankService } from '@/bank/bank.service';
import { DEMAND_NOT_FOUND } from '@/demands/demands.errors';
import {
  DEMAND_BY_ID_SQL,
  DEMAND_COLUMNS,
  demandByIdParams,
  DemandRow,
} from '@/demands/demands.sql';
import { toDemandMetaView } from '@/demands/dto/demand.view';
import { BookingInterest, InterestService, payerFigures } from '@/interest/interest.service';
import { OutboxService } from '@/platform/outbox/outbox.service';
import { RoutingTransactionAdapter } from '@/platform/replicas/routing-transaction-adapter';
import { toPage } from '@/search/search-page';
import { ReminderPolicyRequest } from './dto/reminder-policy.request';
import { ReminderRunRequest } from './dto/reminder-run.request';
import {
  DemandRemindersView,
  DueReminderView,
  DueRemindersPage,
  ReminderDueEventView,
  ReminderPolicyView,
  ReminderRunView,
} from './dto/reminders.view';
import { letterGst, letterView } from './letter';
import { invalid, LettersService } from './letters.service';
import { REMINDER_POLICY_CHANGED } from './letters.errors';
import { parseDate } from './letters-query';
import { runAsOf } from './reminder-run';
import {
  DEMAND_REMINDERS_SQL,
  DemandReminderRow,
  demandParams,
  DEMANDS_BY_IDS_SQL,
  demandsByIdsParams,
  DUE_PAGE_SQL,
  dueParams,
  DueReminderRow,
  ENSURE_REMINDER_POLICY_SQL,
  ensureReminderPolicyParams,
  LOCK_REMINDER_POLICY_SQL,
  REMINDER_POLICY_SQL,
  ReminderPolicyRow,
  REPLACE_REMINDER_POLICY_SQL,
  replaceReminderPolicyParams,
  RUN_SQL,
  runParams,
  RunRow,
  StepValue,
  tenantParams,
} from './letters.sql';

/** Every tenant's policy until it stores one (docs/letters.md). */
export const DEFAULT_REMINDER_POLICY: ReminderPolicyView = {
  enabled: true,
  steps: [
    { name: 'UPCOMING', offsetDays: -7 },
    { name: 'DUE', offsetDays: 0 },
    { name: 'OVERDUE_1', offsetDays: 7 },
    { name: 'OVERDUE_2', offsetDays: 15 },
    { name: 'FINAL_NOTICE', offsetDays: 30 },
  ],
};

export const DUE_PAGE = { defaultSize: 20, maxSize: 500 } as const;

export type ReminderPolicyWithEtag = WithEtag<ReminderPolicyView>;

/** Steps in offset order (a stable sort: equal offsets keep the order they were sent in). */
function toPolicyView(row: { enabled: boolean; steps: StepValue[] } | undefined) {
  if (!row) return DEFAULT_REMINDER_POLICY;
  return {
    enabled: row.enabled,
    steps: [...row.steps]
      .map((s) => ({ name: s.name, offsetDays: s.offsetDays }))
      .sort((a, b) => a.offsetDays - b.offsetDays),
  };
}

/**
 * Reminders (docs/letters.md): the tenant's policy, the due list and runs. One
 * statement finds the due reminders of the whole tenant (letters.sql.ts DUE_CTES, over the
 * ageing's fragments); a run records them in the same statement, and the unique key per split
 * and step keeps any step from going out twice, whatever runs at the same time. Each sent
 * reminder is a reminder.due event carrying its letter.
 */
@Injectable()
export class RemindersService {
  constructor(
    private readonly clock: Clock,
    private readonly txHost: TransactionHost<RoutingTransactionAdapter>,
    private readonly outbox: OutboxService,
    private readonly interest: InterestService,
    private readonly bank: BankService,
    private readonly letters: LettersService,
  ) {}

  async policy(tenant: TenantContext): Promise<ReminderPolicyWithEtag> {
    const [row] = await this.txHost.tx.query<ReminderPolicyRow[]>(
      REMINDER_POLICY_SQL,
      tenantParams({ tenantId: tenant.tenantId }),
    );
    const view = toPolicyView(row);
    return { view, etag: etagOf(view) };
  }

  /** PUT: replaces the policy (an event) unless nothing changes; the row is locked first. */
  async replacePolicy(
    tenant: TenantContext,
    body: ReminderPolicyRequest,
    ifMatch?: string,
  ): Promise<ReminderPolicyWithEtag> {
    const names = body.steps.map((s) => s.name);
    const twice = names.filter((n, i) => names.indexOf(n) !== i);
    if (twice.length > 0) {
      throw invalid([{ field: 'steps', message: `names must be unique (${twice.join(', ')})` }]);
    }
    const em = this.txHost.tx;
    await em.query(
      ENSURE_REMINDER_POLICY_SQL,
      ensureReminderPolicyParams({
        tenantId: tenant.tenantId,
        actor: tenant.actor,
        ...DEFAULT_REMINDER_POLICY,
      }),
    );
    const [current] = await em.query<ReminderPolicyRow[]>(
      LOCK_REMINDER_POLICY_SQL,
      tenantParams({ tenantId: tenant.tenantId }),
    );
    const before = toPolicyView(current);
    if (!ifMatchAllows(ifMatch, etagOf(before))) {
      throw REMINDER_POLICY_CHANGED.error();
    }
    const view = toPolicyView({ enabled: body.enabled, steps: body.steps });
    if (JSON.stringify(view) !== JSON.stringify(before)) {
      await em.query(
        REPLACE_REMINDER_POLICY_SQL,
        replaceReminderPolicyParams({
          tenantId: tenant.tenantId,
          enabled: view.enabled,
          steps: view.steps,
          actor: tenant.actor,
        }),
      );
      this.outbox.record('reminder-policy.updated', view);
    }
    return { view, etag: etagOf(view) };
  }

  /** GET /reminders/due?asOf=&page=&size=. */
  async due(
    tenant: TenantContext,
    raw: { asOf?: unknown; page?: unknown; size?: unknown },
  ): Promise<DueRemindersPage> {
    const errors: FieldError[] = [];
    const asOf = parseDate('asOf', raw.asOf, errors) ?? this.clock.today(tenant);
    const page = integerQueryParam('page', raw.page, 0, 0, 1_000_000, errors);
    const size = integerQueryParam(
      'size',
      raw.size,
      DUE_PAGE.defaultSize,
      1,
      DUE_PAGE.maxSize,
      errors,
    );
    if (errors.length > 0) throw invalid(errors);
    const rows = await this.txHost.tx.query<(DueReminderRow & { total: number })[]>(
      DUE_PAGE_SQL,
      dueParams({
        tenantId: tenant.tenantId,
        asOf,
        defaultSteps: DEFAULT_REMINDER_POLICY.steps,
        timezone: tenant.timezone,
        page,
        size,
      }),
    );
    // A page past the end has no row to carry the total: count again from the first page.
    let total = rows[0]?.total;
    if (total === undefined && page > 0) total = (await this.due(tenant, { asOf })).totalElements;
    const interest = await this.interest.computeMany(
      tenant,
      [...new Set(rows.map((r) => r.booking_id))],
      asOf,
    );
    const content = rows.map((r) => this.entry(r, interest.get(r.booking_id), tenant));
    return toPage(content, page, size, total ?? 0);
  }

  /**
   * POST /reminders/run: records every reminder due on asOf as sent (one statement for the
   * tenant) and writes one reminder.due event per reminder this run recorded.
   */
  async run(tenant: TenantContext, body: ReminderRunRequest): Promise<ReminderRunView> {
    const { asOf, error } = runAsOf(body.asOf, this.clock.today(tenant));
    if (error) throw invalid([error]);
    const runId = randomUUID();
    const rows = await this.txHost.tx.query<RunRow[]>(
      RUN_SQL,
      runParams({
        tenantId: tenant.tenantId,
        asOf,
        defaultSteps: DEFAULT_REMINDER_POLICY.steps,
        timezone: tenant.timezone,
        runId,
      }),
    );
    const sent = rows.filter((r): r is RunRow & { split_id: string } => r.split_id !== null);
    const skippedHeld = rows[0]?.skipped_held ?? 0;
    if (sent.length > 0) await this.recordEvents(tenant, asOf, sent);
    return { runId, asOf, sent: sent.length, skippedHeld };
  }

  /** GET /demands/{id}/reminders. */
  async ofDemand(tenant: TenantContext, demandId: string): Promise<DemandRemindersView> {
    const em = this.txHost.tx;
    const [demand] = await em.query<DemandRow[]>(
      DEMAND_BY_ID_SQL,
      demandByIdParams({ tenantId: tenant.tenantId, id: demandId }),
    );
    if (!demand) throw DEMAND_NOT_FOUND.error(demandId);
    const rows = await em.query<DemandReminderRow[]>(
      DEMAND_REMINDERS_SQL,
      demandParams({ tenantId: tenant.tenantId, demandId }),
    );
    return {
      reminders: rows.map((r) => ({
        demandSplit: r.demand_split_id,
        payerId: r.payer_id,
        step: r.step,
        asOf: r.as_of,
        sentAt: new Date(r.sent_at).toISOString(),
        runId: r.run_id,
      })),
    };
  }

  /** The letters of the sent reminders (their bookings' interest in one statement), as events. */
  private async recordEvents(tenant: TenantContext, asOf: string, sent: DueReminderRow[]) {
    const em = this.txHost.tx;
    const interest = await this.interest.computeMany(
      tenant,
      [...new Set(sent.map((r) => r.booking_id))],
      asOf,
    );
    const demands = await em.query<DemandRow[]>(
      DEMANDS_BY_IDS_SQL(DEMAND_COLUMNS),
      demandsByIdsParams({
        tenantId: tenant.tenantId,
        ids: [...new Set(sent.map((r) => r.demand_id))],
      }),
    );
    const money = (v: string | Decimal) => toMoney(v, tenant.currency, tenant.locale);
    const meta = new Map(demands.map((d) => [d.id, toDemandMetaView(d, money)]));
    const gst = new Map(demands.map((d) => [d.id, letterGst(d)]));
    const account = await this.bank.collectionAccount(tenant);
    const payTo = account && {
      name: account.name,
      accountNumber: account.account_number,
      ifsc: account.ifsc,
    };
    const tenantName = await this.letters.tenantName(tenant);
    for (const r of sent) {
      const booking = interest.get(r.booking_id);
      const reminder = this.entry(r, booking, tenant);
      const thisDemand = new Decimal(r.this_demand);
      const previousDues = new Decimal(r.previous_dues);
      const interestDue = booking ? payerFigures(booking, r.payer_id).due : new Decimal(0);
      const letter = letterView(
        {
          tenantName,
          asOf,
          demand: meta.get(r.demand_id)!,
          booking: {
            id: r.booking_id,
            bookingNumber: r.booking_number,
            unit: r.unit_id,
            buyerName: r.buyer_name,
            agreementValue: r.agreement_value,
          },
          payer: { payerId: r.payer_id, payerType: r.payer_type },
          payTo,
          gst: gst.get(r.demand_id) ?? null,
        },
        {
          thisDemand,
          previousDues,
          interestDue,
          totalPayable: thisDemand.plus(previousDues).plus(interestDue),
        },
        tenant,
      );
      const data: ReminderDueEventView = { reminder, letter };
      this.outbox.record('reminder.due', data);
    }
  }

  private entry(
    r: DueReminderRow,
    interest: BookingInterest | undefined,
    tenant: TenantContext,
  ): DueReminderView {
    const money = (v: string | Decimal) => toMoney(v, tenant.currency, tenant.locale);
    const due = interest ? payerFigures(interest, r.payer_id).due : new Decimal(0);
    return {
      demandSplit: r.split_id,
      demand: r.demand_id,
      demandNumber: r.demand_number,
      booking: r.booking_id,
      bookingNumber: r.booking_number,
      payerId: r.payer_id,
      payerType: r.payer_type,
      step: r.step,
      dueDate: r.due_date,
      daysPastDue: r.days_past_due,
      pending: money(r.outstanding),
      interestDue: money(due),
    };
  }
}
