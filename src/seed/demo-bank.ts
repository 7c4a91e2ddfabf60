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

/** What the bank writes for a payment: the narration and the reference column, per mode. */
interface Credit {
  narration: string;
  reference: string;
}

/**
 * The bank's narration and reference column for a payment, as HDFC writes them per mode. With
 * `withReference` false the bank dropped the payer's reference (a UPI collect with the bank's own
 * RRN, a cheque credited without its MICR number), so only amount and date can pair it.
 */
function describe(r: DemoBankReceiptRow, withReference: boolean): Credit {
  const ref = r.transaction_ref;
  const name = r.payer_type === 'BANK' ? 'LIC HOUSING FINANCE LTD' : r.buyer_name.toUpperCase();
  const handle = name.split(' ')[0].toLowerCase();
  const zeros = '0'.repeat(16);
  switch (r.payment_mode) {
    case 'NEFT':
    case 'RTGS': {
      const head = `${r.payment_mode} CR-${ref.slice(0, 4)}0001234-${name}-SKYLINE DEVELOPERS`;
      return withReference
        ? { narration: `${head}-${ref}`, reference: ref }
        : { narration: head, reference: zeros };
    }
    case 'UPI':
      return withReference
        ? {
            narration: `UPI-${name}-${handle}@okhdfcbank-HDFC0000123-${ref}-PAYMENT`,
            reference: ref.padStart(16, '0'),
          }
        : { narration: `UPI-${name}-${handle}@okhdfcbank-HDFC0000123-PAYMENT`, reference: zeros };
    case 'IMPS':
      return withReference
        ? { narration: `IMPS-${ref}-${name}-SBIN-XXXXXXXX1234`, reference: ref.padStart(16, '0') }
        : { narration: `IMPS-${name}-SBIN-XXXXXXXX1234`, reference: zeros };
    case 'CHEQUE':
    case 'DEMAND_DRAFT': {
      const kind = r.payment_mode === 'CHEQUE' ? 'CHQ' : 'DD';
      return withReference
        ? {
            narration: `${kind} DEP - MICR CTS - MUMBAI CLEARING - ${ref}`,
            reference: ref.padStart(16, '0'),
          }
        : { narration: `${kind} DEP - MUMBAI CLEARING - ${name}`, reference: zeros };
    }
    default:
      return withReference
        ? { narration: `PG SETTLEMENT-RAZORPAY-${name}`, reference: ref.padStart(16, '0') }
        : { narration: `PG SETTLEMENT-RAZORPAY-${name}`, reference: zeros };
  }
}

/** One credit on the statement: one receipt, or the receipts of one transfer (one reference). */
interface Deposit {
  receipts: DemoBankReceiptRow[];
  amount: Decimal;
}

/**
 * The month's receipts as the bank credits them: a transfer that paid several dues (one
 * `transactionRef`, section 10.4) is one credit for their sum; every other receipt its own.
 */
function depositsOf(receipts: readonly DemoBankReceiptRow[]): Deposit[] {
  const deposits: Deposit[] = [];
  const transfers = new Map<string, Deposit>();
  for (const r of receipts) {
    const key = `${r.received_date}|${r.payment_mode}|${r.transaction_ref}`;
    const shared = ['NEFT', 'RTGS', 'IMPS'].includes(r.payment_mode) && transfers.get(key);
    if (shared) {
      shared.receipts.push(r);
      shared.amount = shared.amount.plus(r.amount);
      continue;
    }
    const deposit = { receipts: [r], amount: new Decimal(r.amount) };
    transfers.set(key, deposit);
    deposits.push(deposit);
  }
  return deposits;
}

/**
 * The demo tenant's bank: an HDFC collections account and last month's statement, as HDFC's
 * CSV export writes it, imported through the import itself, so its lines are what an import
 * makes and its matching is what matching does (docs/bank.md): most credits carry the payer's
 * reference and are matched (a transfer for several dues as one `GROUP` credit), one in ten lost
 * it and is suggested by amount and date, a few credits no receipt explains stay unmatched, and
 * one realised cheque comes back returned, suggested as its `RETURN`. Debits are a transfer out,
 * the charges, and the returns. Runs in the seed's transaction, under the tenant's row-level
 * security; writes no events (the seed writes none).
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
  const deposits = depositsOf(receipts.filter((r) => r.status === 'ACTIVE'));
  // The last cheque credited as one receipt comes back unpaid: the desk sees a RETURN suggestion.
  const returned = deposits.findLast(
    (d) => d.receipts.length === 1 && d.receipts[0].payment_mode === 'CHEQUE',
  );
  deposits.forEach((deposit, i) => {
    const [first] = deposit.receipts;
    // One credit in ten (of one receipt, not the returned cheque) lost its reference on the way.
    const withReference = deposit.receipts.length > 1 || deposit === returned || i % 10 !== 7;
    const paper = first.payment_mode === 'CHEQUE' || first.payment_mode === 'DEMAND_DRAFT';
    const valueDate = paper
      ? [plusDays(first.received_date, 1), to].sort()[0]
      : first.received_date;
    transactions.push({
      date: first.received_date,
      valueDate,
      ...describe(first, withReference),
      credit: deposit.amount.toFixed(2),
    });
    credited = credited.plus(deposit.amount);
  });
  if (returned) {
    const cheque = returned.receipts[0].transaction_ref;
    const on = [plusDays(returned.receipts[0].received_date, 3), to].sort()[0];
    transactions.push(
      {
        date: on,
        narration: `CHQ RET - ${cheque} - FUNDS INSUFFICIENT`,
        reference: cheque.padStart(16, '0'),
        debit: returned.amount.toFixed(2),
      },
      {
        date: on,
        narration: `CHQ RETURN CHGS ${cheque} + GST`,
        reference: '0'.repeat(16),
        debit: '590.00',
      },
    );
    credited = credited.minus(returned.amount).minus(590);
  }
  // Cheques the desk already bounced were returned unpaid in clearing, never credited: the
  // statement has only the charges.
  for (const r of receipts.filter((x) => x.status === 'BOUNCED')) {
    transactions.push({
      date: [plusDays(r.received_date, 2), to].sort()[0],
      narration: `CHQ RETURN CHGS ${r.transaction_ref} + GST`,
      reference: '0'.repeat(16),
      debit: '590.00',
    });
    credited = credited.minus(590);
  }
  // Money no receipt explains yet: a vendor's refund, a token paid before the booking is
  // entered, and the bank's interest (to ignore).
  const seed = BigInt(`0x${digest.slice(12, 24)}`)
    .toString()
    .padStart(12, '0');
  const unknown: HdfcTransaction[] = [
    {
      date: plusDays(from, 9),
      narration: `NEFT CR-ICIC0000104-SUNRISE INTERIORS PVT LTD-SKYLINE DEVELOPERS-ICICN${from.replace(/-/g, '')}${seed.slice(-9)}`,
      reference: `ICICN${from.replace(/-/g, '')}${seed.slice(-9)}`,
      credit: '48500.00',
    },
    {
      date: plusDays(from, 17),
      narration: `UPI-RAHUL MEHTA-rahulm@oksbi-SBIN0000456-${seed.slice(-12)}-BOOKING TOKEN`,
      reference: seed.slice(-12).padStart(16, '0'),
      credit: '25001.00',
    },
    {
      date: to,
      narration: 'CREDIT INTEREST CAPITALISED',
      reference: '0'.repeat(16),
      credit: '3412.00',
    },
  ];
  transactions.push(...unknown);
  credited = credited.plus(48500 + 25001 + 3412);
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
