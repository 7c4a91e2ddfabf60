import { Module } from '@nestjs/common';
import { GstSettingsController } from './gst-settings.controller';
import { GstSettingsService } from './gst-settings.service';

/**
 * The tenant's GST registration and filing state (GET / PUT /tenant/gst and its history).
 * Exports GstSettingsService: `settings(tenant)` is what taxing a demand reads, in its transaction.
 */
@Module({
  controllers: [GstSettingsController],
  providers: [GstSettingsService],
  exports: [GstSettingsService],
})
export class GstSettingsModule {}
