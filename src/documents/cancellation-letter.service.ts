import { Injectable, StreamableFile } from '@nestjs/common';
import { BookingsService } from '@/bookings/bookings.service';
import { BookingCancellationsService } from '@/cancellations/booking-cancellations.service';
import { TenantContext } from '@/common/tenant-context';
import { TenantsService } from '@/http/tenancy/tenants.service';
import { cancellationLetter } from './cancellation-letter';
import { renderCancellationLetterPdf } from './cancellation-letter-pdf';
import { CancellationLetterView } from './dto/cancellation-letter.view';

/** The letter a buyer receives when their allotment is cancelled (docs/cancellation.md). */
@Injectable()
export class CancellationLetterService {
  constructor(
    private readonly cancellations: BookingCancellationsService,
    private readonly bookings: BookingsService,
    private readonly tenants: TenantsService,
  ) {}

  async letter(
    tenant: TenantContext,
    id: string,
    format: 'json' | 'pdf',
  ): Promise<CancellationLetterView | StreamableFile> {
    const cancellation = await this.cancellations.findOne(tenant, id);
    const booking = await this.bookings.findOne(tenant, cancellation.booking);
    const tenantName =
      (await this.tenants.findActiveByKey(tenant.tenantKey))?.name ?? tenant.tenantKey;
    const letter = cancellationLetter({
      tenantName,
      locale: tenant.locale,
      buyerName: booking.buyerName,
      buyerGstin: booking.buyerGstin,
      bookingNumber: booking.bookingNumber,
      unit: booking.unitName ?? booking.unit,
      cancellation,
    });
    if (format === 'json') return letter;
    const pdf = await renderCancellationLetterPdf(letter, {
      locale: tenant.locale,
      date: new Date(`${cancellation.cancelledOn}T00:00:00Z`),
    });
    return new StreamableFile(pdf, {
      type: 'application/pdf',
      disposition: `inline; filename="cancellation-${booking.bookingNumber.replace(/[^A-Za-z0-9._-]+/g, '-')}.pdf"`,
      length: pdf.length,
    });
  }
}
