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
 * tries the new receipts against unmatched statement lines: docs/bank.md). Receipts must not
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

/**
 * The bank line that returned a bounced cheque (POST /receipts/{id}/bounce with `bankLine`),
 * provided by bank like ReceiptsRecordedHook.
 */
export interface ReceiptReturnHook {
  /**
   * Before the bounce changes anything (so lines are locked before receipts, as bank does): finds
   * and locks the line, and throws RETURN_LINE_NOT_FOUND / RETURN_LINE_NOT_MATCHABLE.
   */
  lockReturnLine(tenant: TenantContext, receiptId: string, lineId: string): Promise<void>;
  /** After the bounce, in its transaction: the line becomes MATCHED to it (rule RETURN). */
  matchReturnLine(tenant: TenantContext, receiptId: string, lineId: string): Promise<void>;
}

/** The registered hooks; ReceiptWritesService runs them (POST /receipts, payments, bounce). */
@Injectable()
export class ReceiptHooks {
  private readonly recorded: ReceiptsRecordedHook[] = [];
  private returned?: ReceiptReturnHook;

  /** Called once by the providing module (onModuleInit). */
  onRecorded(hook: ReceiptsRecordedHook): void {
    this.recorded.push(hook);
  }

  /** Called once by the providing module (onModuleInit). */
  onReturn(hook: ReceiptReturnHook): void {
    this.returned = hook;
  }

  /** The return-line hook; a bounce with bankLine needs one (bank is always loaded). */
  returnHook(): ReceiptReturnHook {
    if (!this.returned) throw new Error('no ReceiptReturnHook registered');
    return this.returned;
  }

  async afterRecorded(tenant: TenantContext, receipts: RecordedReceipt[]): Promise<Set<string>> {
    const changed = new Set<string>();
    for (const hook of this.recorded) {
      for (const id of await hook.afterRecorded(tenant, receipts)) changed.add(id);
    }
    return changed;
  }
}
