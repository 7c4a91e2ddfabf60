import { Module } from '@nestjs/common';
import { EventsController } from './events.controller';
import { EventsService } from './events.service';

/** The pull feed of the outbox (GET /events). */
@Module({
  controllers: [EventsController],
  providers: [EventsService],
})
export class EventsModule {}
