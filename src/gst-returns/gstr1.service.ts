import { Injectable, StreamableFile } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { FieldError } from '@/common/app-error';
import { toPaise } from '@/common/money/paise';
import { TenantContext } from '@/common/tenant-context';
import { SpreadsheetsService } from '@/exports/spreadsheets.service';
import { GstSettingsService } from '@/gst-settings/gst-settings.service';
import { refuseInvalidQuery } from '@/http/cursor-query';
import { Clock } from '@/platform/clock/clock';
import { RoutingTransactionAdapter } from '@/platform/replicas/routing-transaction-adapter';
import { GSTR1_INCONSISTENT } from './gst-returns.errors';
import { buildGstr1, Gstr1Document, Gstr1Input, Gstr1Line, Gstr1Return } from './gstr1';
import { gstr1Problems } from './gstr1-checks';
import { Gstr1Json, gstr1Json } from './gstr1-json';
import { Gstr1Format, parseGstr1Query, XLSX_MEDIA_TYPE } from './gstr1-query';
import { gstr1Sheets } from './gstr1-sheets';
import {
  PERIOD_CREDIT_NOTES_SQL,
  PERIOD_INVOICES_SQL,
  PERIOD_NON_GST_SQL,
  PeriodCreditNoteRow,
  PeriodInvoiceRow,
  PeriodNonGstRow,
  periodParams,
  SERIES_KEYS_SQL,
  SeriesKeyRow,
  tenantParams,
} from './gstr1.sql';

/** A document line as issued (two-decimal text) in paise. */
function lineOf(line: {
  sac: string;
  taxableValue: string;
  cgstRate: string;
  cgst: string;
  sgstRate: string;
  sgst: string;
}): Gstr1Line {
  return {
    sac: line.sac,
    taxableValue: toPaise(line.taxableValue),
    cgstRate: line.cgstRate,
    cgst: toPaise(line.cgst),
    sgstRate: line.sgstRate,
    sgst: toPaise(line.sgst),
  };
}

export function invoiceOf(row: PeriodInvoiceRow): Gstr1Document {
  const d = row.document;
  return {
    number: row.number,
    date: row.date,
    supplierGstin: d.supplier.gstin,
    recipientGstin: d.recipient.gstin,
    recipientName: d.recipient.name,
    pos: d.placeOfSupply.stateCode,
    lines: d.lines.map(lineOf),
    totals: {
      taxableValue: toPaise(d.totals.taxableValue),
      cgst: toPaise(d.totals.cgst),
      sgst: toPaise(d.totals.sgst),
      tax: toPaise(d.totals.tax),
      value: toPaise(d.totals.grossAmount),
    },
  };
}

/** A credit note's place of supply is its invoices': the supplier's state, where the flat is. */
export function creditNoteOf(row: PeriodCreditNoteRow): Gstr1Document {
  const d = row.document;
  return {
    number: row.number,
    date: row.date,
    supplierGstin: d.supplier.gstin,
    recipientGstin: d.recipient.gstin,
    recipientName: d.recipient.name,
    pos: d.supplier.stateCode,
    lines: d.lines.map(lineOf),
    totals: {
      taxableValue: toPaise(d.totals.taxableValue),
      cgst: toPaise(d.totals.cgst),
      sgst: toPaise(d.totals.sgst),
      tax: toPaise(d.totals.tax),
      value: toPaise(d.totals.value),
    },
  };
}

/**
 * GSTR-1 (docs/returns-and-books.md): the month's tax invoices and credit notes as the GST
 * portal's offline-tool JSON or as a workbook, refused (422 GSTR1_INCONSISTENT) when the return
 * disagrees with its documents. Read-only.
 */
@Injectable()
export class Gstr1Service {
  constructor(
    private readonly txHost: TransactionHost<RoutingTransactionAdapter>,
    private readonly clock: Clock,
    private readonly gst: GstSettingsService,
    private readonly spreadsheets: SpreadsheetsService,
  ) {}

  async gstr1(
    tenant: TenantContext,
    raw: { period?: unknown; format?: unknown },
  ): Promise<Gstr1Json | StreamableFile> {
    const errors: FieldError[] = [];
    const query = parseGstr1Query(raw, this.clock.today(tenant).slice(0, 7), errors);
    refuseInvalidQuery(errors);
    const input = await this.input(tenant, query);
    const ret = buildGstr1(input);
    const problems = gstr1Problems(input, ret);
    if (problems.length > 0) {
      const where = [...new Set(problems.map((p) => p.where))];
      throw GSTR1_INCONSISTENT.errorWith(
        { errors: problems.map((p) => ({ field: p.where, message: p.message })) },
        ret.fp,
        where.join(', '),
      );
    }
    return this.answer(query.format, input, ret);
  }

  private async answer(
    format: Gstr1Format,
    input: Gstr1Input,
    ret: Gstr1Return,
  ): Promise<Gstr1Json | StreamableFile> {
    if (format === 'json') return gstr1Json(ret);
    const bytes = await this.spreadsheets.workbook(gstr1Sheets(input, ret));
    return new StreamableFile(bytes, {
      type: XLSX_MEDIA_TYPE,
      disposition: `attachment; filename="GSTR1-${ret.gstin ?? 'unregistered'}-${ret.fp}.xlsx"`,
      length: bytes.length,
    });
  }

  /** What the return is made of: four reads, each one statement over the period. */
  private async input(
    tenant: TenantContext,
    query: { period: string; from: string; to: string },
  ): Promise<Gstr1Input> {
    const em = this.txHost.tx;
    const params = periodParams({ tenantId: tenant.tenantId, from: query.from, to: query.to });
    const settings = await this.gst.settings(tenant);
    const invoices = (await em.query<PeriodInvoiceRow[]>(PERIOD_INVOICES_SQL, params)).map(
      invoiceOf,
    );
    const creditNotes = (
      await em.query<PeriodCreditNoteRow[]>(PERIOD_CREDIT_NOTES_SQL, params)
    ).map(creditNoteOf);
    const [nonGst] = await em.query<PeriodNonGstRow[]>(PERIOD_NON_GST_SQL, params);
    const keys = await em.query<SeriesKeyRow[]>(
      SERIES_KEYS_SQL,
      tenantParams({ tenantId: tenant.tenantId }),
    );
    const keysOf = (type: SeriesKeyRow['document_type']) =>
      keys.filter((k) => k.document_type === type).map((k) => k.counter_key);
    return {
      // A registration given up later still files for the months it issued documents in.
      gstin: settings.gstin ?? invoices[0]?.supplierGstin ?? creditNotes[0]?.supplierGstin ?? null,
      period: query.period,
      invoices,
      creditNotes,
      nonGst: { count: nonGst?.count ?? 0, amount: toPaise(nonGst?.amount ?? '0') },
      seriesKeys: { invoice: keysOf('tax-invoice'), creditNote: keysOf('credit-note') },
    };
  }
}
