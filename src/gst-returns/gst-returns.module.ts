import { Module } from '@nestjs/common';
import { ExportsModule } from '@/exports/exports.module';
import { GstSettingsModule } from '@/gst-settings/gst-settings.module';
import { Gstr1Controller } from './gstr1.controller';
import { Gstr1Service } from './gstr1.service';

/**
 * The GST returns made from the tax invoices and credit notes (GET /gst/gstr1), read-only: the
 * month's GSTR-1 as the portal's offline-tool JSON or a workbook, checked against its documents.
 */
@Module({
  imports: [GstSettingsModule, ExportsModule],
  controllers: [Gstr1Controller],
  providers: [Gstr1Service],
})
export class GstReturnsModule {}
