import { DynamicModule, Module } from '@nestjs/common';
import { HOUSEKEEPING_DATABASE_URL, HousekeepingService } from './housekeeping.service';

@Module({})
export class HousekeepingModule {
  /** `databaseUrl`: the application login (pg-boss keeps its own small pool). */
  static register(databaseUrl: string): DynamicModule {
    return {
      module: HousekeepingModule,
      providers: [
        { provide: HOUSEKEEPING_DATABASE_URL, useValue: databaseUrl },
        HousekeepingService,
      ],
      exports: [HousekeepingService],
    };
  }
}
