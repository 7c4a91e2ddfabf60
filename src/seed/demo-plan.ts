import { randomUUID } from 'node:crypto';
import Decimal from 'decimal.js';
import { DemandStatus, PAYMENT_MODES, PaymentMode, PayerType } from '@/common/domain/enums';
import { counterKey, DocumentType, ParsedPattern, renderNumber } from '@/numbering/number-pattern';
import { formatLocalDate, LocalDate, parseLocalDate } from '@/common/dates/local-date';
import { applyPayment } from '@/receipts/payment-status';
import { FIRST_NAMES, LAST_NAMES } from './indian-names';

/**
 * The demo history of one tenant, planned in memory (pure: no database) so it can be written with
 * one set-based INSERT per table. It follows the same rules as the API: numbers come from the
 * tenant's numbering scheme in date order (what the allocator would have issued), receipts never
 * exceed a split's pending amount, and statuses are recomputed with the API's `applyPayment`.
 */

const MILESTONES = [
  'Booking amount',
  'On agreement',
  'Foundation',
  'Plinth',
  '1st slab',
  '3rd slab',
  '5th slab',
  'Brickwork',
  'Plastering',
  'Flooring',
  'Possession',
];

/** One document type's numbering as the allocator resolves it (active config or defaults). */
export interface PlanScheme {
  parsed: ParsedPattern;
  prefix: string;
  starting: number;
}

export interface PlanInput {
  seed: number;
  receipts: number;
  today: LocalDate;
  fyStartMonth: number;
  separator: string;
  schemes: Record<Exclude<DocumentType, 'snag'>, PlanScheme>;
}

export interface PlannedBooking {
  id: string;
  number: string;
  unitId: string;
  buyerName: string;
  buyerId: string;
  date: string;
  at: Date;
  /** Set when the buyer withdrew: the booking, its demands and splits are CANCELLED. */
  cancelledAt: Date | null;
  cancelReason: string | null;
}

export interface PlannedDemand {
  id: string;
  bookingId: string;
  unitId: string;
  buyerName: string;
  milestoneId: string | null;
  demandType: 'MANUAL' | 'MILESTONE';
  number: string;
  total: Decimal;
  received: Decimal;
  status: DemandStatus;
  dueDate: string;
  date: string;
  remarks: string;
  at: Date;
  modifiedAt: Date;
  cancelledAt: Date | null;
  cancelReason: string | null;
}

export interface PlannedSplit {
  id: string;
  demandId: string;
  payerType: PayerType;
  payerId: string;
  number: string;
  amount: Decimal;
  paid: Decimal;
  status: DemandStatus;
  at: Date;
  modifiedAt: Date;
}

export interface PlannedReceipt {
  id: string;
  splitId: string;
  demandId: string;
  bookingId: string;
  payerType: PayerType;
  number: string;
  amount: Decimal;
  paymentMode: PaymentMode;
  transactionRef: string;
  date: string;
  at: Date;
  status: 'ACTIVE' | 'CANCELLED' | 'BOUNCED';
  /** Why, when (instant and business date) it left ACTIVE; null while ACTIVE. */
  statusReason: string | null;
  statusChangedAt: Date | null;
  statusChangedOn: string | null;
}

export interface DemoPlan {
  bookings: PlannedBooking[];
  demands: PlannedDemand[];
  splits: PlannedSplit[];
  receipts: PlannedReceipt[];
  /** Every number issued, per document type. */
  issued: { documentType: DocumentType; number: string }[];
  /** The counters as the allocator leaves them: next value to issue per key. */
  counters: { documentType: DocumentType; counterKey: string; nextValue: bigint }[];
  /** Receipt writes (records, cancellations, bounces, demand cancels): the search version. */
  receiptWrites: number;
}

/** Deterministic PRNG so every fresh start produces the same demo history. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Issues numbers like NumberingService: per counter key, from Starting, stepping over taken ones. */
class Numbers {
  private readonly next = new Map<string, { type: DocumentType; key: string; value: bigint }>();
  private readonly taken = new Set<string>();
  readonly issued: DemoPlan['issued'] = [];

  constructor(
    private readonly input: PlanInput,
    private readonly schemes: PlanInput['schemes'],
  ) {}

  issue(type: Exclude<DocumentType, 'snag'>, date: string, parent?: string): string {
    const scheme = this.schemes[type];
    const ctx = {
      prefix: scheme.prefix,
      separator: this.input.separator,
      date: parseLocalDate(date),
      fyStartMonth: this.input.fyStartMonth,
      parent,
    };
    const key = counterKey(scheme.parsed, ctx);
    const id = `${type}\u0000${key}`;
    const counter = this.next.get(id) ?? { type, key, value: BigInt(scheme.starting) };
    this.next.set(id, counter);
    for (;;) {
      const number = renderNumber(scheme.parsed, ctx, counter.value);
      counter.value += 1n;
      if (!this.taken.has(`${type}\u0000${number}`)) {
        this.taken.add(`${type}\u0000${number}`);
        this.issued.push({ documentType: type, number });
        return number;
      }
    }
  }

  counters(): DemoPlan['counters'] {
    return [...this.next.values()].map((c) => ({
      documentType: c.type,
      counterKey: c.key,
      nextValue: c.value,
    }));
  }
}

export function planDemoTenant(input: PlanInput): DemoPlan {
  const random = mulberry32(input.seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const numbers = new Numbers(input, input.schemes);
  const { today } = input;
  const start = Date.UTC(today.year, today.month - 1 - 18, 1);
  const days = Math.floor((Date.UTC(today.year, today.month - 1, today.day) - start) / 86_400_000);
  const dateAt = (day: number) => {
    const d = new Date(start + day * 86_400_000);
    return formatLocalDate({
      year: d.getUTCFullYear(),
      month: d.getUTCMonth() + 1,
      day: d.getUTCDate(),
    });
  };
  // Office hours in India (from 09:30 IST = 04:00 UTC), one entry a minute, in issue order.
  let entriesToday = 0;
  const entryTime = (day: number) =>
    new Date(start + day * 86_400_000 + 4 * 3_600_000 + entriesToday++ * 60_000);

  const plan: DemoPlan = {
    bookings: [],
    demands: [],
    splits: [],
    receipts: [],
    issued: numbers.issued,
    counters: [],
    receiptWrites: 0,
  };
  const units: { booking: PlannedBooking; price: Decimal; nextMilestone: number }[] = [];
  const demandsById = new Map<string, PlannedDemand>();
  const open: PlannedSplit[] = [];
  const receiptsPerDay = Math.max(1, input.receipts / days);

  let lastDay = 0;
  for (let day = 0; day <= days && plan.receipts.length < input.receipts; day++) {
    lastDay = day;
    const date = dateAt(day);
    entriesToday = 0;
    // New bookings, mostly early on.
    if (random() < (units.length < 40 ? 0.9 : 0.25)) {
      const booking: PlannedBooking = {
        id: randomUUID(),
        number: numbers.issue('booking', date),
        unitId: randomUUID(),
        buyerName: `${pick(FIRST_NAMES)} ${pick(LAST_NAMES)}`,
        buyerId: randomUUID(),
        date,
        at: entryTime(day),
        cancelledAt: null,
        cancelReason: null,
      };
      plan.bookings.push(booking);
      const lakhs = 40 + Math.floor(random() * 460); // 40 L to 5 Cr
      units.push({ booking, price: new Decimal(lakhs).times(100_000), nextMilestone: 0 });
    }
    // Demands raised against milestones (up to two a day).
    for (let k = 0; k < 2 && units.length > 0 && open.length < receiptsPerDay * 25; k++) {
      const unit = pick(units);
      if (unit.nextMilestone >= MILESTONES.length) continue;
      const first = unit.nextMilestone === 0;
      const total = unit.price.times(first ? 0.1 : 0.09).toDecimalPlaces(2);
      const payers: [PayerType, number][] =
        random() < 0.5
          ? [
              ['BUYER', 0.2],
              ['BANK', 0.8],
            ]
          : random() < 0.5
            ? [
                ['BUYER', 0.6],
                ['CO_BUYER', 0.4],
              ]
            : [
                ['BUYER', 0.3],
                ['CO_BUYER', 0.2],
                ['BANK', 0.5],
              ];
      const at = entryTime(day);
      const demand: PlannedDemand = {
        id: randomUUID(),
        bookingId: unit.booking.id,
        unitId: unit.booking.unitId,
        buyerName: unit.booking.buyerName,
        milestoneId: first ? null : randomUUID(),
        demandType: first ? 'MANUAL' : 'MILESTONE',
        number: numbers.issue('demand', date, unit.booking.number),
        total,
        received: new Decimal(0),
        status: 'PENDING',
        dueDate: dateAt(Math.min(days, day + 15 + Math.floor(random() * 30))),
        date,
        remarks: `${MILESTONES[unit.nextMilestone]} - ${first ? 'booking' : 'construction-linked'} instalment`,
        at,
        modifiedAt: at,
        cancelledAt: null,
        cancelReason: null,
      };
      plan.demands.push(demand);
      demandsById.set(demand.id, demand);
      let rest = total;
      payers.forEach(([payerType, part], i) => {
        const amount = i === payers.length - 1 ? rest : total.times(part).toDecimalPlaces(2);
        rest = rest.minus(amount);
        const split: PlannedSplit = {
          id: randomUUID(),
          demandId: demand.id,
          payerType,
          payerId: payerType === 'BUYER' ? unit.booking.buyerId : randomUUID(),
          number: numbers.issue('demand-split', date, demand.number),
          amount,
          paid: new Decimal(0),
          status: 'PENDING',
          at,
          modifiedAt: at,
        };
        plan.splits.push(split);
        open.push(split);
      });
      unit.nextMilestone++;
    }
    // Payments received today.
    const todays = Math.floor(receiptsPerDay) + (random() < receiptsPerDay % 1 ? 1 : 0);
    for (let i = 0; i < todays && open.length > 0 && plan.receipts.length < input.receipts; i++) {
      const index = Math.floor(random() * open.length);
      const split = open[index];
      const demand = demandsById.get(split.demandId) as PlannedDemand;
      const pending = split.amount.minus(split.paid);
      const full = random() < 0.55 || pending.lessThan(10_000);
      const amount = full
        ? pending
        : pending.times(0.2 + random() * 0.5).toDecimalPlaces(random() < 0.3 ? 2 : 0);
      const mode: PaymentMode =
        split.payerType === 'BANK' ? pick(['NEFT', 'RTGS'] as const) : pick(PAYMENT_MODES);
      const at = entryTime(day);
      const receipt: PlannedReceipt = {
        id: randomUUID(),
        splitId: split.id,
        demandId: demand.id,
        bookingId: demand.bookingId,
        payerType: split.payerType,
        number: numbers.issue('receipt', date),
        amount,
        paymentMode: mode,
        transactionRef:
          mode === 'CASH'
            ? ''
            : `${mode === 'CHEQUE' ? 'CHQ' : 'UTR'}${Math.floor(random() * 1e12)
                .toString()
                .padStart(12, '0')}`,
        date,
        at,
        status: 'ACTIVE',
        statusReason: null,
        statusChangedAt: null,
        statusChangedOn: null,
      };
      plan.receipts.push(receipt);
      plan.receiptWrites++;
      pay(split, demand, amount, at);
      // A few cheques and drafts bounce (some with charges raised as a demand), and a few
      // receipts are entered by mistake and cancelled, the same day.
      const paper = mode === 'CHEQUE' || mode === 'DEMAND_DRAFT';
      if (random() < (paper ? 0.08 : 0.02)) {
        const changedAt = new Date(at.getTime() + 3 * 3_600_000);
        receipt.status = paper ? 'BOUNCED' : 'CANCELLED';
        receipt.statusReason = paper ? 'Insufficient funds' : 'Entered against the wrong unit';
        receipt.statusChangedAt = changedAt;
        receipt.statusChangedOn = date;
        plan.receiptWrites++;
        pay(split, demand, amount.negated(), changedAt);
        if (paper && random() < 0.5) {
          chargesDemand(demand, split, receipt, new Decimal(590), date, entryTime(day));
        }
      }
      if (split.paid.eq(split.amount)) open.splice(index, 1);
    }
  }
  withdrawnBooking(lastDay);
  plan.counters = numbers.counters();
  return plan;

  /** A MANUAL demand for a bounce's charges: same booking, one split to the same payer. */
  function chargesDemand(
    bounced: PlannedDemand,
    payer: PlannedSplit,
    receipt: PlannedReceipt,
    amount: Decimal,
    date: string,
    at: Date,
  ): void {
    const booking = plan.bookings.find((b) => b.id === bounced.bookingId) as PlannedBooking;
    const demand: PlannedDemand = {
      ...bounced,
      id: randomUUID(),
      milestoneId: null,
      demandType: 'MANUAL',
      number: numbers.issue('demand', date, booking.number),
      total: amount,
      received: new Decimal(0),
      status: 'PENDING',
      dueDate: date,
      date,
      remarks: `Charges for bounced receipt ${receipt.number}: Insufficient funds`,
      at,
      modifiedAt: at,
    };
    plan.demands.push(demand);
    demandsById.set(demand.id, demand);
    const split: PlannedSplit = {
      id: randomUUID(),
      demandId: demand.id,
      payerType: payer.payerType,
      payerId: payer.payerId,
      number: numbers.issue('demand-split', date, demand.number),
      amount,
      paid: new Decimal(0),
      status: 'PENDING',
      at,
      modifiedAt: at,
    };
    plan.splits.push(split);
    open.push(split);
  }

  /** A buyer who withdrew: a booking and its booking-amount demand, cancelled the same day. */
  function withdrawnBooking(day: number): void {
    const date = dateAt(day);
    entriesToday = 50;
    const booking: PlannedBooking = {
      id: randomUUID(),
      number: numbers.issue('booking', date),
      unitId: randomUUID(),
      buyerName: `${pick(FIRST_NAMES)} ${pick(LAST_NAMES)}`,
      buyerId: randomUUID(),
      date,
      at: entryTime(day),
      cancelledAt: null,
      cancelReason: null,
    };
    plan.bookings.push(booking);
    const at = entryTime(day);
    const demand: PlannedDemand = {
      id: randomUUID(),
      bookingId: booking.id,
      unitId: booking.unitId,
      buyerName: booking.buyerName,
      milestoneId: null,
      demandType: 'MANUAL',
      number: numbers.issue('demand', date, booking.number),
      total: new Decimal(500_000),
      received: new Decimal(0),
      status: 'PENDING',
      dueDate: dateAt(day + 15),
      date,
      remarks: 'Booking amount - booking instalment',
      at,
      modifiedAt: at,
      cancelledAt: null,
      cancelReason: null,
    };
    plan.demands.push(demand);
    const split: PlannedSplit = {
      id: randomUUID(),
      demandId: demand.id,
      payerType: 'BUYER',
      payerId: booking.buyerId,
      number: numbers.issue('demand-split', date, demand.number),
      amount: demand.total,
      paid: new Decimal(0),
      status: 'PENDING',
      at,
      modifiedAt: at,
    };
    plan.splits.push(split);
    const cancelledAt = new Date(at.getTime() + 2 * 3_600_000);
    const reason = 'Buyer withdrew from the booking';
    booking.cancelledAt = cancelledAt;
    booking.cancelReason = reason;
    demand.status = 'CANCELLED';
    demand.cancelledAt = cancelledAt;
    demand.cancelReason = reason;
    demand.modifiedAt = cancelledAt;
    split.status = 'CANCELLED';
    split.modifiedAt = cancelledAt;
    plan.receiptWrites++;
  }
}

/** Moves a split and its demand exactly as ReceiptWritesService does (statuses included). */
function pay(split: PlannedSplit, demand: PlannedDemand, delta: Decimal, at: Date): void {
  const s = applyPayment(
    { total: split.amount.toFixed(2), paid: split.paid.toFixed(2), status: split.status },
    delta,
  );
  const d = applyPayment(
    { total: demand.total.toFixed(2), paid: demand.received.toFixed(2), status: demand.status },
    delta,
  );
  split.paid = new Decimal(s.paid);
  split.status = s.status;
  split.modifiedAt = at;
  demand.received = new Decimal(d.paid);
  demand.status = d.status;
  demand.modifiedAt = at;
}
