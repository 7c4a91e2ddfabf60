import { Injectable, StreamableFile } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import Decimal from 'decimal.js';
import { FieldError } from '@/common/app-error';
import { formatLocalDate, localDateInZone } from '@/common/dates/local-date';
import { Money, toMoney } from '@/common/money/money';
import { paiseText } from '@/common/money/paise';
import { TenantContext } from '@/common/tenant-context';
import { BOOKING_NOT_FOUND } from '@/bookings/bookings.errors';
import { StatementDocumentsService } from '@/documents/statement-documents.service';
import { printedPayerName, printedUnit } from '@/documents/printed-names';
import { SpreadsheetsService } from '@/exports/spreadsheets.service';
import type { XlsxSheet } from '@/exports/xlsx-sheet';
import { TenantsService } from '@/http/tenancy/tenants.service';
import { InterestFigures, InterestService } from '@/interest/interest.service';
import { RoutingTransactionAdapter } from '@/platform/replicas/routing-transaction-adapter';
import { StatementView } from './dto/statement.view';
import { buildLedger, Ledger } from './statement-ledger';
import { parseStatementQuery, RawStatementQuery, StatementQuery } from './statement-query';
import { STATEMENT_QUERY_INVALID } from './statements.errors';
import { STATEMENT_SQL, statementParams, StatementRow } from './statements.sql';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The XLSX worksheet: one row per entry, money as numbers, dates as date cells. */
const ENTRIES_SHEET: XlsxSheet = {
  name: 'Statement',
  columns: [
    { key: 'date', width: 12, type: 'date' },
    { key: 'kind', width: 18, type: 'text' },
    { key: 'documentNumber', width: 20, type: 'text' },
    { key: 'particulars', width: 48, type: 'text' },
    { key: 'dueDate', width: 12, type: 'date' },
    { key: 'debit', width: 16, type: 'money' },
    { key: 'credit', width: 16, type: 'money' },
    { key: 'balance', width: 16, type: 'money' },
    { key: 'currency', width: 9, type: 'text' },
    { key: 'refType', width: 9, type: 'text' },
    { key: 'refId', width: 38, type: 'text' },
  ],
};

/** The statement with the figures it was built from, for the view and the files. */
interface Statement {
  row: StatementRow;
  query: StatementQuery;
  ledger: Ledger;
  interest: InterestFigures;
}

/**
 * GET /bookings/{id}/statement (docs/statement.md): the ledger of one booking from one statement
 * (STATEMENT_SQL) built by the pure statement-ledger.ts, with the interest figures of
 * InterestService at asOf; served as JSON, as the printed PDF (documents) or as XLSX (the
 * export's writer). Read-only, through the request's transaction.
 */
@Injectable()
export class StatementsService {
  constructor(
    private readonly txHost: TransactionHost<RoutingTransactionAdapter>,
    private readonly interest: InterestService,
    private readonly documents: StatementDocumentsService,
    private readonly spreadsheets: SpreadsheetsService,
    private readonly tenants: TenantsService,
  ) {}

  async statement(
    tenant: TenantContext,
    bookingId: string,
    raw: RawStatementQuery,
  ): Promise<StatementView | StreamableFile> {
    const errors: FieldError[] = [];
    const today = formatLocalDate(localDateInZone(new Date(), tenant.timezone));
    const query = parseStatementQuery(raw, today, errors);
    if (errors.length > 0) {
      throw STATEMENT_QUERY_INVALID.errorWith(
        { errors },
        errors.map((e) => `${e.field} ${e.message}`).join('; '),
      );
    }
    const [row] = await this.txHost.tx.query<StatementRow[]>(
      STATEMENT_SQL,
      statementParams({
        tenantId: tenant.tenantId,
        bookingId,
        payerId: query.payerId,
        timezone: tenant.timezone,
        to: query.to,
      }),
    );
    if (!row) throw BOOKING_NOT_FOUND.error(bookingId);
    const ledger = buildLedger(
      { buyerName: row.buyer_name, demands: row.demands, receipts: row.receipts },
      query,
    );
    const interest = await this.interest.figures(tenant, bookingId, query.asOf, query.payerId);
    const statement: Statement = { row, query, ledger, interest };
    const view = toView(statement, tenant);
    if (query.format === 'json') return view;
    const name = `statement-${row.booking_number.replace(/[^A-Za-z0-9._-]+/g, '-')}-${query.asOf.replace(/-/g, '')}`;
    if (query.format === 'pdf') {
      const pdf = await this.pdf(view, row, tenant);
      return new StreamableFile(pdf, {
        type: 'application/pdf',
        disposition: `inline; filename="${name}.pdf"`,
        length: pdf.length,
      });
    }
    const xlsx = await this.spreadsheets.xlsx(
      ENTRIES_SHEET,
      ledger.entries.map((e) => ({
        date: e.date,
        kind: e.kind,
        documentNumber: e.documentNumber,
        particulars: e.particulars,
        dueDate: e.dueDate,
        debit: e.debit === null ? null : paiseText(e.debit),
        credit: e.credit === null ? null : paiseText(e.credit),
        balance: paiseText(e.balance),
        currency: tenant.currency,
        refType: e.ref.type,
        refId: e.ref.id,
      })),
    );
    return new StreamableFile(xlsx, {
      type: XLSX,
      disposition: `attachment; filename="${name}.xlsx"`,
      length: xlsx.length,
    });
  }

  private async pdf(view: StatementView, row: StatementRow, tenant: TenantContext) {
    const record = await this.tenants.findActiveByKey(tenant.tenantKey);
    const t = view.totals;
    // Rendered inside the request's transaction, after its last read: CPU work only, no lock.
    return this.documents.pdf({
      tenantName: record?.name ?? tenant.tenantKey,
      locale: tenant.locale,
      currencySymbol: view.closingBalance.currencySymbol,
      bookingNumber: view.booking.bookingNumber,
      unit: printedUnit({ unitId: row.unit_id, unitName: row.unit_name }),
      buyerName: view.booking.buyerName,
      payer: row.payer && printedPayerName({ ...row.payer, buyerName: row.buyer_name }),
      from: view.from,
      to: view.to,
      asOf: view.asOf,
      openingBalance: view.openingBalance.formatted,
      closingBalance: view.closingBalance.formatted,
      entries: view.entries.map((e) => ({
        date: e.date,
        documentNumber: e.documentNumber,
        particulars: e.particulars,
        dueDate: e.dueDate,
        debit: e.debit?.formatted ?? null,
        credit: e.credit?.formatted ?? null,
        balance: e.balance.formatted,
      })),
      totals: [
        ['Demanded', t.demanded.formatted],
        ['Received', t.received.formatted],
        ['Outstanding', t.outstanding.formatted],
        ['Overdue', t.overdue.formatted],
        ['Not yet due', t.notYetDue.formatted],
        ['Interest accrued', t.interestAccrued.formatted],
        ['Interest demanded', t.interestDemanded.formatted],
        ['Interest waived', t.interestWaived.formatted],
      ],
      date: new Date(`${view.asOf}T00:00:00Z`),
    });
  }
}

/** The statement as the API shows it (Money objects in the tenant's currency and locale). */
function toView({ row, ledger, interest }: Statement, tenant: TenantContext): StatementView {
  // A ledger repeats few amounts (instalments, balances that return to zero): each distinct
  // amount is formatted once per response.
  const formatted = new Map<bigint, Money>();
  const money = (paise: bigint): Money => {
    let m = formatted.get(paise);
    if (!m) formatted.set(paise, (m = toMoney(paiseText(paise), tenant.currency, tenant.locale)));
    return m;
  };
  const decimal = (v: Decimal) => toMoney(v, tenant.currency, tenant.locale);
  const t = ledger.totals;
  return {
    booking: {
      id: row.id,
      bookingNumber: row.booking_number,
      unit: row.unit_id,
      buyerName: row.buyer_name,
    },
    from: ledger.from,
    to: ledger.to,
    asOf: ledger.asOf,
    openingBalance: money(ledger.openingBalance),
    entries: ledger.entries.map((e) => ({
      date: e.date,
      kind: e.kind,
      documentNumber: e.documentNumber,
      particulars: e.particulars,
      dueDate: e.dueDate,
      debit: e.debit === null ? null : money(e.debit),
      credit: e.credit === null ? null : money(e.credit),
      balance: money(e.balance),
      ref: e.ref,
    })),
    closingBalance: money(ledger.closingBalance),
    totals: {
      demanded: money(t.demanded),
      received: money(t.received),
      outstanding: money(t.outstanding),
      overdue: money(t.overdue),
      notYetDue: money(t.notYetDue),
      interestAccrued: decimal(interest.accrued),
      interestDemanded: decimal(interest.demanded),
      interestWaived: decimal(interest.waived),
    },
  };
}
