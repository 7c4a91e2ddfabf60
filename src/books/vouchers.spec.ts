import fc from 'fast-check';
import { paiseText } from '@/common/money/paise';
import { quoteCancellation } from '@/cancellations/cancellation-quote';
import { taxOn } from '@/gst/gst-tax';
import { buildLedger, LedgerRecords } from '@/ledger/booking-ledger';
import {
  BooksSettings,
  CancelledDemandRecord,
  CreditLineRecord,
  DEFAULT_LEDGERS,
  partyLedgerName,
  Voucher,
  voucherOf,
  VoucherSourceRow,
} from './vouchers';

/**
 * The invariant of the books (contract §15.2) over random histories: for every booking, the
 * party ledger's balance from the vouchers dated up to `to` equals the statement of account's
 * closing balance at `to` (src/ledger/booking-ledger.ts), and Σ CGST (SGST) credits − debits
 * equals the invoices' − the credit notes' CGST (SGST). Histories hold taxed and untaxed demands,
 * receipts by bank, cash and TDS, bounces and cancels, §7.5 demand cancels (credit note, untaxed,
 * time-barred) and §14 cancellations (figures by the real quote, with time-barred invoices) with
 * refunds and their interest. The records are shaped as books.sql.ts's cursor reads them.
 */

const SETTINGS: BooksSettings = {
  company: 'Skyline',
  partyLedger: '{buyerName} ({bookingNumber})',
  partyGroup: 'Sundry Debtors',
  ledgers: DEFAULT_LEDGERS,
};
const BOOKING = { id: 'b-1', number: 'BK-1', buyerName: 'Ananya & Co' };
const PARTY = partyLedgerName(SETTINGS.partyLedger, {
  buyerName: BOOKING.buyerName,
  bookingNumber: BOOKING.number,
  unit: 'u',
});

const day = (n: number) => new Date(Date.UTC(2026, 0, 1 + n)).toISOString().slice(0, 10);
const later = (a: string, b: string) => (a > b ? a : b);

interface DemandPlan {
  offset: number;
  chargeType: 'CONSTRUCTION' | 'OTHER_CHARGES' | 'INTEREST';
  taxed: boolean;
  consideration: bigint;
  receipts: {
    after: number;
    /** Share of the gross, in thousandths. */
    share: number;
    mode: 'NEFT' | 'CASH' | 'TDS';
    fate: 'ACTIVE' | 'BOUNCED' | 'CANCELLED';
    fateAfter: number;
  }[];
  /** §7.5: cancel it (when no receipt is ACTIVE) this many days after its last record. */
  cancelAfter: number | null;
  timeBarred: boolean;
}

const demandPlan = fc.record({
  offset: fc.integer({ min: 0, max: 200 }),
  chargeType: fc.constantFrom(
    'CONSTRUCTION' as const,
    'OTHER_CHARGES' as const,
    'INTEREST' as const,
  ),
  taxed: fc.boolean(),
  consideration: fc.bigInt({ min: 100n, max: 5_000_000_00n }),
  receipts: fc.array(
    fc.record({
      after: fc.integer({ min: 0, max: 40 }),
      share: fc.integer({ min: 1, max: 600 }),
      mode: fc.constantFrom('NEFT' as const, 'CASH' as const, 'TDS' as const),
      fate: fc.constantFrom(
        'ACTIVE' as const,
        'ACTIVE' as const,
        'BOUNCED' as const,
        'CANCELLED' as const,
      ),
      fateAfter: fc.integer({ min: 0, max: 20 }),
    }),
    { maxLength: 3 },
  ),
  cancelAfter: fc.option(fc.integer({ min: 0, max: 30 }), { nil: null }),
  timeBarred: fc.boolean(),
});

const history = fc.record({
  demands: fc.array(demandPlan, { minLength: 1, maxLength: 5 }),
  /** §14: cancel the booking this many days after its last record (null: never). */
  cancellation: fc.option(
    fc.record({
      after: fc.integer({ min: 0, max: 30 }),
      initiatedBy: fc.constantFrom('BUYER' as const, 'PROMOTER_DEFAULT' as const),
      percent: fc.integer({ min: 0, max: 2000 }),
      barred: fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }),
      refund: fc.option(
        fc.record({
          after: fc.integer({ min: 0, max: 90 }),
          interest: fc.bigInt({ min: 0n, max: 50_000_00n }),
          mode: fc.constantFrom('NEFT', 'CASH'),
        }),
        { nil: null },
      ),
    }),
    { nil: null },
  ),
  to: fc.integer({ min: 0, max: 400 }),
});

type History = typeof history extends fc.Arbitrary<infer T> ? T : never;

/** The rows the cursor would read, the statement's records, and the documents' GST. */
function build(h: History) {
  const rows: VoucherSourceRow[] = [];
  const records: {
    demands: LedgerRecords['demands'][number][];
    receipts: LedgerRecords['receipts'][number][];
    cancellation: LedgerRecords['cancellation'];
  } = { demands: [], receipts: [], cancellation: null };
  const gst: { date: string; cgst: bigint; sgst: bigint }[] = [];
  const base = {
    booking_id: BOOKING.id,
    booking_number: BOOKING.number,
    buyer_name: BOOKING.buyerName,
    unit: 'u',
    charge_type: null,
    amount: null,
    cgst: null,
    sgst: null,
    time_barred: null,
    mode: null,
    bank_ledger: null,
    interest: null,
    paid_amount: null,
    status: null,
    particulars: null,
    lines: null,
  };
  let last = '2026-01-01';
  const live: {
    id: string;
    number: string;
    date: string;
    plan: DemandPlan;
    tax: ReturnType<typeof taxOn> | null;
    activePaid: bigint;
  }[] = [];
  h.demands.forEach((plan, i) => {
    const id = `d-${i}`;
    const number = `D-${i}`;
    const date = day(plan.offset);
    const rates =
      plan.chargeType === 'OTHER_CHARGES'
        ? { cgstBp: 900n, sgstBp: 900n, landThird: false }
        : { cgstBp: 375n, sgstBp: 375n, landThird: true };
    const tax = plan.taxed ? taxOn(plan.consideration, rates) : null;
    const gross = plan.consideration + (tax ? tax.cgst + tax.sgst : 0n);
    const invoice = tax ? `INV-${i}` : null;
    if (tax) gst.push({ date, cgst: tax.cgst, sgst: tax.sgst });
    rows.push({
      ...base,
      kind: 'SALE',
      id,
      date,
      number: invoice ?? number,
      charge_type: plan.chargeType,
      amount: paiseText(plan.consideration),
      cgst: tax ? paiseText(tax.cgst) : null,
      sgst: tax ? paiseText(tax.sgst) : null,
    });
    let activePaid = 0n;
    let remaining = gross;
    let end = date;
    plan.receipts.forEach((r, j) => {
      const amount = (gross * BigInt(r.share)) / 1000n;
      if (amount <= 0n || amount > remaining) return;
      const rid = `r-${i}-${j}`;
      const rdate = day(plan.offset + r.after);
      const changed = r.fate === 'ACTIVE' ? null : day(plan.offset + r.after + r.fateAfter);
      if (r.fate === 'ACTIVE') {
        remaining -= amount;
        activePaid += amount;
      }
      end = later(end, changed ?? rdate);
      const row = {
        ...base,
        id: rid,
        number: `R-${i}-${j}`,
        amount: paiseText(amount),
        mode: r.mode,
      };
      rows.push({ ...row, kind: 'RECEIPT', date: rdate });
      if (changed)
        rows.push({ ...row, kind: 'REVERSAL', date: later(changed, rdate), status: r.fate });
      records.receipts.push({
        id: rid,
        number: row.number,
        date: rdate,
        dueDate: date,
        amount: paiseText(amount),
        mode: r.mode,
        ref: '',
        payerType: 'BUYER',
        payerName: null,
        status: r.fate,
        statusChangedOn: changed,
        statusReason: null,
      });
    });
    last = later(last, end);
    let cancelledOn: string | null = null;
    if (plan.cancelAfter !== null && activePaid === 0n) {
      cancelledOn = day(
        Math.round((Date.parse(end) - Date.parse('2026-01-01')) / 864e5) + plan.cancelAfter,
      );
      last = later(last, cancelledOn);
      const cancelRow = {
        ...base,
        id,
        date: cancelledOn,
        number: invoice ?? number,
        charge_type: plan.chargeType,
        amount: paiseText(plan.consideration),
        cgst: tax ? paiseText(tax.cgst) : null,
        sgst: tax ? paiseText(tax.sgst) : null,
      };
      if (tax && !plan.timeBarred) {
        gst.push({ date: cancelledOn, cgst: -tax.cgst, sgst: -tax.sgst });
        const lines: CreditLineRecord[] = [
          {
            chargeType: plan.chargeType,
            consideration: paiseText(plan.consideration),
            cgst: paiseText(tax.cgst),
            sgst: paiseText(tax.sgst),
          },
        ];
        rows.push({
          ...base,
          kind: 'CREDIT_NOTE',
          id: `n-${i}`,
          date: cancelledOn,
          number: `CRN-${i}`,
          lines,
        });
      } else {
        rows.push({ ...cancelRow, kind: 'DEMAND_CANCEL', time_barred: tax !== null });
      }
    } else {
      live.push({ id, number, date, plan, tax, activePaid });
    }
    records.demands.push({
      id,
      number,
      type: 'MANUAL',
      date,
      dueDate: date,
      amount: paiseText(gross),
      remarks: '',
      milestone: null,
      cancelledOn,
      cancelReason: null,
      invoiceNumber: invoice,
      tax: paiseText(gross - plan.consideration),
    });
  });

  const c = h.cancellation;
  if (c && live.length > 0) {
    const cancelledOn = day(
      Math.round((Date.parse(last) - Date.parse('2026-01-01')) / 864e5) + c.after,
    );
    const quote = quoteCancellation({
      policy: {
        rule: 'PERCENT_OF_VALUE',
        percent: paiseText(BigInt(c.percent)),
        bands: [],
        refundDays: 45,
      },
      initiatedBy: c.initiatedBy,
      requestedOn: cancelledOn,
      allotmentDate: '2026-01-01',
      agreementValue: 10_000_000_00n,
      demands: live.map((d, i) => ({
        id: d.id,
        number: d.number,
        demandDate: d.date,
        chargeType: d.plan.chargeType,
        consideration: d.plan.consideration,
        tax: d.tax && {
          landDeduction: d.tax.landDeduction,
          taxableValue: d.tax.taxableValue,
          cgstRate: d.plan.chargeType === 'OTHER_CHARGES' ? '9' : '3.75',
          cgst: d.tax.cgst,
          sgstRate: d.plan.chargeType === 'OTHER_CHARGES' ? '9' : '3.75',
          sgst: d.tax.sgst,
        },
        timeBarred: d.tax !== null && c.barred[i],
        paidBy: [{ payerId: 'p', payerType: 'BUYER', paid: d.activePaid }],
      })),
    });
    const t = paiseText;
    const lines: CreditLineRecord[] = [];
    const demands: CancelledDemandRecord[] = quote.demands.map((q, i) => {
      const d = live[i];
      if (d.tax && !q.timeBarred) {
        const line = {
          chargeType: d.plan.chargeType,
          consideration: t(d.plan.consideration - q.retained),
          cgst: t(q.credit.cgst),
          sgst: t(q.credit.sgst),
        };
        if (d.plan.consideration - q.retained + q.credit.cgst + q.credit.sgst > 0n)
          lines.push(line);
        gst.push({ date: cancelledOn, cgst: -q.credit.cgst, sgst: -q.credit.sgst });
      }
      return {
        demandNumber: d.number,
        invoiceNumber: d.tax ? `INV-${h.demands.indexOf(d.plan)}` : null,
        chargeType: d.plan.chargeType,
        dated: d.date <= cancelledOn,
        consideration: t(d.plan.consideration),
        grossAmount: t(q.grossAmount),
        paid: t(q.paid),
        paidTax: t(q.paidTax),
        retained: t(q.retained),
        refund: t(q.refund),
        creditCgst: t(q.credit.cgst),
        creditSgst: t(q.credit.sgst),
        timeBarred: q.timeBarred,
      };
    });
    // A demand dated after the cancellation never showed: no Sales voucher either.
    for (const d of live) {
      if (d.date > cancelledOn) {
        const index = rows.findIndex((r) => r.kind === 'SALE' && r.id === d.id);
        rows.splice(index, 1);
        const taxed = gst.findIndex((g) => g.date === d.date && d.tax && g.cgst === d.tax.cgst);
        if (d.tax && taxed >= 0) gst.splice(taxed, 1);
      }
    }
    if (lines.length > 0) {
      rows.push({
        ...base,
        kind: 'CREDIT_NOTE',
        id: 'n-c',
        date: cancelledOn,
        number: 'CRN-C',
        lines,
      });
    }
    rows.push({
      ...base,
      kind: 'CANCELLATION',
      id: 'c-1',
      date: cancelledOn,
      number: '',
      lines: demands,
    });
    const refund = c.refund;
    const paidOn = refund
      ? day(Math.round((Date.parse(cancelledOn) - Date.parse('2026-01-01')) / 864e5) + refund.after)
      : null;
    const interest = refund ? refund.interest : 0n;
    if (refund && paidOn) {
      rows.push({
        ...base,
        kind: 'REFUND',
        id: 'c-1',
        date: paidOn,
        number: 'RFD-1',
        amount: t(quote.refund),
        interest: t(interest),
        paid_amount: t(quote.refund + interest),
        mode: refund.mode,
      });
    }
    records.cancellation = {
      id: 'c-1',
      cancelledOn,
      deduction: t(quote.deduction),
      taxCredited: t(quote.creditNote?.tax ?? 0n),
      creditNotes: [],
      demandIds: live.map((d) => d.id),
      refund: t(quote.refund),
      refundPaidOn: paidOn,
      interest: refund ? t(interest) : null,
      paidAmount: refund ? t(quote.refund + interest) : null,
      voucherNumber: refund ? 'RFD-1' : null,
    };
    // The statement's records: cancelled demands carry the cancellation's date.
    for (const d of records.demands) {
      if (live.some((l) => l.id === d.id)) d.cancelledOn = cancelledOn;
    }
  }
  return { rows, records, gst };
}

const sum = (vouchers: Voucher[], pick: (l: Voucher['lines'][number]) => boolean) =>
  vouchers.flatMap((v) => v.lines.filter(pick)).reduce((s, l) => s + l.amount, 0n);

describe('vouchers (pure)', () => {
  it('balances every voucher and moves each party ledger as the statement, over random histories', () => {
    fc.assert(
      fc.property(history, (h) => {
        const { rows, records, gst } = build(h);
        const to = day(h.to);
        const vouchers = rows
          .filter((r) => r.date <= to)
          .map((r) => voucherOf(r, SETTINGS))
          .filter((v): v is Voucher => v !== null);
        for (const v of vouchers) {
          expect(v.lines.reduce((s, l) => s + l.amount, 0n)).toBe(0n);
          for (const l of v.lines) expect(l.amount).not.toBe(0n);
          expect(v.documentId).toMatch(/:(SALE|RECEIPT|REVERSAL|CREDIT|WRITEOFF|REFUND)$/);
        }
        const statement = buildLedger(
          { buyerName: BOOKING.buyerName, ...records },
          { to, asOf: to },
        );
        expect(sum(vouchers, (l) => l.ledger === PARTY)).toBe(statement.closingBalance);
        const documented = gst.filter((g) => g.date <= to);
        expect(-sum(vouchers, (l) => l.ledger === SETTINGS.ledgers.cgst)).toBe(
          documented.reduce((s, g) => s + g.cgst, 0n),
        );
        expect(-sum(vouchers, (l) => l.ledger === SETTINGS.ledgers.sgst)).toBe(
          documented.reduce((s, g) => s + g.sgst, 0n),
        );
      }),
      { numRuns: 2000 },
    );
  });

  it('posts a sale, a receipt and its bounce as the contract lists them', () => {
    const base = {
      booking_id: 'b',
      booking_number: 'BK/1',
      buyer_name: 'A <B>',
      unit: 'T-1',
      charge_type: 'CONSTRUCTION',
      amount: '1000000.00',
      cgst: '25000.00',
      sgst: '25000.00',
      time_barred: null,
      mode: null,
      bank_ledger: null,
      interest: null,
      paid_amount: null,
      status: null,
      particulars: null,
      lines: null,
    };
    const sale = voucherOf(
      { ...base, kind: 'SALE', id: 'd', date: '2026-06-01', number: 'INV/26-27/00001' },
      SETTINGS,
    )!;
    expect(sale).toMatchObject({
      type: 'Sales',
      number: 'INV/26-27/00001',
      documentId: 'd:SALE',
      partyLedger: 'A <B> (BK/1)',
    });
    expect(sale.lines.map((l) => [l.ledger, l.amount])).toEqual([
      ['A <B> (BK/1)', 1050000_00n],
      ['Sales - Construction', -1000000_00n],
      ['Output CGST', -25000_00n],
      ['Output SGST', -25000_00n],
    ]);
    const receipt = {
      ...base,
      id: 'r',
      date: '2026-06-02',
      number: 'R/1',
      amount: '500.00',
      mode: 'NEFT',
      bank_ledger: 'HDFC',
    };
    expect(
      voucherOf({ ...receipt, kind: 'RECEIPT' }, SETTINGS)!.lines.map((l) => [l.ledger, l.amount]),
    ).toEqual([
      ['A <B> (BK/1)', -500_00n],
      ['HDFC', 500_00n],
    ]);
    const bounce = voucherOf({ ...receipt, kind: 'REVERSAL', status: 'BOUNCED' }, SETTINGS)!;
    expect([bounce.type, bounce.documentId]).toEqual(['Journal', 'r:REVERSAL']);
    expect(voucherOf({ ...receipt, kind: 'RECEIPT', mode: 'TDS' }, SETTINGS)!.lines[1].ledger).toBe(
      'TDS Receivable u/s 194-IA',
    );
    expect(
      voucherOf({ ...receipt, kind: 'RECEIPT', mode: 'CASH' }, SETTINGS)!.lines[1].ledger,
    ).toBe('Cash');
    expect(
      voucherOf({ ...receipt, kind: 'RECEIPT', bank_ledger: null }, SETTINGS)!.lines[1].ledger,
    ).toBe('Bank');
    // A refund of nothing is no voucher.
    expect(
      voucherOf(
        {
          ...base,
          kind: 'REFUND',
          id: 'c',
          date: '2026-06-02',
          number: '',
          amount: '0.00',
          interest: '0.00',
          paid_amount: '0.00',
        },
        SETTINGS,
      ),
    ).toBeNull();
  });
});
