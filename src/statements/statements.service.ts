import { Injectable, StreamableFile } from '@nestjs/common';
import { Clock } from '@/platform/clock/clock';
import Decimal from 'decimal.js';
import { FieldError } from '@/common/app-error';
import { Money, toMoney } from '@/common/money/money';
import { paiseText } from '@/common/money/paise';
import { TenantContext } from '@/common/tenant-context';
import { BOOKING_NOT_FOUND } from '@/bookings/bookings.errors';
import { StatementDocumentsService } from '@/documents/statement-documents.service';
import { printedPayerName, printedUnit } from '@/common/domain/printed-names';
import { SpreadsheetsService } from '@/exports/spreadsheets.service';
import { TenantsService } from '@/http/tenancy/tenants.service';
import { InterestFigures, InterestService, payerFigures } from '@/interest/interest.service';
import { BookingRecords, statementRecords } from '@/ledger/as-of';
import { buildLedger, Ledger } from '@/ledger/booking-ledger';
import { LedgerService } from '@/ledger/ledger.service';
import { StatementView } from './dto/statement.view';
import { statementSheet } from './statement-sheet';
import { parseStatementQuery, RawStatementQuery, StatementQuery } from './statement-query';
import { validationFailed } from '@/http/errors/validation';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The statement with the figures it was built from, for the view and the files. */
interface Statement {
  row: BookingRecords;
  query: StatementQuery;
  ledger: Ledger;
  interest: InterestFigures;
}

/**
 * GET /bookings/{id}/statement (docs/statement.md): the ledger of one booking from its records
 * (the ledger's), built by the ledger's pure booking-ledger.ts, with the interest figures of
 * InterestService at asOf from the same records; served as JSON, as the printed PDF (documents) or as XLSX (the
 * export's writer). Read-only, through the request's transaction.
 */
@Injectable()
export class StatementsService {
  constructor(
    private readonly clock: Clock,
    private readonly ledger: LedgerService,
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
    const today = this.clock.today(tenant);
    const query = parseStatementQuery(raw, today, errors);
    if (errors.length > 0) {
      throw validationFailed(errors);
    }
    // Every record, not only those through `to`: interest at asOf needs what followed `to`.
    const row = await this.ledger.booking(tenant, bookingId);
    if (!row) throw BOOKING_NOT_FOUND.error(bookingId);
    const ledger = buildLedger(
      { buyerName: row.buyer_name, ...statementRecords(row, query.payerId) },
      query,
    );
    const interest = payerFigures(
      await this.interest.fromRecords(tenant, row, query.asOf),
      query.payerId,
    );
    const statement: Statement = { row, query, ledger, interest };
    const view = toView(statement, tenant);
    if (query.format === 'json') return view;
    const name = `statement-${row.booking_number.replace(/[^A-Za-z0-9._-]+/g, '-')}-${query.asOf.replace(/-/g, '')}`;
    if (query.format === 'pdf') {
      const pdf = await this.pdf(view, row, query.payerId, tenant);
      return new StreamableFile(pdf, {
        type: 'application/pdf',
        disposition: `inline; filename="${name}.pdf"`,
        length: pdf.length,
      });
    }
    const { sheet, rows } = statementSheet({
      tenantName: (await this.tenants.findActiveByKey(tenant.tenantKey))?.name ?? tenant.tenantKey,
      bookingNumber: row.booking_number,
      unit: row.unit_id,
      buyerName: row.buyer_name,
      payerId: query.payerId,
      currency: tenant.currency,
      ledger,
    });
    const xlsx = await this.spreadsheets.xlsx(sheet, rows);
    return new StreamableFile(xlsx, {
      type: XLSX,
      disposition: `attachment; filename="${name}.xlsx"`,
      length: xlsx.length,
    });
  }

  private async pdf(
    view: StatementView,
    row: BookingRecords,
    payerId: string | undefined,
    tenant: TenantContext,
  ) {
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
      payer: statementPayer(row, payerId),
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

/** The payer a statement with `payerId` is of, as printed: a name given on any of its splits. */
function statementPayer(row: BookingRecords, payerId: string | undefined): string | null {
  if (payerId === undefined) return null;
  const splits = row.demands.flatMap((d) => d.splits).filter((s) => s.payerId === payerId);
  const split = splits.find((s) => s.payerName !== null) ?? splits[0];
  return split ? printedPayerName({ ...split, buyerName: row.buyer_name }) : null;
}
