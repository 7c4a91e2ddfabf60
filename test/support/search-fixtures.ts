import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { PAYMENT_MODES } from '@/common/domain/enums';

export interface FixtureReceipt {
  id: string;
  demandSplit: string;
  demand: string;
  booking: string;
  payerType: string;
  payerId: string;
  receiptNumber: string;
  amount: string;
  paymentMode: string;
  transactionRef: string;
  receivedDate: string;
  status: string;
  demandNumber: string;
  demandSplitNumber: string;
  buyerName: string;
  unit: string;
  milestone: string | null;
  demandType: string;
  dueDate: string;
  demandStatus: string;
  splitStatus: string;
}

const BUYERS = ['Ananya Iyer', 'Rohan Kapoor', 'Meera Nair'];

/**
 * A small, fully known data set written as the schema owner (bypassing the API on purpose: the
 * search tests must not depend on the write side). Returns what was written so tests can compute
 * the expected answer themselves.
 */
export async function seedSearchFixtures(
  owner: DataSource,
  tenantId: string,
  tag: string,
): Promise<FixtureReceipt[]> {
  const receipts: FixtureReceipt[] = [];
  const milestone = randomUUID();
  for (let b = 0; b < 3; b++) {
    const bookingId = randomUUID();
    const unit = randomUUID();
    const buyerName = BUYERS[b];
    await owner.query(
      `INSERT INTO bookings (tenant_id, id, booking_number, unit_id, buyer_name, booking_date, created_by)
       VALUES ($1, $2, $3, $4, $5, '2025-01-15', 'fixture')`,
      [tenantId, bookingId, `${tag}-BKG-${b}`, unit, buyerName],
    );
    for (let d = 0; d < 2; d++) {
      const demandId = randomUUID();
      const demandNumber = `${tag}-DMD-${b}${d}`;
      const isMilestone = d === 1;
      const dueDate = `2025-0${d + 3}-1${b}`;
      const splitCount = 2;
      const splitAmount = 100000;
      const splits: {
        id: string;
        payerType: string;
        payerId: string;
        number: string;
        paid: number;
      }[] = [];
      for (let s = 0; s < splitCount; s++) {
        splits.push({
          id: randomUUID(),
          payerType: s === 0 ? 'BUYER' : 'BANK',
          payerId: randomUUID(),
          number: `${demandNumber}/S${s}`,
          paid: 0,
        });
      }
      const demandReceipts: Omit<FixtureReceipt, 'demandStatus' | 'splitStatus'>[] = [];
      for (let s = 0; s < splitCount; s++) {
        for (let r = 0; r < 2; r++) {
          const i = receipts.length + demandReceipts.length;
          const cancelled = i % 7 === 3;
          const amount = (1000 * (i + 1) + (i % 3) * 0.25).toFixed(2);
          if (!cancelled) splits[s].paid += Number(amount);
          demandReceipts.push({
            id: randomUUID(),
            demandSplit: splits[s].id,
            demand: demandId,
            booking: bookingId,
            payerType: splits[s].payerType,
            payerId: splits[s].payerId,
            receiptNumber: `${tag}-RCT-${String(i).padStart(3, '0')}`,
            amount,
            paymentMode: PAYMENT_MODES[i % PAYMENT_MODES.length],
            transactionRef: i % 4 === 0 ? '' : `UTR${tag}${i}_X%`,
            receivedDate: `2025-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 27) + 1).padStart(2, '0')}`,
            status: cancelled ? 'CANCELLED' : 'ACTIVE',
            demandNumber,
            demandSplitNumber: splits[s].number,
            buyerName,
            unit,
            milestone: isMilestone ? milestone : null,
            demandType: isMilestone ? 'MILESTONE' : 'MANUAL',
            dueDate,
          });
        }
      }
      const received = splits.reduce((sum, s) => sum + s.paid, 0);
      const status = (paid: number, total: number) =>
        paid === 0 ? 'PENDING' : paid >= total ? 'PAID' : 'PARTIALLY_PAID';
      const demandStatus = status(received, splitAmount * splitCount);
      await owner.query(
        `INSERT INTO demands (tenant_id, id, booking_id, unit_id, buyer_name, milestone_id, demand_type, demand_number,
                              total_amount, received_amount, due_date, demand_date, remarks, status, created_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, '2025-01-20', 'fixture demand', $12, 'fixture')`,
        [
          tenantId,
          demandId,
          bookingId,
          unit,
          buyerName,
          isMilestone ? milestone : null,
          isMilestone ? 'MILESTONE' : 'MANUAL',
          demandNumber,
          splitAmount * splitCount,
          received.toFixed(2),
          dueDate,
          demandStatus,
        ],
      );
      for (const s of splits) {
        await owner.query(
          `INSERT INTO demand_splits (tenant_id, id, demand_id, payer_type, payer_id, demand_split_number, amount, paid_amount, status)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
          [
            tenantId,
            s.id,
            demandId,
            s.payerType,
            s.payerId,
            s.number,
            splitAmount,
            s.paid.toFixed(2),
            status(s.paid, splitAmount),
          ],
        );
      }
      for (const r of demandReceipts) {
        const split = splits.find((s) => s.id === r.demandSplit)!;
        receipts.push({ ...r, demandStatus, splitStatus: status(split.paid, splitAmount) });
        await owner.query(
          `INSERT INTO receipts (tenant_id, id, demand_split_id, demand_id, booking_id, payer_type, receipt_number, amount,
                                 payment_mode, transaction_ref, received_date, status, created_by,
                                 inserted_version)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 'fixture', 0)`,
          [
            tenantId,
            r.id,
            r.demandSplit,
            r.demand,
            r.booking,
            r.payerType,
            r.receiptNumber,
            r.amount,
            r.paymentMode,
            r.transactionRef,
            r.receivedDate,
            r.status,
          ],
        );
      }
    }
  }
  return receipts;
}

/** The service's default order: receivedDate desc, receiptNumber desc, id desc. */
export function defaultOrder(a: FixtureReceipt, b: FixtureReceipt): number {
  return (
    b.receivedDate.localeCompare(a.receivedDate) ||
    compareText(b.receiptNumber, a.receiptNumber) ||
    compareText(b.id, a.id)
  );
}

/** Byte order, which is what PostgreSQL's C collation and ASCII data give. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
