import { toPaise } from '@/common/money/paise';

/**
 * The vouchers of the books (docs/returns-and-books.md, "Books"), pure: no database, no clock.
 * One voucher per business event, from one record shaped as books.sql.ts's VOUCHERS cursor
 * reads it (VoucherSourceRow) and the tenant's books settings. Every voucher balances to the
 * paisa (its lines, debits positive and credits negative, sum to 0), and a booking's party
 * ledger moves exactly as its statement of account (src/ledger/booking-ledger.ts):
 *
 * - SALE (statement DEMAND): `Sales`: party debit gross; income (by charge type) credit C; CGST
 *   and SGST credit.
 * - RECEIPT: `Receipt`: bank (the account it is realised into, else `ledgers.bank`), cash or TDS
 *   debit; party credit. REVERSAL (RECEIPT_REVERSED): `Journal`, the same lines the other way.
 * - DEMAND_CANCEL (a §7.5 cancel with no credit note): untaxed → `Credit Note` (income debit C,
 *   party credit C); time-barred → `Journal` (income debit C, GST written off debit the tax,
 *   party credit gross). CREDIT_NOTE (a credit note, §7.5 or §14): `Credit Note`, income debit
 *   each line's consideration by its ledger, CGST and SGST debit, party credit the sum.
 * - CANCELLATION (§14): `Journal` for what its credit notes do not carry: the untaxed and
 *   time-barred demands (income debit C − retained, GST written off debit tax − paidTax) and,
 *   for a taxed demand, any tax kept above the tax paid. Its party credit plus its credit
 *   notes' is the statement's CANCELLATION credit (balance before it + the refund).
 * - REFUND: `Payment`: party debit the refund, refund interest debit the interest, bank or cash
 *   credit the amount paid.
 *
 * Lines on one ledger are merged; a line of 0.00 is never written, and a voucher left with no
 * lines (a refund of nothing) is no voucher.
 */

export const VOUCHER_TYPES = ['Sales', 'Receipt', 'Journal', 'Credit Note', 'Payment'] as const;
export type VoucherType = (typeof VOUCHER_TYPES)[number];

/** The suffix of a voucher's REMOTEID / documentId: `<id>:<suffix>`. */
export type DocumentSuffix = 'SALE' | 'RECEIPT' | 'REVERSAL' | 'CREDIT' | 'WRITEOFF' | 'REFUND';

export interface BooksLedgers {
  construction: string;
  otherCharges: string;
  interest: string;
  cgst: string;
  sgst: string;
  tds: string;
  refundInterest: string;
  gstNotRecoverable: string;
  bank: string;
  cash: string;
}

export const LEDGER_KEYS = [
  'construction',
  'otherCharges',
  'interest',
  'cgst',
  'sgst',
  'tds',
  'refundInterest',
  'gstNotRecoverable',
  'bank',
  'cash',
] as const satisfies readonly (keyof BooksLedgers)[];

/** The settings as the vouchers use them (`company` resolved to the tenant's name). */
export interface BooksSettings {
  company: string;
  /** Template: `{buyerName}`, `{bookingNumber}`, `{unit}`. */
  partyLedger: string;
  partyGroup: string;
  ledgers: BooksLedgers;
}

export const DEFAULT_LEDGERS: BooksLedgers = {
  construction: 'Sales - Construction',
  otherCharges: 'Other Charges',
  interest: 'Interest on Delayed Payment',
  cgst: 'Output CGST',
  sgst: 'Output SGST',
  tds: 'TDS Receivable u/s 194-IA',
  refundInterest: 'Interest on Refunds',
  gstNotRecoverable: 'GST Written Off',
  bank: 'Bank',
  cash: 'Cash',
};
export const DEFAULT_PARTY_LEDGER = '{buyerName} ({bookingNumber})';
export const DEFAULT_PARTY_GROUP = 'Sundry Debtors';
export const PARTY_TOKENS = ['{buyerName}', '{bookingNumber}', '{unit}'] as const;

/** A line of a demand's credit note (money as two-decimal text). */
export interface CreditLineRecord {
  /** The credited invoice's demand's charge type (null: not found, read as CONSTRUCTION). */
  chargeType: string | null;
  consideration: string;
  cgst: string;
  sgst: string;
}

/** A demand of a §14 cancellation: its frozen figures (money as text) and its date's place. */
export interface CancelledDemandRecord {
  demandNumber: string;
  invoiceNumber: string | null;
  chargeType: string;
  /** Its demand date is on or before the cancellation (else the statement never showed it). */
  dated: boolean;
  consideration: string;
  grossAmount: string;
  paid: string;
  paidTax: string;
  retained: string;
  refund: string;
  creditCgst: string;
  creditSgst: string;
  timeBarred: boolean;
}

export const SOURCE_KINDS = [
  'SALE',
  'RECEIPT',
  'REVERSAL',
  'DEMAND_CANCEL',
  'CREDIT_NOTE',
  'CANCELLATION',
  'REFUND',
] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

/** One business event as the VOUCHERS cursor reads it: a flat row, money as numeric text. */
export interface VoucherSourceRow {
  kind: SourceKind;
  /** The document's id: demand, receipt, credit note or cancellation. */
  id: string;
  /** `YYYY-MM-DD`. */
  date: string;
  /** The voucher number: invoice, demand, receipt, credit note or refund number. */
  number: string;
  booking_id: string;
  booking_number: string;
  buyer_name: string;
  /** The booking's unit name, else its unit id. */
  unit: string;
  /** SALE, DEMAND_CANCEL: the demand's. */
  charge_type: string | null;
  /** SALE, DEMAND_CANCEL: C; RECEIPT, REVERSAL: the amount; REFUND: the refund. */
  amount: string | null;
  /** SALE, DEMAND_CANCEL: the demand's tax heads (null untaxed). */
  cgst: string | null;
  sgst: string | null;
  /** DEMAND_CANCEL: its invoice was past its credit window. */
  time_barred: boolean | null;
  /** RECEIPT, REVERSAL, REFUND: the payment mode. */
  mode: string | null;
  /** The bank account's name: the one a receipt is realised into, the collection account. */
  bank_ledger: string | null;
  /** REFUND. */
  interest: string | null;
  paid_amount: string | null;
  /** REVERSAL: BOUNCED or CANCELLED. */
  status: string | null;
  /** What the narration says after the document: remarks, reference, reason. */
  particulars: string | null;
  /** CREDIT_NOTE: CreditLineRecord[]; CANCELLATION: CancelledDemandRecord[]. */
  lines: CreditLineRecord[] | CancelledDemandRecord[] | null;
}

export interface VoucherLine {
  ledger: string;
  /** Paise: debit positive, credit negative; never 0. */
  amount: bigint;
  /** The booking's party ledger. */
  party: boolean;
}

export interface Voucher {
  date: string;
  type: VoucherType;
  number: string;
  /** `<id>:<SALE|RECEIPT|REVERSAL|CREDIT|WRITEOFF|REFUND>`. */
  documentId: string;
  narration: string;
  bookingId: string;
  partyLedger: string;
  lines: VoucherLine[];
}

/** The party ledger of a booking: the template with its tokens filled in. */
export function partyLedgerName(
  template: string,
  booking: { buyerName: string; bookingNumber: string; unit: string },
): string {
  return template
    .replaceAll('{buyerName}', booking.buyerName)
    .replaceAll('{bookingNumber}', booking.bookingNumber)
    .replaceAll('{unit}', booking.unit);
}

/** The income ledger of a charge type (CONSTRUCTION when unknown). */
export function incomeLedger(ledgers: BooksLedgers, chargeType: string | null): string {
  if (chargeType === 'OTHER_CHARGES') return ledgers.otherCharges;
  if (chargeType === 'INTEREST') return ledgers.interest;
  return ledgers.construction;
}

/** Where money received or paid in `mode` sits: cash, TDS, its bank account, or the bank. */
export function moneyLedger(ledgers: BooksLedgers, mode: string | null, bank: string | null) {
  if (mode === 'CASH') return ledgers.cash;
  if (mode === 'TDS') return ledgers.tds;
  return bank ?? ledgers.bank;
}

const p = (text: string | null | undefined): bigint => (text ? toPaise(text) : 0n);

/** Lines with equal ledgers merged (first place kept), zeros dropped. */
class Lines {
  private readonly byLedger = new Map<string, VoucherLine>();

  constructor(private readonly party: string) {}

  debit(ledger: string, amount: bigint): this {
    const line = this.byLedger.get(ledger);
    if (line) line.amount += amount;
    else this.byLedger.set(ledger, { ledger, amount, party: ledger === this.party });
    return this;
  }

  credit(ledger: string, amount: bigint): this {
    return this.debit(ledger, -amount);
  }

  /** The party's side: whatever balances the other lines. */
  balanceWithParty(): VoucherLine[] {
    let rest = 0n;
    for (const line of this.byLedger.values()) if (!line.party) rest += line.amount;
    const party = this.byLedger.get(this.party)?.amount ?? 0n;
    this.byLedger.delete(this.party);
    const lines = [...this.byLedger.values()];
    return [{ ledger: this.party, amount: party - rest, party: true }, ...lines].filter(
      (l) => l.amount !== 0n,
    );
  }
}

/** The voucher of one event, or null when it has no line of money. */
export function voucherOf(row: VoucherSourceRow, settings: BooksSettings): Voucher | null {
  const L = settings.ledgers;
  const party = partyLedgerName(settings.partyLedger, {
    buyerName: row.buyer_name,
    bookingNumber: row.booking_number,
    unit: row.unit,
  });
  const lines = new Lines(party);
  const extra = row.particulars?.trim() ? `: ${row.particulars.trim()}` : '';
  let type: VoucherType;
  let suffix: DocumentSuffix;
  let narration: string;
  switch (row.kind) {
    case 'SALE': {
      type = 'Sales';
      suffix = 'SALE';
      lines.credit(incomeLedger(L, row.charge_type), p(row.amount));
      lines.credit(L.cgst, p(row.cgst)).credit(L.sgst, p(row.sgst));
      narration = `Demand ${row.number}${extra}`;
      break;
    }
    case 'RECEIPT':
    case 'REVERSAL': {
      const money = moneyLedger(L, row.mode, row.bank_ledger);
      if (row.kind === 'RECEIPT') {
        type = 'Receipt';
        suffix = 'RECEIPT';
        lines.debit(money, p(row.amount));
        narration = `Receipt ${row.number}, ${row.mode ?? ''}${extra}`;
      } else {
        type = 'Journal';
        suffix = 'REVERSAL';
        lines.credit(money, p(row.amount));
        const what = row.status === 'BOUNCED' ? 'bounced' : 'cancelled';
        narration = `Receipt ${row.number} ${what}${extra}`;
      }
      break;
    }
    case 'DEMAND_CANCEL': {
      lines.debit(incomeLedger(L, row.charge_type), p(row.amount));
      if (row.time_barred) {
        type = 'Journal';
        suffix = 'WRITEOFF';
        lines.debit(L.gstNotRecoverable, p(row.cgst) + p(row.sgst));
        narration = `Demand ${row.number} cancelled, GST credit time-barred (section 34(2))${extra}`;
      } else {
        type = 'Credit Note';
        suffix = 'CREDIT';
        narration = `Demand ${row.number} cancelled${extra}`;
      }
      break;
    }
    case 'CREDIT_NOTE': {
      type = 'Credit Note';
      suffix = 'CREDIT';
      for (const line of (row.lines ?? []) as CreditLineRecord[]) {
        lines.debit(incomeLedger(L, line.chargeType), p(line.consideration));
      }
      for (const line of (row.lines ?? []) as CreditLineRecord[]) {
        lines.debit(L.cgst, p(line.cgst)).debit(L.sgst, p(line.sgst));
      }
      narration = `Credit note ${row.number}${extra}`;
      break;
    }
    case 'CANCELLATION': {
      type = 'Journal';
      suffix = 'WRITEOFF';
      const numbers: string[] = [];
      for (const d of (row.lines ?? []) as CancelledDemandRecord[]) {
        // What the statement's CANCELLATION credits for this demand.
        const share = (d.dated ? p(d.grossAmount) : 0n) - p(d.paid) + p(d.refund);
        const onNote =
          d.invoiceNumber !== null && !d.timeBarred
            ? p(d.consideration) - p(d.retained) + p(d.creditCgst) + p(d.creditSgst)
            : (d.dated ? p(d.consideration) : 0n) - p(d.retained);
        if (d.invoiceNumber === null || d.timeBarred) {
          lines.debit(incomeLedger(L, d.chargeType), onNote);
        }
        lines.debit(L.gstNotRecoverable, share - onNote);
        if (d.invoiceNumber === null || d.timeBarred || share !== onNote) {
          numbers.push(d.invoiceNumber ?? d.demandNumber);
        }
      }
      row = { ...row, number: numbers[0] ?? row.number };
      narration = `Booking ${row.booking_number} cancelled: demands ${numbers.join(', ')} written back${extra}`;
      break;
    }
    case 'REFUND': {
      type = 'Payment';
      suffix = 'REFUND';
      lines.debit(L.refundInterest, p(row.interest));
      lines.credit(moneyLedger(L, row.mode, row.bank_ledger), p(row.paid_amount));
      narration = `Refund ${row.number} on cancellation${extra}`;
      break;
    }
  }
  const built = lines.balanceWithParty();
  if (built.length === 0) return null;
  return {
    date: row.date,
    type,
    number: row.number,
    documentId: `${row.id}:${suffix}`,
    narration,
    bookingId: row.booking_id,
    partyLedger: party,
    lines: built,
  };
}
