import { Global, Module } from '@nestjs/common';
import { NumbersController } from './numbers.controller';
import { NumberingService } from './numbering.service';

@Global()
@Module({
  controllers: [NumbersController],
  providers: [NumberingService],
  exports: [NumberingService],
})
export class NumberingModule {}
