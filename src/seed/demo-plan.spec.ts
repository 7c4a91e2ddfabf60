import Decimal from 'decimal.js';
import { PAYMENT_MODES } from '@/common/domain/enums';
import { DEFAULT_NUMBERING, parsePattern } from '@/numbering/number-pattern';
import { paymentStatus } from '@/receipts/payment-status';
import { planDemoTenant, PlanInput } from './demo-plan';

const scheme = (type: 'booking' | 'demand' | 'demand-split' | 'receipt', pattern?: string) => ({
  parsed: parsePattern(pattern ?? DEFAULT_NUMBERING.documents[type].pattern, type),
  prefix: DEFAULT_NUMBERING.documents[type].prefix,
  starting: 1,
});

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

describe(planDemoTenant.name, () => {
  const plan = planDemoTenant(input());

  it('is deterministic for a seed (numbers, amounts, dates)', () => {
    const again = planDemoTenant(input());
    const shape = (p: typeof plan) =>
      p.receipts.map((r) => [r.number, r.amount.toFixed(2), r.date, r.paymentMode]);
    expect(shape(again)).toEqual(shape(plan));
    expect(shape(planDemoTenant(input({ seed: 7 })))).not.toEqual(shape(plan));
  });

  it('has the promised volume and variety', () => {
    // Up to the target, over the 18 months up to today.
    expect(plan.receipts.length).toBeGreaterThan(2900);
    expect(plan.receipts.length).toBeLessThanOrEqual(3000);
    expect(new Set(plan.receipts.map((r) => r.paymentMode))).toEqual(new Set(PAYMENT_MODES));
    expect(new Set(plan.splits.map((s) => s.payerType))).toEqual(
      new Set(['BUYER', 'CO_BUYER', 'BANK']),
    );
    expect(new Set(plan.demands.map((d) => d.status))).toEqual(
      new Set(['PENDING', 'PARTIALLY_PAID', 'PAID', 'CANCELLED']),
    );
    expect(plan.receipts.filter((r) => r.status === 'CANCELLED').length).toBeGreaterThan(20);
    // The finance desk on first start: bounced cheques (some with charges), a withdrawn
    // booking, overdue demands.
    const bounced = plan.receipts.filter((r) => r.status === 'BOUNCED');
    expect(bounced.length).toBeGreaterThan(10);
    expect(bounced.every((r) => ['CHEQUE', 'DEMAND_DRAFT'].includes(r.paymentMode))).toBe(true);
    expect(
      plan.demands.filter((d) => d.remarks.startsWith('Charges for bounced receipt')).length,
    ).toBeGreaterThan(3);
    const withdrawn = plan.bookings.filter((b) => b.cancelledAt);
    expect(withdrawn).toHaveLength(1);
    const ofWithdrawn = plan.demands.filter((d) => d.bookingId === withdrawn[0].id);
    expect(ofWithdrawn.map((d) => d.status)).toEqual(['CANCELLED']);
    expect(
      plan.splits.filter((sp) => sp.demandId === ofWithdrawn[0].id).map((sp) => sp.status),
    ).toEqual(['CANCELLED']);
    expect(
      plan.demands.filter(
        (d) => d.dueDate < '2026-11-22' && ['PENDING', 'PARTIALLY_PAID'].includes(d.status),
      ).length,
    ).toBeGreaterThan(5);
    // Up to the last week: the dashboard opens on recent receipts.
    expect((plan.receipts.at(-1)?.date ?? '') >= '2026-11-15').toBe(true);
  });

  it('never overpays: paid amounts are the active receipts, statuses as the API computes them', () => {
    const active = new Map<string, Decimal>();
    for (const r of plan.receipts) {
      if (r.status === 'ACTIVE')
        active.set(r.splitId, (active.get(r.splitId) ?? new Decimal(0)).plus(r.amount));
      expect(r.amount.gt(0)).toBe(true);
    }
    const bySplitDemand = new Map<string, Decimal[]>();
    for (const s of plan.splits) {
      expect(s.paid.eq(active.get(s.id) ?? 0)).toBe(true);
      expect(s.paid.lte(s.amount)).toBe(true);
      if (s.status !== 'CANCELLED') expect(s.status).toBe(paymentStatus(s.amount, s.paid));
      bySplitDemand.set(s.demandId, [...(bySplitDemand.get(s.demandId) ?? []), s.amount, s.paid]);
    }
    for (const d of plan.demands) {
      const parts = bySplitDemand.get(d.id) ?? [];
      const total = parts.filter((_, i) => i % 2 === 0).reduce((a, b) => a.plus(b), new Decimal(0));
      const paid = parts.filter((_, i) => i % 2 === 1).reduce((a, b) => a.plus(b), new Decimal(0));
      expect(total.eq(d.total)).toBe(true);
      expect(paid.eq(d.received)).toBe(true);
      if (d.status !== 'CANCELLED') expect(d.status).toBe(paymentStatus(d.total, d.received));
    }
    expect(plan.receiptWrites).toBe(
      plan.receipts.length + plan.receipts.filter((r) => r.status !== 'ACTIVE').length + 1,
    );
  });

  it('issues each series gap-free from Starting and leaves every counter at its next value', () => {
    const all = [...plan.bookings, ...plan.demands, ...plan.splits, ...plan.receipts].map(
      (d) => d.number,
    );
    expect(plan.issued.map((i) => i.number).sort()).toEqual([...all].sort());
    for (const counter of plan.counters) {
      const prefix = counter.counterKey.replace('{SEQ}', '');
      const seqs = plan.issued
        .filter((i) => i.documentType === counter.documentType && i.number.startsWith(prefix))
        .map((i) => Number(i.number.slice(prefix.length)))
        .sort((a, b) => a - b);
      expect(seqs).toEqual(seqs.map((_, i) => i + 1));
      expect(counter.nextValue).toBe(BigInt(seqs.length + 1));
    }
    expect(plan.receipts[0].number).toMatch(/^RCT\/25-26\/00001$/);
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
    expect(custom.receipts[0].number).toBe(`RCT-${custom.receipts[0].date.slice(0, 4)}-0100`);
    const demand = custom.demands[0];
    const splits = custom.splits.filter((s) => s.demandId === demand.id).map((s) => s.number);
    expect(splits).toEqual(
      splits.map((_, i) => `${demand.number}-${String(i + 1).padStart(2, '0')}`),
    );
  });
});
