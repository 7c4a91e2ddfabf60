import fc from 'fast-check';
import {
  BookingRecords,
  receiptPaidOn,
  splitBalances,
  splitOwesOn,
  splitsOwingOn,
  statementRecords,
} from './as-of';
import { buildLedger } from './booking-ledger';
import type { LedgerDemandRow, LedgerReceiptRow } from './ledger.sql';

const demand = (overrides: Partial<LedgerDemandRow> = {}): LedgerDemandRow => ({
  id: 'd1',
  number: 'DMD/26-27/00001',
  type: 'MILESTONE',
  date: '2026-04-01',
  dueDate: '2026-04-15',
  remarks: 'Plinth',
  milestone: null,
  cancelledOn: null,
  cancelReason: null,
  interestThrough: null,
  chargeType: 'CONSTRUCTION',
  invoiceNumber: null,
  tax: null,
  splits: [
    {
      id: 's1',
      number: 'DSP/1',
      payerType: 'BUYER',
      payerId: 'p1',
      payerName: null,
      amount: '1000.00',
      consideration: '1000.00',
      cancelled: false,
    },
  ],
  ...overrides,
});

const receipt = (overrides: Partial<LedgerReceiptRow> = {}): LedgerReceiptRow => ({
  id: 'r1',
  number: 'RCT/1',
  split: 's1',
  demand: 'd1',
  dueDate: '2026-04-15',
  payerId: 'p1',
  payerName: null,
  date: '2026-04-10',
  amount: '400.00',
  mode: 'NEFT',
  ref: 'UTR1',
  payerType: 'BUYER',
  status: 'ACTIVE',
  statusChangedOn: null,
  statusReason: null,
  ...overrides,
});

const records = (
  demands: LedgerDemandRow[],
  receipts: LedgerReceiptRow[] = [],
): BookingRecords => ({
  id: 'b1',
  booking_number: 'BKG/1',
  unit_id: 'u1',
  unit_name: null,
  buyer_name: 'Ananya Iyer',
  status: 'ACTIVE',
  cancellation: null,
  agreement_value: null,
  demands,
  receipts,
});

describe('receiptPaidOn', () => {
  it('pays from its received date, while ACTIVE or until the day it left ACTIVE', () => {
    const r = receipt({ date: '2026-04-10' });
    expect(receiptPaidOn(r, '2026-04-09')).toBe(false);
    expect(receiptPaidOn(r, '2026-04-10')).toBe(true);
    const bounced = receipt({ status: 'BOUNCED', statusChangedOn: '2026-04-20' });
    expect(receiptPaidOn(bounced, '2026-04-19')).toBe(true);
    // On the day it bounced it no longer pays.
    expect(receiptPaidOn(bounced, '2026-04-20')).toBe(false);
  });
});

describe('splitOwesOn', () => {
  it('owes from its demand date until the day its demand was cancelled', () => {
    const d = demand({ cancelledOn: '2026-05-01' });
    const cancelled = { ...d.splits[0], cancelled: true };
    expect(splitOwesOn(d, cancelled, '2026-03-31')).toBe(false);
    expect(splitOwesOn(d, cancelled, '2026-04-01')).toBe(true);
    expect(splitOwesOn(d, cancelled, '2026-04-30')).toBe(true);
    expect(splitOwesOn(d, cancelled, '2026-05-01')).toBe(false);
  });
});

describe('splitsOwingOn', () => {
  it('is what each owing split owes, with its payments by date, of one payer when asked', () => {
    const d = demand({
      splits: [
        {
          id: 's1',
          number: 'DSP/1',
          payerType: 'BUYER',
          payerId: 'p1',
          payerName: null,
          amount: '1000.00',
          consideration: '1000.00',
          cancelled: false,
        },
        {
          id: 's2',
          number: 'DSP/2',
          payerType: 'BANK',
          payerId: 'p2',
          payerName: null,
          amount: '500.00',
          consideration: '500.00',
          cancelled: false,
        },
      ],
    });
    const rs = [
      receipt({ id: 'r1', date: '2026-04-10', amount: '100.00' }),
      receipt({ id: 'r2', date: '2026-04-10', amount: '50.00' }),
      receipt({ id: 'r3', date: '2026-04-12', amount: '25.00' }),
      receipt({ id: 'r4', date: '2026-04-30', amount: '1.00' }),
    ];
    const owing = splitsOwingOn(records([d], rs), '2026-04-20');
    expect(owing.map((s) => [s.split.id, s.outstanding])).toEqual([
      ['s1', 82500n],
      ['s2', 50000n],
    ]);
    expect(owing[0].payments).toEqual([
      { date: '2026-04-10', amount: 15000n },
      { date: '2026-04-12', amount: 2500n },
    ]);
    expect(splitsOwingOn(records([d], rs), '2026-04-20', 'p2').map((s) => s.split.id)).toEqual([
      's2',
    ]);
  });
});

/** Random histories of one booking, as the records arrive from LEDGER_RECORDS_SQL. */
const day = (n: number) =>
  new Date(Date.UTC(2026, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);
const history = fc
  .array(
    fc.record({
      date: fc.integer({ min: 0, max: 200 }),
      dueIn: fc.integer({ min: 0, max: 60 }),
      cancelAfter: fc.option(fc.integer({ min: 0, max: 100 }), { nil: null }),
      amounts: fc.array(fc.integer({ min: 1, max: 10_000_000 }), { minLength: 1, maxLength: 3 }),
      receipts: fc.array(
        fc.record({
          split: fc.nat(),
          date: fc.integer({ min: 0, max: 300 }),
          paise: fc.integer({ min: 1, max: 5_000_000 }),
          leftAfter: fc.option(fc.integer({ min: 0, max: 100 }), { nil: null }),
        }),
        { maxLength: 4 },
      ),
    }),
    { maxLength: 5 },
  )
  .map((demands) => {
    const rs: LedgerReceiptRow[] = [];
    const ds = demands.map((d, i): LedgerDemandRow => {
      const id = `d${i}`;
      const cancelledOn = d.cancelAfter === null ? null : day(d.date + d.cancelAfter);
      const splits = d.amounts.map((a, j) => ({
        id: `${id}s${j}`,
        number: `DSP/${i}/${j}`,
        payerType: j === 0 ? 'BUYER' : 'BANK',
        payerId: `p${j}`,
        payerName: null,
        amount: (a / 100).toFixed(2),
        consideration: (a / 100).toFixed(2),
        cancelled: cancelledOn !== null,
      }));
      d.receipts.forEach((r, k) => {
        const split = splits[r.split % splits.length];
        // A demand is cancelled only once none of its receipts is ACTIVE: each was received and
        // left ACTIVE by the cancel's date (a booking's cancellation, which keeps them, is not
        // generated here).
        const cancelDay = d.cancelAfter === null ? null : d.date + d.cancelAfter;
        const received = cancelDay === null ? r.date : Math.min(r.date, cancelDay);
        const leftAfter =
          cancelDay === null ? r.leftAfter : Math.min(r.leftAfter ?? 0, cancelDay - received);
        rs.push(
          receipt({
            id: `${id}r${k}`,
            number: `RCT/${i}/${k}`,
            split: split.id,
            demand: id,
            dueDate: day(d.date + d.dueIn),
            payerId: split.payerId,
            date: day(received),
            amount: (r.paise / 100).toFixed(2),
            status: leftAfter === null ? 'ACTIVE' : 'CANCELLED',
            statusChangedOn: leftAfter === null ? null : day(received + leftAfter),
          }),
        );
      });
      return demand({
        id,
        number: `DMD/${i}`,
        date: day(d.date),
        dueDate: day(d.date + d.dueIn),
        cancelledOn,
        splits,
      });
    });
    return records(ds, rs);
  });

describe('the rules and the statement of account agree', () => {
  it('the statement closes at the sum of the split balances, overdue included', () => {
    fc.assert(
      fc.property(history, fc.integer({ min: 0, max: 400 }), (r, n) => {
        const asOf = day(n);
        const ledger = buildLedger(
          { buyerName: r.buyer_name, ...statementRecords(r) },
          { to: asOf, asOf },
        );
        const balances = splitBalances(r, asOf);
        const sum = balances.reduce((a, s) => a + s.balance, 0n);
        const overdue = balances
          .filter((s) => s.demand.dueDate < asOf)
          .reduce((a, s) => a + s.balance, 0n);
        expect(ledger.closingBalance).toBe(sum);
        expect(ledger.totals.overdue).toBe(overdue);
        // Where nothing was paid ahead of its demand, the owing splits are the whole balance.
        const owing = splitsOwingOn(r, asOf).reduce((a, s) => a + s.outstanding, 0n);
        const advances = balances
          .filter((s) => !splitOwesOn(s.demand, s.split, asOf))
          .reduce((a, s) => a + s.balance, 0n);
        expect(owing + advances).toBe(sum);
      }),
      { seed: 38, numRuns: 300 },
    );
  });
});
