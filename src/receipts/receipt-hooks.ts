import { Injectable } from '@nestjs/common';
import { TenantContext } from '@/common/tenant-context';

/** What a hook learns of the receipts a transaction has just recorded. */
export interface RecordedReceipt {
  id: string;
  /** Decimal text, two places. */
  amount: string;
  paymentMode: string;
  transactionRef: string;
}

/**
 * Work a module above receipts does in the very transaction that records receipts (bank matching
 * tries the new receipts against unmatched statement lines: CONTRACT §11.2). Receipts must not
 * depend on those modules (docs/architecture.md): they register an implementation here instead.
 */
export interface ReceiptsRecordedHook {
  /**
   * Runs after the receipts are written and their `receipt.recorded` events recorded, in the same
   * transaction (a failure rolls the recording back). Takes no lock it would wait for behind
   * another receipt writer. Answers the ids of the receipts it changed, whose views are read again.
   */
  afterRecorded(tenant: TenantContext, receipts: RecordedReceipt[]): Promise<string[]>;
}

/** The registered hooks; ReceiptWritesService runs them (POST /receipts, payments). */
@Injectable()
export class ReceiptHooks {
  private readonly recorded: ReceiptsRecordedHook[] = [];

  /** Called once by the providing module (onModuleInit). */
  onRecorded(hook: ReceiptsRecordedHook): void {
    this.recorded.push(hook);
  }

  async afterRecorded(tenant: TenantContext, receipts: RecordedReceipt[]): Promise<Set<string>> {
    const changed = new Set<string>();
    for (const hook of this.recorded) {
      for (const id of await hook.afterRecorded(tenant, receipts)) changed.add(id);
    }
    return changed;
  }
}
