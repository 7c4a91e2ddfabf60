import { PAYMENT_MODES } from '@/common/domain/enums';
import { DEFAULT_NUMBERING, parsePattern } from '@/numbering/number-pattern';
import { paymentStatus } from '@/receipts/payment-status';
import {
  DemoPlan,
  DemoPlanChunk,
  MAX_DEMO_RECEIPTS,
  numbersCannotCollide,
  planDemoChunks,
  planDemoTenant,
  PlanInput,
  uuid,
} from './demo-plan';

type Planned = 'booking' | 'demand' | 'demand-split' | 'receipt';

const scheme = (type: Planned, pattern?: string) => ({
  parsed: parsePattern(pattern ?? DEFAULT_NUMBERING.documents[type].pattern, type),
  prefix: DEFAULT_NUMBERING.documents[type].prefix,
  starting: 1,
});

const TODAY = '2026-11-22';

const input = (overrides: Partial<PlanInput> = {}): PlanInput => ({
  seed: 42,
  receipts: 3000,
  today: { year: 2026, month: 11, day: 22 },
  fyStartMonth: 4,
  separator: '/',
  schemes: {
    booking: scheme('booking'),
    demand: scheme('demand'),
    'demand-split': scheme('demand-split'),
    receipt: scheme('receipt'),
  },
  ...overrides,
});

/** Paise as the API stores them (numeric(18,2) text). */
const rupees = (paise: number) => (paise / 100).toFixed(2);

/** Collects broken rules (one expect per plan: 200,000 receipts stay fast to check). */
class Problems {
  readonly found: string[] = [];
  check(ok: boolean, what: () => string): void {
    if (!ok && this.found.length < 10) this.found.push(what());
  }
}

/** What a bank gives each mode (a NEFT/RTGS UTR is the remitting bank, N or R, the date, 9 digits). */
const REFERENCE_SHAPES: Record<string, RegExp> = {
  CASH: /^$/,
  NEFT: /^[A-Z]{4}N\d{17}$/,
  RTGS: /^[A-Z]{4}R\d{17}$/,
  IMPS: /^\d{12}$/,
  UPI: /^\d{12}$/,
  CARD: /^\d{12}$/,
  ONLINE: /^\d{12}$/,
  OTHER: /^\d{12}$/,
  CHEQUE: /^\d{6}$/,
  DEMAND_DRAFT: /^\d{6}$/,
  TDS: /^26QB\d{12}$/,
};

/** Every rule the API keeps, on a whole plan. */
function consistencyProblems(plan: DemoPlan): string[] {
  const p = new Problems();
  // Paid amounts are the active receipts; statuses as the API computes them; nothing overpaid.
  const active = new Map<string, number>();
  for (const r of plan.receipts) {
    p.check(Number.isInteger(r.amount) && r.amount > 0, () => `receipt ${r.number} ${r.amount}`);
    if (r.status === 'ACTIVE') active.set(r.splitId, (active.get(r.splitId) ?? 0) + r.amount);
    p.check(
      r.status !== 'BOUNCED' || ['CHEQUE', 'DEMAND_DRAFT'].includes(r.paymentMode),
      () => `bounced ${r.paymentMode}`,
    );
    p.check((r.paymentMode === 'CASH') === (r.transactionRef === ''), () => `ref of ${r.number}`);
    p.check(
      REFERENCE_SHAPES[r.paymentMode].test(r.transactionRef),
      () => `${r.paymentMode} ref ${r.transactionRef} of ${r.number}`,
    );
  }
  const perDemand = new Map<string, { total: number; paid: number }>();
  const splitIds = new Set<string>();
  for (const s of plan.splits) {
    splitIds.add(s.id);
    p.check(s.paid === (active.get(s.id) ?? 0), () => `split ${s.number} paid ${s.paid}`);
    p.check(s.paid <= s.amount, () => `split ${s.number} overpaid`);
    p.check(
      s.status === 'CANCELLED' || s.status === paymentStatus(rupees(s.amount), rupees(s.paid)),
      () => `split ${s.number} ${s.status}`,
    );
    const sum = perDemand.get(s.demandId) ?? { total: 0, paid: 0 };
    sum.total += s.amount;
    sum.paid += s.paid;
    perDemand.set(s.demandId, sum);
  }
  const demandIds = new Set<string>();
  for (const d of plan.demands) {
    demandIds.add(d.id);
    const sum = perDemand.get(d.id);
    p.check(sum?.total === d.total && sum.paid === d.received, () => `demand ${d.number} sums`);
    p.check(
      d.status === 'CANCELLED' || d.status === paymentStatus(rupees(d.total), rupees(d.received)),
      () => `demand ${d.number} ${d.status}`,
    );
  }
  // Every reference resolves; a receipt is never dated before its demand nor after today.
  const bookingIds = new Set(plan.bookings.map((b) => b.id));
  const demandDate = new Map(plan.demands.map((d) => [d.id, d.date]));
  for (const d of plan.demands)
    p.check(bookingIds.has(d.bookingId), () => `booking of ${d.number}`);
  for (const s of plan.splits) p.check(demandIds.has(s.demandId), () => `demand of ${s.number}`);
  for (const r of plan.receipts) {
    p.check(splitIds.has(r.splitId) && bookingIds.has(r.bookingId), () => `refs of ${r.number}`);
    p.check(r.date >= (demandDate.get(r.demandId) ?? '9999'), () => `${r.number} before demand`);
    p.check(r.date <= TODAY, () => `${r.number} after today`);
    // Entered within the business day it is dated (India: UTC+05:30).
    p.check(
      new Date(r.at + 5.5 * 3_600_000).toISOString().slice(0, 10) === r.date,
      () => `${r.number} entered ${new Date(r.at).toISOString()} for ${r.date}`,
    );
  }
  // One write per receipt, one per cancellation or bounce, one for the withdrawn booking; each
  // receipt carries the write that recorded it, in issue order.
  const changed = plan.receipts.filter((r) => r.status !== 'ACTIVE').length;
  p.check(plan.receiptWrites === plan.receipts.length + changed + 1, () => 'receipt writes');
  for (let i = 1; i < plan.receipts.length; i++) {
    const [before, r] = [plan.receipts[i - 1], plan.receipts[i]];
    p.check(r.write > before.write && r.at > before.at, () => `${r.number} out of order`);
  }
  return p.found;
}

/** Numbers: each series gap-free from Starting, every counter at its next value. */
function numberingProblems(plan: DemoPlan): string[] {
  const p = new Problems();
  const all = [...plan.bookings, ...plan.demands, ...plan.splits, ...plan.receipts].map(
    (d) => d.number,
  );
  const issued = plan.issued.map((i) => i.number);
  p.check(issued.length === all.length, () => `${issued.length} issued, ${all.length} documents`);
  p.check(new Set([...all, ...issued]).size === all.length, () => 'numbers not unique');
  const series = new Map<string, number[]>();
  for (const i of plan.issued) {
    const key = `${i.documentType} ${i.number.replace(/\d+$/, '')}`;
    const seqs = series.get(key) ?? [];
    seqs.push(Number(/(\d+)$/.exec(i.number)?.[1]));
    series.set(key, seqs);
  }
  p.check(plan.counters.length === series.size, () => 'one counter per series');
  for (const counter of plan.counters) {
    const key = `${counter.documentType} ${counter.counterKey.replace('{SEQ}', '')}`;
    const seqs = (series.get(key) ?? []).sort((a, b) => a - b);
    p.check(
      seqs.every((n, i) => n === i + 1),
      () => `${key} not 1..${seqs.length}`,
    );
    p.check(counter.nextValue === BigInt(seqs.length + 1), () => `${key} next value`);
  }
  return p.found;
}

describe(planDemoTenant.name, () => {
  const plan = planDemoTenant(input());

  it('is deterministic for a seed (numbers, amounts, dates)', () => {
    const again = planDemoTenant(input());
    const shape = (p: DemoPlan) =>
      p.receipts.map((r) => [r.number, r.amount, r.date, r.paymentMode, r.status]);
    expect(shape(again)).toEqual(shape(plan));
    expect(shape(planDemoTenant(input({ seed: 7 })))).not.toEqual(shape(plan));
  });

  it.each([1, 2, 7, 100, 2999, 3000, 3001, 20_000])('plans exactly %i receipts', (receipts) => {
    const sized = receipts === 3000 ? plan : planDemoTenant(input({ receipts }));
    expect(sized.receipts).toHaveLength(receipts);
    expect(consistencyProblems(sized)).toEqual([]);
    expect(numberingProblems(sized)).toEqual([]);
    // The withdrawn booking is always there, its demand and split cancelled.
    const withdrawn = sized.bookings.filter((b) => b.cancelledAt !== null);
    expect(withdrawn).toHaveLength(1);
    const ofWithdrawn = sized.demands.filter((d) => d.bookingId === withdrawn[0].id);
    expect(ofWithdrawn.map((d) => d.status)).toEqual(['CANCELLED']);
    expect(
      sized.splits.filter((sp) => sp.demandId === ofWithdrawn[0].id).map((sp) => sp.status),
    ).toEqual(['CANCELLED']);
  });

  it('refuses a size it cannot plan', () => {
    for (const receipts of [0, -1, 1.5, Number.NaN, MAX_DEMO_RECEIPTS + 1]) {
      expect(() => planDemoTenant(input({ receipts }))).toThrow(RangeError);
    }
  });

  it('has the promised variety over the 18 months up to today', () => {
    expect(new Set(plan.receipts.map((r) => r.paymentMode))).toEqual(new Set(PAYMENT_MODES));
    expect(new Set(plan.splits.map((s) => s.payerType))).toEqual(
      new Set(['BUYER', 'CO_BUYER', 'BANK']),
    );
    expect(new Set(plan.demands.map((d) => d.status))).toEqual(
      new Set(['PENDING', 'PARTIALLY_PAID', 'PAID', 'CANCELLED']),
    );
    expect(plan.receipts.filter((r) => r.status === 'CANCELLED').length).toBeGreaterThan(20);
    // The finance desk on first start: bounced cheques (some with charges), overdue demands.
    expect(plan.receipts.filter((r) => r.status === 'BOUNCED').length).toBeGreaterThan(10);
    expect(
      plan.demands.filter((d) => d.remarks.startsWith('Charges for bounced receipt')).length,
    ).toBeGreaterThan(3);
    expect(
      plan.demands.filter(
        (d) => d.dueDate < TODAY && ['PENDING', 'PARTIALLY_PAID'].includes(d.status),
      ).length,
    ).toBeGreaterThan(5);
    // From the first weeks of the period up to the last week: the dashboard opens on recent
    // receipts.
    expect(plan.receipts[0].date < '2025-05-15').toBe(true);
    expect((plan.receipts.at(-1)?.date ?? '') >= '2026-11-15').toBe(true);
    expect(plan.receipts[0].number).toBe('RCT/25-26/00001');
    // Several payers per demand, milestones in order per booking.
    expect(plan.splits.length / plan.demands.length).toBeGreaterThan(2);
    expect(plan.demands.filter((d) => d.demandType === 'MILESTONE').length).toBeGreaterThan(
      plan.demands.length / 2,
    );
  });

  it('keeps one payerId per payer of a booking: its co-buyer and bank over all its demands', () => {
    const bookingOf = new Map(plan.demands.map((d) => [d.id, d.bookingId]));
    const ids = new Map<string, Set<string>>();
    for (const sp of plan.splits) {
      const key = `${bookingOf.get(sp.demandId)} ${sp.payerType}`;
      ids.set(key, (ids.get(key) ?? new Set()).add(sp.payerId));
    }
    expect([...ids].filter(([, payers]) => payers.size > 1).map(([key]) => key)).toEqual([]);
    // Meaningful: banks and co-buyers that are asked more than once.
    const demandsOf = new Map<string, number>();
    for (const sp of plan.splits.filter((x) => x.payerType !== 'BUYER')) {
      const key = `${bookingOf.get(sp.demandId)} ${sp.payerType}`;
      demandsOf.set(key, (demandsOf.get(key) ?? 0) + 1);
    }
    expect([...demandsOf.values()].filter((n) => n > 1).length).toBeGreaterThan(10);
    // A booking's payers are distinct people.
    const perBooking = new Map<string, Set<string>>();
    for (const sp of plan.splits) {
      const b = bookingOf.get(sp.demandId) as string;
      perBooking.set(b, (perBooking.get(b) ?? new Set()).add(`${sp.payerType} ${sp.payerId}`));
    }
    for (const entries of perBooking.values()) {
      const payerIds = [...entries].map((e) => e.split(' ')[1]);
      expect(new Set(payerIds).size).toBe(payerIds.length);
    }
  });

  it('has buyers paying several instalments at once, and TDS beside instalments', () => {
    // One transfer for several dues: one receipt per split, one transactionRef, one day, one
    // booking, one payer, as POST /bookings/{id}/payments records it.
    const byRef = new Map<string, typeof plan.receipts>();
    for (const r of plan.receipts) {
      if (r.paymentMode === 'CASH') continue;
      byRef.set(r.transactionRef, [...(byRef.get(r.transactionRef) ?? []), r]);
    }
    const splitOf = new Map(plan.splits.map((s) => [s.id, s]));
    const payments = [...byRef.values()].filter((rs) => rs.length > 1);
    expect(payments.length).toBeGreaterThan(20);
    for (const rs of payments) {
      expect(new Set(rs.map((r) => r.splitId)).size).toBe(rs.length);
      expect(new Set(rs.map((r) => `${r.bookingId} ${r.date} ${r.paymentMode}`)).size).toBe(1);
      expect(new Set(rs.map((r) => splitOf.get(r.splitId)?.payerId)).size).toBe(1);
    }
    // TDS: 1 % of a buyer's split, with a 26QB acknowledgement, next to the 99 % the same day.
    const tds = plan.receipts.filter((r) => r.paymentMode === 'TDS');
    expect(tds.length).toBeGreaterThan(20);
    for (const r of tds) {
      const split = splitOf.get(r.splitId);
      expect(split?.payerType).toBe('BUYER');
      expect(r.amount).toBe(Math.round((split?.amount ?? 0) / 100));
      expect(r.transactionRef).toMatch(/^26QB\d{12}$/);
      expect(r.status).toBe('ACTIVE');
      const rest = plan.receipts.filter(
        (o) => o.splitId === r.splitId && o.date === r.date && o.paymentMode !== 'TDS',
      );
      expect(rest.map((o) => o.amount)).toContain((split?.amount ?? 0) - r.amount);
    }
  });

  it('plans 200,000 receipts exactly, denser rather than longer, with the same rules', () => {
    const big = planDemoTenant(input({ receipts: 200_000 }));
    expect(big.receipts).toHaveLength(200_000);
    expect(consistencyProblems(big)).toEqual([]);
    expect(numberingProblems(big)).toEqual([]);
    // Same 18 months, so more bookings, demands and payers a day than at 3,000.
    expect(big.receipts[0].date < '2025-05-15').toBe(true);
    expect(big.receipts.at(-1)?.date).toBe(TODAY);
    expect(big.bookings.length).toBeGreaterThan(plan.bookings.length * 30);
    // Every booking's buyer, and co-buyers and banks besides (one id each per booking).
    expect(new Set(big.splits.map((s) => s.payerId)).size).toBeGreaterThan(
      big.bookings.length * 1.5,
    );
    expect(new Set(big.receipts.map((r) => r.paymentMode))).toEqual(new Set(PAYMENT_MODES));
    expect(new Set(big.demands.map((d) => d.status))).toEqual(
      new Set(['PENDING', 'PARTIALLY_PAID', 'PAID', 'CANCELLED']),
    );
    const share = (status: string) =>
      big.receipts.filter((r) => r.status === status).length / big.receipts.length;
    expect(share('CANCELLED')).toBeGreaterThan(0.01);
    expect(share('BOUNCED')).toBeGreaterThan(0.005);
    // Per financial year, as the allocator numbers them: FY 25-26 and 26-27 both start at 1.
    expect(big.receipts.find((r) => r.date >= '2026-04-01')?.number).toBe('RCT/26-27/00001');
    // Receipts per business day: busy weekdays, quiet Sundays, none beyond what was asked.
    const perDay = new Map<string, number>();
    for (const r of big.receipts) perDay.set(r.date, (perDay.get(r.date) ?? 0) + 1);
    const sundays = [...perDay].filter(([d]) => new Date(`${d}T00:00:00Z`).getUTCDay() === 0);
    const weekdays = [...perDay].filter(([d]) => new Date(`${d}T00:00:00Z`).getUTCDay() === 3);
    const mean = (xs: [string, number][]) => xs.reduce((a, [, n]) => a + n, 0) / xs.length;
    expect(mean(sundays)).toBeLessThan(mean(weekdays) / 2);
  });

  it('hands out chunks that refer only to rows already handed out', () => {
    const p = new Problems();
    const seen = { bookings: new Set<string>(), demands: new Set<string>(), splits: new Set() };
    const chunks = planDemoChunks(input({ receipts: 25_000 }), 4000);
    const sizes: number[] = [];
    for (;;) {
      const next = chunks.next();
      if (next.done) {
        expect(next.value.receipts).toBe(25_000);
        break;
      }
      const chunk: DemoPlanChunk = next.value;
      sizes.push(chunk.receipts.length);
      for (const b of chunk.bookings) seen.bookings.add(b.id);
      for (const d of chunk.demands) {
        p.check(seen.bookings.has(d.bookingId), () => `booking of ${d.number} not out yet`);
        seen.demands.add(d.id);
      }
      for (const s of chunk.splits) {
        p.check(seen.demands.has(s.demandId), () => `demand of ${s.number} not out yet`);
        seen.splits.add(s.id);
      }
      for (const r of chunk.receipts) {
        p.check(
          seen.splits.has(r.splitId) &&
            seen.demands.has(r.demandId) &&
            seen.bookings.has(r.bookingId),
          () => `rows of ${r.number} not out yet`,
        );
      }
    }
    expect(p.found).toEqual([]);
    expect(sizes).toEqual([4000, 4000, 4000, 4000, 4000, 4000, 1000]);
  });

  it('follows the tenant scheme: Starting, date tokens, {PARENT}', () => {
    const custom = planDemoTenant(
      input({
        receipts: 200,
        separator: '-',
        schemes: {
          booking: scheme('booking'),
          demand: scheme('demand'),
          'demand-split': scheme('demand-split', '{PARENT}{SEP}{SEQ:2}'),
          receipt: { ...scheme('receipt', '{PREFIX}{SEP}{YYYY}{SEP}{SEQ:4}'), starting: 100 },
        },
      }),
    );
    expect(custom.receipts).toHaveLength(200);
    expect(custom.receipts[0].number).toBe(`RCT-${custom.receipts[0].date.slice(0, 4)}-0100`);
    const demand = custom.demands[0];
    const splits = custom.splits.filter((s) => s.demandId === demand.id).map((s) => s.number);
    expect(splits).toEqual(
      splits.map((_, i) => `${demand.number}-${String(i + 1).padStart(2, '0')}`),
    );
  });

  it('steps over a number another counter already issued, as the allocator does', () => {
    // BKG-1's 11th demand and BKG-11's 1st are both BKG-111: the later one takes BKG-112.
    const schemes = {
      booking: scheme('booking', '{PREFIX}{SEP}{SEQ}'),
      demand: scheme('demand', '{PARENT}{SEQ}'),
      'demand-split': scheme('demand-split'),
      receipt: scheme('receipt'),
    };
    expect(numbersCannotCollide(schemes.demand, '-')).toBe(false);
    expect(numbersCannotCollide(schemes.booking, '-')).toBe(true);
    expect(numbersCannotCollide(schemes.receipt, '/')).toBe(true);
    expect(numbersCannotCollide(scheme('receipt', '{PREFIX}{SEP}{SEQ}{SEP}{FY}'), '/')).toBe(false);
    expect(numbersCannotCollide(scheme('receipt', '{PREFIX}{YY}{SEQ:5}'), '/')).toBe(false);
    expect(numbersCannotCollide({ ...scheme('receipt', '{PREFIX}{SEQ}'), prefix: 'R1' }, '/')).toBe(
      false,
    );
    expect(numbersCannotCollide(scheme('receipt', '{SEQ}'), '/')).toBe(true);
    const plan = planDemoTenant(input({ receipts: 3000, separator: '-', schemes }));
    const numbers = plan.demands.map((d) => d.number);
    expect(new Set(numbers).size).toBe(numbers.length);
    const issued = plan.counters.filter((c) => c.documentType === 'demand');
    const steppedOver = issued.filter((c) => {
      const parent = c.counterKey.replace('{SEQ}', '');
      const own = plan.demands.filter((d) => {
        const booking = plan.bookings.find((b) => b.id === d.bookingId);
        return booking?.number === parent;
      }).length;
      return c.nextValue > BigInt(own + 1);
    });
    expect(steppedOver.length).toBeGreaterThan(0);
  });

  it('gives every row a random version 4 UUID', () => {
    const ids = Array.from({ length: 5000 }, () => uuid());
    expect(new Set(ids).size).toBe(ids.length);
    expect(
      ids.every((id) =>
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(id),
      ),
    ).toBe(true);
  });
});
