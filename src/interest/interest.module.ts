import { Module } from '@nestjs/common';
import { LedgerModule } from '@/ledger/ledger.module';
import { DemandsModule } from '@/demands/demands.module';
import { InterestController } from './interest.controller';
import { InterestPolicyService } from './interest-policy.service';
import { InterestService } from './interest.service';

/** Interest on late payment: the tenant's policy, interest per booking, its demands and waivers. */
@Module({
  imports: [DemandsModule, LedgerModule],
  controllers: [InterestController],
  providers: [InterestService, InterestPolicyService],
  exports: [InterestService, InterestPolicyService],
})
export class InterestModule {}
