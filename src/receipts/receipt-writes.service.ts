import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import Decimal from 'decimal.js';
import { DemandStatus } from '@/common/domain/enums';
import { AppError } from '@/common/errors/app-error';
import { TenantContext } from '@/common/tenancy/tenant-context';
import { decimalFromJson } from '@/common/validation/field-validators';
import { parseLocalDate } from '@/common/dates/local-date';
import { NumberingService } from '@/numbering/numbering.service';
import { ReceiptView } from './dto/receipt.view';
import {
  INSERT_RECEIPT_SQL,
  LOCK_DEMAND_SQL,
  LOCK_SPLIT_SQL,
  UPDATE_DEMAND_SQL,
  UPDATE_SPLIT_SQL,
} from './receipt-writes.sql';
import { CancelReceiptRequest, RecordReceiptRequest } from './dto/receipt-writes.dto';
import { applyPayment, Payable, pendingAmount } from './payment-status';
import { ReceiptsService } from './receipts.service';

interface LockedSplit {
  id: string;
  demand_id: string;
  payer_type: string;
  amount: string;
  paid_amount: string;
  status: DemandStatus;
}

interface LockedDemand {
  id: string;
  booking_id: string;
  total_amount: string;
  received_amount: string;
  status: DemandStatus;
}

interface ReceiptRef {
  id: string;
  demand_split_id: string;
  amount: string;
  status: string;
}

/**
 * Records and cancels receipts. Each runs in the request's tenant transaction and locks rows in
 * one fixed order - demand split, then its demand, then (recording) the receipt number counter,
 * then the tenant's search version row - so concurrent writers queue instead of deadlocking, and a split is never overpaid: the
 * pending amount is read under the split's row lock. The number is allocated as late as
 * possible, because its counter row is the hottest lock of the tenant; a failed receipt rolls
 * back and consumes no number.
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
    const split = await this.lockSplit(tenant, body.demandSplit);
    if (!split) {
      throw AppError.notFound(
        'DEMAND_SPLIT_NOT_FOUND',
        `Demand split ${body.demandSplit} was not found.`,
      );
    }
    const demand = await this.lockDemand(tenant, split.demand_id);
    if (split.status === 'CANCELLED' || demand.status === 'CANCELLED') {
      throw AppError.conflict(
        'DEMAND_SPLIT_CANCELLED',
        `Demand split ${split.id} ${split.status === 'CANCELLED' ? 'is' : 'belongs to a demand that is'} cancelled; it takes no receipts.`,
      );
    }
    const splitPayable = payableOfSplit(split);
    const pending = pendingAmount(splitPayable);
    if (amount.gt(pending)) {
      const message = `amount ${amount.toFixed(2)} exceeds the pending amount ${pending.toFixed(2)} of the demand split`;
      throw AppError.unprocessable(
        'RECEIPT_EXCEEDS_PENDING',
        `The amount ${amount.toFixed(2)} exceeds the pending amount ${pending.toFixed(2)} of demand split ${split.id}.`,
        [{ field: 'amount', message }],
      );
    }

    await this.updateSplit(tenant, split.id, applyPayment(splitPayable, amount));
    await this.updateDemand(tenant, demand.id, applyPayment(payableOfDemand(demand), amount));

    // Last: the counter row stays locked until commit.
    const receiptNumber = await this.numbering.allocate(tenant, 'receipt', { date });
    const [{ id }] = await this.txHost.tx.query<{ id: string }[]>(INSERT_RECEIPT_SQL, [
      tenant.tenantId,
      split.id,
      demand.id,
      demand.booking_id,
      split.payer_type,
      receiptNumber,
      amount.toFixed(2),
      body.paymentMode,
      body.transactionRef,
      body.receivedDate,
      tenant.actor,
    ]);
    await this.receipts.markChanged(tenant);
    return this.load(tenant, id);
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
    const split = (await this.lockSplit(tenant, found.demand_split_id)) as LockedSplit;
    const demand = await this.lockDemand(tenant, split.demand_id);
    const [receipt] = await em.query<ReceiptRef[]>(
      `SELECT id, demand_split_id, amount::text AS amount, status FROM receipts
        WHERE tenant_id = $1 AND id = $2 FOR UPDATE`,
      [tenant.tenantId, id],
    );
    if (receipt.status === 'CANCELLED') {
      throw AppError.conflict('RECEIPT_ALREADY_CANCELLED', `Receipt ${id} is already cancelled.`);
    }

    const amount = new Decimal(receipt.amount).negated();
    await this.updateSplit(tenant, split.id, applyPayment(payableOfSplit(split), amount));
    await this.updateDemand(tenant, demand.id, applyPayment(payableOfDemand(demand), amount));
    await em.query(
      `UPDATE receipts
          SET status = 'CANCELLED', cancel_reason = $3, cancelled_at = now(), cancelled_by = $4,
              modified_at = now()
        WHERE tenant_id = $1 AND id = $2`,
      [tenant.tenantId, id, body.reason, tenant.actor],
    );
    await this.receipts.markChanged(tenant);
    return this.load(tenant, id);
  }

  private async lockSplit(tenant: TenantContext, id: string): Promise<LockedSplit | undefined> {
    const [split] = await this.txHost.tx.query<LockedSplit[]>(LOCK_SPLIT_SQL, [
      tenant.tenantId,
      id,
    ]);
    return split;
  }

  private async lockDemand(tenant: TenantContext, id: string): Promise<LockedDemand> {
    const [demand] = await this.txHost.tx.query<LockedDemand[]>(LOCK_DEMAND_SQL, [
      tenant.tenantId,
      id,
    ]);
    return demand;
  }

  private async updateSplit(
    tenant: TenantContext,
    id: string,
    update: { paid: string; status: DemandStatus },
  ) {
    await this.txHost.tx.query(UPDATE_SPLIT_SQL, [tenant.tenantId, id, update.paid, update.status]);
  }

  private async updateDemand(
    tenant: TenantContext,
    id: string,
    update: { paid: string; status: DemandStatus },
  ) {
    await this.txHost.tx.query(UPDATE_DEMAND_SQL, [
      tenant.tenantId,
      id,
      update.paid,
      update.status,
    ]);
  }

  private async load(tenant: TenantContext, id: string): Promise<ReceiptView> {
    const [view] = await this.receipts.loadByIds(tenant, [id]);
    if (!view) throw receiptNotFound(id);
    return view;
  }
}

const receiptNotFound = (id: string) =>
  AppError.notFound('RECEIPT_NOT_FOUND', `Receipt ${id} was not found.`);

const payableOfSplit = (s: LockedSplit): Payable => ({
  total: s.amount,
  paid: s.paid_amount,
  status: s.status,
});
const payableOfDemand = (d: LockedDemand): Payable => ({
  total: d.total_amount,
  paid: d.received_amount,
  status: d.status,
});
