import { Injectable, StreamableFile } from '@nestjs/common';
import { etagOf, ifNoneMatchHits } from '@/http/etag';
import type { Response } from 'express';
import { TenantContext } from '@/common/tenant-context';
import { ReceiptsService } from '@/receipts/receipts.service';
import { TenantsService } from '@/http/tenancy/tenants.service';
import { validationFailed } from '@/http/errors/validation';
import { RECEIPT_LAYOUT_VERSION, renderReceiptPdf } from './receipt-pdf';

export interface DocumentQuery {
  download?: unknown;
}

const DOWNLOAD_VALUES: Readonly<Record<string, boolean>> = {
  '1': true,
  true: true,
  '0': false,
  false: false,
};

/**
 * GET /receipts/{id}/document: the printed receipt. The ETag is a hash of everything printed
 * (the receipt as GET returns it, the names it prints, the tenant's name and locale, the layout version), so it is
 * known before rendering: a matching If-None-Match is answered 304 without drawing a page, and
 * a receipt that is later cancelled or bounced gets a new ETag. `private, no-cache`: a browser
 * may keep the file but must revalidate, because a receipt's status can change.
 */
@Injectable()
export class ReceiptDocumentsService {
  constructor(
    private readonly receipts: ReceiptsService,
    private readonly tenants: TenantsService,
  ) {}

  async receiptPdf(
    tenant: TenantContext,
    id: string,
    query: DocumentQuery,
    ifNoneMatch: string | undefined,
    res: Response,
  ): Promise<StreamableFile | undefined> {
    const download = parseDownload(query.download);
    const { receipt, createdAt: issuedAt, names } = await this.receipts.findPrintable(tenant, id);
    const record = await this.tenants.findActiveByKey(tenant.tenantKey);
    const tenantName = record?.name ?? tenant.tenantKey;
    const etag = etagOf([RECEIPT_LAYOUT_VERSION, receipt, names, tenantName, tenant.locale], 32);
    res.setHeader('ETag', etag);
    res.setHeader('Cache-Control', 'private, no-cache');
    if (ifNoneMatchHits(ifNoneMatch, etag)) {
      res.status(304);
      return undefined;
    }
    // Rendered inside the request's transaction, after its last read: the render is synchronous
    // CPU work (~5 ms), so the connection is held that much longer but no lock or statement is.
    const pdf = await renderReceiptPdf({
      receipt,
      names: {
        bookingNumber: names.bookingNumber,
        unitName: names.unitName,
        buyerName: names.buyerName,
        payerName: names.payerName,
      },
      tenantName,
      locale: tenant.locale,
      issuedAt,
    });
    const filename = `receipt-${receipt.receiptNumber.replace(/[^A-Za-z0-9._-]+/g, '-')}.pdf`;
    return new StreamableFile(pdf, {
      type: 'application/pdf',
      disposition: `${download ? 'attachment' : 'inline'}; filename="${filename}"`,
      length: pdf.length,
    });
  }
}

function parseDownload(raw: unknown): boolean {
  if (raw === undefined) return false;
  // Own keys only: `download=constructor` must not find Object.prototype's members.
  const value =
    typeof raw === 'string' && Object.hasOwn(DOWNLOAD_VALUES, raw)
      ? DOWNLOAD_VALUES[raw]
      : undefined;
  if (value === undefined) {
    const errors = [{ field: 'download', message: 'must be one of 1, 0, true, false' }];
    throw validationFailed(errors);
  }
  return value;
}
