import { Module } from '@nestjs/common';
import { GstSettingsModule } from '@/gst-settings/gst-settings.module';
import { DemandsController } from './demands.controller';
import { DemandsService } from './demands.service';

@Module({
  imports: [GstSettingsModule],
  controllers: [DemandsController],
  providers: [DemandsService],
  exports: [DemandsService],
})
export class DemandsModule {}
