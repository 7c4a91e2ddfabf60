import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import Decimal from 'decimal.js';
import { AppError } from '@/common/errors/app-error';
import { TenantContext } from '@/common/tenancy/tenant-context';
import { decimalFromJson } from '@/common/validation/field-validators';
import { parseLocalDate } from '@/common/dates/local-date';
import { NumberingService } from '@/numbering/numbering.service';
import { ReceiptRow, ReceiptView, toReceiptView } from './dto/receipt.view';
import {
  INSERT_RECEIPT_SQL,
  insertReceiptParams,
  LOCK_SPLIT_AND_DEMAND_SQL,
  LockedSplitRow as LockedSplit,
  splitAndDemandPayment,
  UPDATE_SPLIT_AND_DEMAND_SQL,
} from './receipt-writes.sql';
import { CancelReceiptRequest, RecordReceiptRequest } from './dto/receipt-writes.dto';
import { pendingAmount } from './payment-status';
import { ReceiptsService } from './receipts.service';

interface ReceiptRef {
  id: string;
  demand_split_id: string;
  amount: string;
  status: string;
}

/**
 * Records and cancels receipts. Each runs in the request's tenant transaction and locks rows in
 * one fixed order - demand split, then its demand, then (recording) the receipt number counter
 * or (cancelling) the receipt, then last the tenant's search version row - so concurrent writers
 * queue instead of deadlocking, and a split is never overpaid: the pending amount is read under
 * the split's row lock. The number is allocated as late as possible, because its counter row is
 * the hottest lock of the tenant, and after it only the number claim and one statement (bump the
 * version, insert and read back the receipt) run, then the idempotency record if any, then
 * commit; a failed receipt rolls back and
 * consumes no number. The search version is bumped before the receipt row is written so the row
 * carries it (`inserted_version`): held until commit, that lock makes commit order equal version
 * order, which incremental exact counts rely on (search/exact-counts.ts).
 */
@Injectable()
export class ReceiptWritesService {
  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly numbering: NumberingService,
    private readonly receipts: ReceiptsService,
  ) {}

  async record(tenant: TenantContext, body: RecordReceiptRequest): Promise<ReceiptView> {
    const amount = decimalFromJson(body.amount);
    if (amount.lte(0)) {
      throw AppError.unprocessable(
        'RECEIPT_AMOUNT_NOT_POSITIVE',
        `A receipt amount must be greater than 0; got ${amount.toFixed(2)}.`,
        [{ field: 'amount', message: 'must be greater than 0' }],
      );
    }
    const date = parseLocalDate(body.receivedDate);
    const split = await this.lockSplitAndDemand(tenant, body.demandSplit);
    if (!split) {
      throw AppError.notFound(
        'DEMAND_SPLIT_NOT_FOUND',
        `Demand split ${body.demandSplit} was not found.`,
      );
    }
    if (split.status === 'CANCELLED' || split.d_status === 'CANCELLED') {
      throw AppError.conflict(
        'DEMAND_SPLIT_CANCELLED',
        `Demand split ${split.id} ${split.status === 'CANCELLED' ? 'is' : 'belongs to a demand that is'} cancelled; it takes no receipts.`,
      );
    }
    const pending = pendingAmount({ total: split.amount, paid: split.paid_amount });
    if (amount.gt(pending)) {
      const message = `amount ${amount.toFixed(2)} exceeds the pending amount ${pending.toFixed(2)} of the demand split`;
      throw AppError.unprocessable(
        'RECEIPT_EXCEEDS_PENDING',
        `The amount ${amount.toFixed(2)} exceeds the pending amount ${pending.toFixed(2)} of demand split ${split.id}.`,
        [{ field: 'amount', message }],
      );
    }
    const demandStatusChanged = await this.applyToSplitAndDemand(tenant, split, amount);

    // Last: the counter row and then the version row stay locked until commit.
    const receiptNumber = await this.numbering.allocate(tenant, 'receipt', { date });
    const [row] = await this.txHost.tx.query<ReceiptRow[]>(
      INSERT_RECEIPT_SQL,
      insertReceiptParams(tenant, split, receiptNumber, amount, body, demandStatusChanged),
    );
    return toReceiptView(row, tenant);
  }

  async cancel(
    tenant: TenantContext,
    id: string,
    body: CancelReceiptRequest,
  ): Promise<ReceiptView> {
    const em = this.txHost.tx;
    const [found] = await em.query<ReceiptRef[]>(
      `SELECT id, demand_split_id, amount::text AS amount, status FROM receipts WHERE tenant_id = $1 AND id = $2`,
      [tenant.tenantId, id],
    );
    if (!found) throw receiptNotFound(id);

    // Same lock order as recording: split, demand, then the receipt itself.
    const split = (await this.lockSplitAndDemand(tenant, found.demand_split_id)) as LockedSplit;
    const [receipt] = await em.query<ReceiptRef[]>(
      `SELECT id, demand_split_id, amount::text AS amount, status FROM receipts
        WHERE tenant_id = $1 AND id = $2 FOR UPDATE`,
      [tenant.tenantId, id],
    );
    if (receipt.status === 'CANCELLED') {
      throw AppError.conflict('RECEIPT_ALREADY_CANCELLED', `Receipt ${id} is already cancelled.`);
    }

    const amount = new Decimal(receipt.amount).negated();
    const demandStatusChanged = await this.applyToSplitAndDemand(tenant, split, amount);
    await this.receipts.markChanged(tenant, {
      receiptStatus: true,
      demandStatus: demandStatusChanged,
    });
    await em.query(
      `UPDATE receipts
          SET status = 'CANCELLED', cancel_reason = $3, cancelled_at = now(), cancelled_by = $4,
              modified_at = now()
        WHERE tenant_id = $1 AND id = $2`,
      [tenant.tenantId, id, body.reason, tenant.actor],
    );
    return this.load(tenant, id);
  }

  private async lockSplitAndDemand(
    tenant: TenantContext,
    splitId: string,
  ): Promise<LockedSplit | undefined> {
    const [split] = await this.txHost.tx.query<LockedSplit[]>(LOCK_SPLIT_AND_DEMAND_SQL, [
      tenant.tenantId,
      splitId,
    ]);
    return split;
  }

  /**
   * Adds `amount` (negative: takes it back) to what the split and its demand have been paid, in
   * one statement; says whether either status changed (a filter on them must recount).
   */
  private async applyToSplitAndDemand(
    tenant: TenantContext,
    split: LockedSplit,
    amount: Decimal,
  ): Promise<boolean> {
    const payment = splitAndDemandPayment(tenant.tenantId, split, amount);
    await this.txHost.tx.query(UPDATE_SPLIT_AND_DEMAND_SQL, payment.params);
    return payment.statusChanged;
  }

  private async load(tenant: TenantContext, id: string): Promise<ReceiptView> {
    const [view] = await this.receipts.loadByIds(tenant, [id]);
    if (!view) throw receiptNotFound(id);
    return view;
  }
}

const receiptNotFound = (id: string) =>
  AppError.notFound('RECEIPT_NOT_FOUND', `Receipt ${id} was not found.`);
