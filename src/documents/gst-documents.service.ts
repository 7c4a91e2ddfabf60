import type { PdfOrJson } from '@/http/accept-format';
import { Injectable, StreamableFile } from '@nestjs/common';
import { FieldError } from '@/common/app-error';
import { isLocalDateString } from '@/common/field-validators';
import { integerQueryParam, refuseInvalidQuery } from '@/http/cursor-query';
import { currencySymbol } from '@/common/money/money';
import { TenantContext } from '@/common/tenant-context';
import { DemandsService } from '@/demands/demands.service';
import type { CreditNoteRow } from '@/demands/demands.sql';
import { amountInWords } from './amount-in-words';
import { renderCreditNotePdf } from './credit-note-pdf';
import {
  CreditNoteView,
  InvoiceView,
  toCreditNoteView,
  toInvoiceView,
} from './dto/gst-documents.view';
import { CreditNoteDocument, InvoiceDocument, placeOfSupply } from './gst-documents';
import { renderInvoicePdf } from './invoice-pdf';

export type GstDocumentFormat = PdfOrJson;

const pdfFile = (pdf: Buffer, name: string) =>
  new StreamableFile(pdf, {
    type: 'application/pdf',
    disposition: `inline; filename="${name.replace(/[^A-Za-z0-9._-]+/g, '-')}.pdf"`,
    length: pdf.length,
  });

/** A credit note's row as the documents print it. */
function creditNoteDocument(row: CreditNoteRow): CreditNoteDocument {
  return { id: row.id, ...row.document };
}

/**
 * The GST documents (docs/gst.md): a taxed demand's tax invoice and the credit notes of cancels,
 * as frozen when issued, in JSON or as their A4 PDF. Read-only.
 */
@Injectable()
export class GstDocumentsService {
  constructor(private readonly demands: DemandsService) {}

  async invoice(
    tenant: TenantContext,
    demandId: string,
    format: GstDocumentFormat,
  ): Promise<InvoiceView | StreamableFile> {
    const { demand, invoice } = await this.demands.invoice(tenant, demandId);
    const frozen = invoice.document;
    const document: InvoiceDocument = {
      ...frozen,
      placeOfSupply: placeOfSupply(frozen.placeOfSupply.stateCode),
      amountInWords: amountInWords(frozen.totals.grossAmount, tenant.currency, tenant.locale),
    };
    if (format === 'json') return toInvoiceView(document, demand, tenant.currency, tenant.locale);
    const pdf = await renderInvoicePdf(document, {
      locale: tenant.locale,
      currencySymbol: currencySymbol(tenant.currency, tenant.locale),
      currency: tenant.currency,
    });
    return pdfFile(pdf, `invoice-${invoice.number}`);
  }

  async creditNote(
    tenant: TenantContext,
    id: string,
    format: GstDocumentFormat,
  ): Promise<CreditNoteView | StreamableFile> {
    const row = await this.demands.creditNote(tenant, id);
    const document = creditNoteDocument(row);
    if (format === 'json') return toCreditNoteView(document, tenant.currency, tenant.locale);
    const pdf = await renderCreditNotePdf(document, {
      locale: tenant.locale,
      currencySymbol: currencySymbol(tenant.currency, tenant.locale),
      currency: tenant.currency,
    });
    return pdfFile(pdf, `credit-note-${row.number}`);
  }

  async creditNotes(
    tenant: TenantContext,
    raw: { booking?: string; from?: string; to?: string; page?: string; size?: string },
  ): Promise<{ content: CreditNoteView[]; totalElements: number }> {
    const filter = parseCreditNoteQuery(raw);
    const { rows, total } = await this.demands.creditNotes(tenant, filter);
    return {
      content: rows.map((r) =>
        toCreditNoteView(creditNoteDocument(r), tenant.currency, tenant.locale),
      ),
      totalElements: total,
    };
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** GET /credit-notes' query: a booking, a date range, a page (size 1..500, default 20). */
export function parseCreditNoteQuery(raw: {
  booking?: string;
  from?: string;
  to?: string;
  page?: string;
  size?: string;
}): { booking?: string; from?: string; to?: string; page: number; size: number } {
  const errors: FieldError[] = [];
  if (raw.booking !== undefined && !UUID.test(raw.booking)) {
    errors.push({ field: 'booking', message: 'must be a UUID' });
  }
  for (const field of ['from', 'to'] as const) {
    if (raw[field] !== undefined && !isLocalDateString(raw[field])) {
      errors.push({ field, message: 'must be a real calendar date as YYYY-MM-DD' });
    }
  }
  if (raw.from && raw.to && raw.from > raw.to && errors.length === 0) {
    errors.push({ field: 'from', message: 'must not be after to' });
  }
  const page = integerQueryParam('page', raw.page, 0, 0, 1_000_000, errors);
  const size = integerQueryParam('size', raw.size, 20, 1, 500, errors);
  refuseInvalidQuery(errors);
  return { booking: raw.booking?.toLowerCase(), from: raw.from, to: raw.to, page, size };
}
