import { INestApplicationContext } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import Decimal from 'decimal.js';
import { createHash } from 'node:crypto';
import { BankService } from '@/bank/bank.service';
import { StatementImportService } from '@/bank/statement-import.service';
import { HdfcTransaction, writeHdfcStatement } from '@/bank/statements/hdfc-csv-writer';
import { formatLocalDate, localDateInZone } from '@/common/dates/local-date';
import { tenantContextOf } from '@/http/tenancy/tenant.decorator';
import type { Tenant } from '@/http/tenancy/tenant.entity';
import { RoutingTransactionAdapter } from '@/platform/replicas/routing-transaction-adapter';
import {
  DEMO_BANK_RECEIPTS_SQL,
  DemoBankReceiptRow,
  demoBankReceiptsParams,
} from './demo-bank.sql';

/** At most this many receipts on the demo statement (a large seed has thousands a month). */
const MAX_RECEIPTS = 2000;
const IFSC = 'HDFC0001234';

/** `days` after a YYYY-MM-DD date. */
function plusDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** The bank's narration and reference column for a receipt, as HDFC writes them per mode. */
function describe(r: DemoBankReceiptRow): { narration: string; reference: string } {
  const digits = r.transaction_ref.replace(/\D/g, '').slice(-12).padStart(12, '0');
  const name = r.payer_type === 'BANK' ? 'LIC HOUSING FINANCE LTD' : r.buyer_name.toUpperCase();
  const handle = name.split(' ')[0].toLowerCase();
  switch (r.payment_mode) {
    case 'UPI':
      return {
        narration: `UPI-${name}-${handle}@okhdfcbank-HDFC0000123-${digits}-PAYMENT`,
        reference: digits.padStart(16, '0'),
      };
    case 'IMPS':
      return {
        narration: `IMPS-${digits}-${name}-SBIN-XXXXXXXX1234`,
        reference: digits.padStart(16, '0'),
      };
    case 'CHEQUE':
    case 'DEMAND_DRAFT': {
      const cheque = digits.slice(-6);
      return {
        narration: `${r.payment_mode === 'CHEQUE' ? 'CHQ' : 'DD'} DEP - MICR CTS - MUMBAI CLEARING - ${cheque}`,
        reference: cheque.padStart(16, '0'),
      };
    }
    case 'CARD':
    case 'ONLINE':
      return {
        narration: `PG SETTLEMENT-RAZORPAY-${name}-${digits}`,
        reference: digits.padStart(16, '0'),
      };
    default:
      return {
        narration: `${r.payment_mode} CR-SBIN0001234-${name}-${digits}`,
        reference: digits.padStart(16, '0'),
      };
  }
}

/**
 * The demo tenant's bank: an HDFC collections account and last month's statement, as HDFC's
 * CSV export writes it, imported through the import itself (so its lines are what an import
 * makes). Credits are the month's receipts that reached the bank (a bounced cheque is deposited,
 * then returned with charges); debits a transfer out and the month's charges. Runs in the
 * seed's transaction, under the tenant's row-level security; writes no events (the seed writes
 * none).
 */
export async function seedDemoBank(app: INestApplicationContext, tenant: Tenant): Promise<void> {
  const txHost = app.get<TransactionHost<RoutingTransactionAdapter>>(TransactionHost);
  const context = tenantContextOf(tenant, 'demo-seed');
  const digest = createHash('sha256').update(tenant.key).digest('hex');
  const accountNumber = `5020${BigInt(`0x${digest.slice(0, 12)}`)
    .toString()
    .slice(0, 10)
    .padStart(10, '0')}`;
  const account = await app.get(BankService).create(
    context,
    {
      name: 'HDFC RERA collections account',
      accountNumber,
      ifsc: IFSC,
      currency: tenant.currency,
      // The account demand letters print as where to pay (docs/letters.md).
      collection: true,
    },
    { recordEvent: false },
  );

  const today = localDateInZone(new Date(), tenant.timezone);
  const lastMonth =
    today.month === 1
      ? { year: today.year - 1, month: 12 }
      : { year: today.year, month: today.month - 1 };
  const from = formatLocalDate({ ...lastMonth, day: 1 });
  const to = plusDays(formatLocalDate({ year: today.year, month: today.month, day: 1 }), -1);
  const receipts = await txHost.tx.query<DemoBankReceiptRow[]>(
    DEMO_BANK_RECEIPTS_SQL,
    demoBankReceiptsParams({ tenantId: tenant.id, from, to, limit: MAX_RECEIPTS }),
  );

  const transactions: HdfcTransaction[] = [];
  let credited = new Decimal(0);
  for (const r of receipts) {
    const { narration, reference } = describe(r);
    const paper = r.payment_mode === 'CHEQUE' || r.payment_mode === 'DEMAND_DRAFT';
    const valueDate = paper ? [plusDays(r.received_date, 1), to].sort()[0] : r.received_date;
    transactions.push({ date: r.received_date, valueDate, narration, reference, credit: r.amount });
    credited = credited.plus(r.amount);
    if (r.status === 'BOUNCED') {
      const cheque = reference.slice(-6);
      transactions.push(
        {
          date: valueDate,
          narration: `CHQ RET - ${cheque} - FUNDS INSUFFICIENT`,
          reference,
          debit: r.amount,
        },
        {
          date: valueDate,
          narration: `CHQ RETURN CHGS ${cheque} + GST`,
          reference: '0'.repeat(16),
          debit: '590.00',
        },
      );
      credited = credited.minus(r.amount).minus(590);
    }
  }
  const sweep = credited.mul('0.3').toDecimalPlaces(0, Decimal.ROUND_DOWN);
  if (sweep.gt(0)) {
    transactions.push({
      date: plusDays(from, 14),
      narration: 'TRF TO SKYLINE DEVELOPERS OPERATING A/C - RERA 30% WITHDRAWAL',
      reference: '0'.repeat(16),
      debit: sweep.toFixed(2),
    });
  }
  transactions.push({
    date: to,
    narration: 'ACCOUNT MAINTENANCE CHGS + GST',
    reference: '0'.repeat(16),
    debit: '1770.00',
  });
  // The bank lists by transaction date; a stable sort keeps each day's order.
  transactions.sort((a, b) => a.date.localeCompare(b.date));
  const statement = writeHdfcStatement({
    accountNumber,
    holder: tenant.name.toUpperCase(),
    ifsc: IFSC,
    from,
    to,
    openingBalance: '2500000.00',
    transactions,
  });
  await app
    .get(StatementImportService)
    .import(
      context,
      account.id,
      Buffer.from(statement),
      { layout: 'hdfc' },
      { recordEvent: false },
    );
}
