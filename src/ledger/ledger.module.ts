import { Module } from '@nestjs/common';
import { LedgerService } from './ledger.service';

/**
 * "Owed as of a date" (docs/ledger.md): a booking's records and the rules over them, for the
 * statement of account, interest, letters, the ageing and reminders. Writes nothing.
 */
@Module({
  providers: [LedgerService],
  exports: [LedgerService],
})
export class LedgerModule {}
