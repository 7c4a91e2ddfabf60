import { randomFillSync } from 'node:crypto';
import { DemandStatus, PAYMENT_MODES, PaymentMode, PayerType } from '@/common/domain/enums';
import {
  counterKey,
  DocumentType,
  ParsedPattern,
  patternUsesParent,
  RenderContext,
  renderNumber,
} from '@/numbering/number-pattern';
import { formatLocalDate, LocalDate } from '@/common/dates/local-date';
import { FIRST_NAMES, LAST_NAMES } from './indian-names';

/**
 * The demo history of one tenant, planned in memory (pure: no database) and handed out in chunks
 * so that any size, up to a million receipts, is written set-based with bounded memory. It
 * follows the API's rules: numbers come from the tenant's numbering scheme in date order (what
 * the allocator would have issued, per financial year, gap-free), receipts never exceed a split's
 * pending amount, and split and demand statuses move as `applyPayment` moves them (amounts are
 * kept in paise, integers, for speed; the unit spec checks every status against the API's
 * `paymentStatus`).
 *
 * Size: exactly `receipts` receipts (cancelled and bounced ones included). They are spread over
 * the 18 months up to today by a daily quota (fewer on weekends, some jitter) that adds up to the
 * target exactly; demands, and the bookings they belong to, are raised as the receipts need them
 * (an open pool of about 25 days of payments, more bookings and demands a day for a larger size),
 * so the history is as dense as the size asks for, never cut short.
 *
 * Chunks: a demand is handed out with its splits and receipts once none of its splits can be paid
 * any more (all paid), the rest at the end; bookings as they are made. Every chunk therefore
 * refers only to rows of itself or of earlier chunks, and what stays in memory is the open pool.
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

/** The largest demo history the planner makes (DEMO_RECEIPTS_PER_TENANT's upper bound). */
export const MAX_DEMO_RECEIPTS = 1_000_000;

/** Receipts per chunk handed out by `planDemoChunks` unless asked otherwise. */
export const DEFAULT_CHUNK_RECEIPTS = 10_000;

const DAY_MS = 86_400_000;
/** Office hours in India start at 09:30 IST = 04:00 UTC; a day's entries fit in eight hours. */
const OFFICE_OPENS_MS = 4 * 3_600_000;
const OFFICE_DAY_MS = 8 * 3_600_000;
/** One rupee in paise. */
const RUPEE = 100;
/** Section 194-IA: the buyer of a property of ₹50 lakh or more deducts 1 % TDS. */
const TDS_THRESHOLD = 50 * 100_000 * RUPEE;
/** A buyer's one transfer for the instalments they owe covers at most this many. */
const MAX_DUES_IN_ONE_PAYMENT = 3;
/** What buyers pay with (TDS only ever as the 1 % beside an instalment). */
const PAID_BY_PAYERS = PAYMENT_MODES.filter((m) => m !== 'TDS');
/** IFSC bank codes of the banks buyers and lenders remit from (the first four letters of a UTR). */
const REMITTING_BANKS = ['SBIN', 'HDFC', 'ICIC', 'UTIB', 'KKBK', 'PUNB', 'BARB', 'CNRB'] as const;

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** One document type's numbering as the allocator resolves it (active config or defaults). */
export interface PlanScheme {
  parsed: ParsedPattern;
  prefix: string;
  starting: number;
}

type PlannedType = Extract<DocumentType, 'booking' | 'demand' | 'demand-split' | 'receipt'>;

export interface PlanInput {
  seed: number;
  /** Exactly this many receipts are planned (1 to MAX_DEMO_RECEIPTS). */
  receipts: number;
  today: LocalDate;
  fyStartMonth: number;
  separator: string;
  schemes: Record<PlannedType, PlanScheme>;
}

/** Instants are epoch milliseconds; amounts are paise (integers). */
export interface PlannedBooking {
  id: string;
  number: string;
  unitId: string;
  buyerName: string;
  buyerId: string;
  /**
   * The booking's co-buyer and lending bank: one payer each over all its demands, so a statement
   * for one payer and a bank's payment over several disbursements find all of theirs.
   */
  coBuyerId: string;
  bankId: string;
  date: string;
  at: number;
  /** Set when the buyer withdrew: the booking, its demands and splits are CANCELLED. */
  cancelledAt: number | null;
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
  total: number;
  received: number;
  status: DemandStatus;
  dueDate: string;
  date: string;
  remarks: string;
  at: number;
  modifiedAt: number;
  cancelledAt: number | null;
  cancelReason: string | null;
}

export interface PlannedSplit {
  id: string;
  demandId: string;
  payerType: PayerType;
  payerId: string;
  number: string;
  amount: number;
  paid: number;
  status: DemandStatus;
  at: number;
  modifiedAt: number;
}

export interface PlannedReceipt {
  id: string;
  splitId: string;
  demandId: string;
  bookingId: string;
  payerType: PayerType;
  number: string;
  amount: number;
  paymentMode: PaymentMode;
  transactionRef: string;
  date: string;
  at: number;
  status: 'ACTIVE' | 'CANCELLED' | 'BOUNCED';
  /** Why, when (instant and business date) it left ACTIVE; null while ACTIVE. */
  statusReason: string | null;
  statusChangedAt: number | null;
  statusChangedOn: string | null;
  /**
   * The receipt write that recorded it, counted from 1 in the tenant's write order (what the
   * search version was when the API inserted it; the seed adds the version it starts from).
   */
  write: number;
}

export interface IssuedNumber {
  documentType: DocumentType;
  number: string;
}

/** Rows ready to be written: they refer only to rows of this chunk or of earlier ones. */
export interface DemoPlanChunk {
  bookings: PlannedBooking[];
  demands: PlannedDemand[];
  splits: PlannedSplit[];
  receipts: PlannedReceipt[];
  /** The numbers issued since the previous chunk, per document type. */
  issued: IssuedNumber[];
}

/** What `planDemoChunks` returns once every chunk is out. */
export interface DemoPlanSummary {
  receipts: number;
  /** The counters as the allocator leaves them: next value to issue per key. */
  counters: { documentType: DocumentType; counterKey: string; nextValue: bigint }[];
  /** Receipt writes (records, cancellations, bounces, demand cancels): the search version. */
  receiptWrites: number;
}

/** A whole plan at once (tests and small sizes): every chunk concatenated, in issue order. */
export interface DemoPlan extends DemoPlanChunk, Omit<DemoPlanSummary, 'receipts'> {}

const UUID_BATCH = 1024;
const uuidBytes = Buffer.alloc(16 * UUID_BATCH);
const uuidText = Buffer.alloc(36);
const HEX_DIGITS = Buffer.from('0123456789abcdef');
let uuidsLeft = 0;

/**
 * A random (version 4) UUID, like crypto.randomUUID() but as a flat string: randomUUID's are
 * chains of concatenations, several times the memory while the open pool holds them.
 */
export function uuid(): string {
  if (uuidsLeft === 0) {
    randomFillSync(uuidBytes);
    uuidsLeft = UUID_BATCH;
  }
  const o = --uuidsLeft * 16;
  uuidBytes[o + 6] = (uuidBytes[o + 6] & 0x0f) | 0x40;
  uuidBytes[o + 8] = (uuidBytes[o + 8] & 0x3f) | 0x80;
  let p = 0;
  for (let i = 0; i < 16; i++) {
    if (i === 4 || i === 6 || i === 8 || i === 10) uuidText[p++] = 0x2d;
    const b = uuidBytes[o + i];
    uuidText[p++] = HEX_DIGITS[b >> 4];
    uuidText[p++] = HEX_DIGITS[b & 15];
  }
  return uuidText.toString('latin1', 0, 36);
}

/**
 * The same text as one flat string: V8 keeps a concatenation as a chain of its parts until
 * something reads its characters; reading one flattens it, so a long-held string costs its
 * length, not its history.
 */
function flat(text: string): string {
  text.charCodeAt(0);
  return text;
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

/**
 * True when two counter keys can never render the same number: the sequence ends the number and
 * what comes right before it is fixed text ending in a non-digit (or nothing at all), so the
 * trailing digits of a number are its sequence and the rest its key. The default patterns are;
 * for the others the allocator's "step over a taken number" needs a set of every number issued.
 */
export function numbersCannotCollide(scheme: PlanScheme, separator: string): boolean {
  const parts = scheme.parsed.parts;
  if (parts.at(-1)?.type !== 'seq') return false;
  for (let i = parts.length - 2; i >= 0; i--) {
    const part = parts[i];
    let text: string;
    if (part.type === 'literal') text = part.text;
    else if (part.type === 'token' && part.kind === 'PREFIX') text = scheme.prefix;
    else if (part.type === 'token' && part.kind === 'SEP') text = separator;
    else return false; // dates, fiscal years and parents may end in a digit
    if (text.length > 0) return !/\d$/.test(text);
  }
  return true;
}

interface Counter {
  type: PlannedType;
  key: string;
  value: number;
}

/** Issues numbers like NumberingService: per counter key, from Starting, stepping over taken ones. */
class Numbers {
  private readonly counters = new Map<string, Counter>();
  /** Numbers issued so far, only for schemes whose keys could render the same number. */
  private readonly taken = new Map<PlannedType, Set<string>>();
  /** The counter and context of the last day, for schemes without {PARENT}. */
  private readonly lastDay = new Map<
    PlannedType,
    { day: number; ctx: RenderContext; c: Counter }
  >();
  private readonly usesParent = new Set<PlannedType>();
  issued: IssuedNumber[] = [];

  constructor(
    private readonly input: PlanInput,
    private readonly dates: LocalDate[],
  ) {
    for (const type of Object.keys(input.schemes) as PlannedType[]) {
      const scheme = input.schemes[type];
      if (!numbersCannotCollide(scheme, input.separator)) this.taken.set(type, new Set());
      if (patternUsesParent(scheme.parsed)) this.usesParent.add(type);
    }
  }

  issue(type: PlannedType, day: number, parent?: string): string {
    const scheme = this.input.schemes[type];
    let ctx: RenderContext;
    let counter: Counter;
    const last = this.lastDay.get(type);
    if (last && last.day === day && !this.usesParent.has(type)) {
      ({ ctx, c: counter } = last);
    } else {
      ctx = {
        prefix: scheme.prefix,
        separator: this.input.separator,
        date: this.dates[day],
        fyStartMonth: this.input.fyStartMonth,
        parent,
      };
      const key = counterKey(scheme.parsed, ctx);
      const id = `${type}\u0000${key}`;
      counter = this.counters.get(id) ?? { type, key, value: scheme.starting };
      this.counters.set(id, counter);
      if (!this.usesParent.has(type)) this.lastDay.set(type, { day, ctx, c: counter });
    }
    const taken = this.taken.get(type);
    for (;;) {
      const number = renderNumber(scheme.parsed, ctx, counter.value);
      counter.value += 1;
      if (taken) {
        if (taken.has(number)) continue;
        taken.add(number);
      }
      this.issued.push({ documentType: type, number: flat(number) });
      return number;
    }
  }

  summary(): DemoPlanSummary['counters'] {
    return [...this.counters.values()].map((c) => ({
      documentType: c.type,
      counterKey: c.key,
      nextValue: BigInt(c.value),
    }));
  }
}

/** A demand still in play: its splits and receipts wait for it to be settled. */
interface OpenDemand {
  demand: PlannedDemand;
  /** Its booking's number ({PARENT} of a charges demand). */
  bookingNumber: string;
  splits: PlannedSplit[];
  receipts: PlannedReceipt[];
  /** Splits that can still be paid. */
  unpaid: number;
  /** The unit costs ₹50 lakh or more and its buyer deducts 1 % TDS (section 194-IA). */
  tds: boolean;
}

interface OpenSplit {
  split: PlannedSplit;
  owner: OpenDemand;
  /** Its place in the pool (swap-removal in O(1)). */
  index: number;
}

interface Unit {
  booking: PlannedBooking;
  /** Price in paise. */
  price: number;
  nextMilestone: number;
}

/**
 * PENDING with nothing paid, PAID when paid in full, PARTIALLY_PAID in between; CANCELLED stays
 * CANCELLED (`applyPayment` on integers). Throws on an overpayment, as the API does.
 */
function settle(total: number, paid: number, status: DemandStatus): DemandStatus {
  if (paid < 0 || paid > total) throw new RangeError(`paid ${paid} outside 0..${total} paise`);
  if (status === 'CANCELLED') return status;
  return paid === 0 ? 'PENDING' : paid === total ? 'PAID' : 'PARTIALLY_PAID';
}

/** Moves a split and its demand exactly as ReceiptWritesService does (statuses included). */
function pay(split: PlannedSplit, demand: PlannedDemand, delta: number, at: number): void {
  split.paid += delta;
  split.status = settle(split.amount, split.paid, split.status);
  split.modifiedAt = at;
  demand.received += delta;
  demand.status = settle(demand.total, demand.received, demand.status);
  demand.modifiedAt = at;
}

/**
 * Receipts per day, adding up to exactly `receipts`: a weight per day (Sundays a quarter,
 * Saturdays 70 %, ±25 % jitter), cumulated and rounded so the rounding never drifts.
 */
function dailyQuotas(receipts: number, days: number, start: number, random: () => number) {
  const weights = new Float64Array(days);
  let total = 0;
  for (let d = 0; d < days; d++) {
    const weekday = new Date(start + d * DAY_MS).getUTCDay();
    const w = (weekday === 0 ? 0.25 : weekday === 6 ? 0.7 : 1) * (0.75 + random() * 0.5);
    weights[d] = w;
    total += w;
  }
  const quotas = new Int32Array(days);
  let cumulated = 0;
  let given = 0;
  for (let d = 0; d < days; d++) {
    cumulated += weights[d];
    const upTo = d === days - 1 ? receipts : Math.round((receipts * cumulated) / total);
    quotas[d] = upTo - given;
    given = upTo;
  }
  return quotas;
}

/**
 * Plans the history chunk by chunk, each with at most `chunkReceipts` receipts (and the demands,
 * splits, bookings and numbers that became final with them); returns the counters and the count
 * of receipt writes.
 */
export function* planDemoChunks(
  input: PlanInput,
  chunkReceipts = DEFAULT_CHUNK_RECEIPTS,
): Generator<DemoPlanChunk, DemoPlanSummary, void> {
  const target = input.receipts;
  if (!Number.isInteger(target) || target < 1 || target > MAX_DEMO_RECEIPTS) {
    throw new RangeError(
      `receipts must be an integer from 1 to ${MAX_DEMO_RECEIPTS}; got ${target}`,
    );
  }
  const random = mulberry32(input.seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const { today } = input;
  const start = Date.UTC(today.year, today.month - 1 - 18, 1);
  const lastDay = Math.floor((Date.UTC(today.year, today.month - 1, today.day) - start) / DAY_MS);
  // Calendar dates up to two months past today (due dates may fall after it).
  const dates: LocalDate[] = [];
  const dateText: string[] = [];
  for (let d = 0; d <= lastDay + 62; d++) {
    const t = new Date(start + d * DAY_MS);
    const date = { year: t.getUTCFullYear(), month: t.getUTCMonth() + 1, day: t.getUTCDate() };
    dates.push(date);
    dateText.push(formatLocalDate(date));
  }
  const numbers = new Numbers(input, dates);
  const quotas = dailyQuotas(target, lastDay + 1, start, random);

  // Density: the open pool holds about 25 days of payments; up to twice the demands a day the
  // receipts use up (about 4.4 receipts a demand) are raised while it is short; a unit gets a
  // milestone demand about every 40 days, so about 9 days of payments worth of units are active.
  const perDay = target / (lastDay + 1);
  const poolTarget = Math.max(6, Math.round(perDay * 25));
  const demandsPerDay = Math.max(2, Math.ceil(perDay / 2));
  const activeUnits = Math.max(8, Math.ceil(perDay * 9));

  let day = 0;
  let entryAt = 0;
  let entryStep = 60_000;
  const nextEntry = () => (entryAt += entryStep);

  let writes = 0;
  let planned = 0;
  const units: Unit[] = [];
  const pool: OpenSplit[] = [];
  /** A buyer's open splits (their payerId is the booking's buyerId). */
  const buyerDues = new Map<string, OpenSplit[]>();
  let ready: Omit<DemoPlanChunk, 'issued'> = {
    bookings: [],
    demands: [],
    splits: [],
    receipts: [],
  };

  /** Everything ready but receipts beyond `chunkReceipts` (the latest), which wait. */
  const takeChunk = (): DemoPlanChunk => {
    const byAt = (a: { at: number }, b: { at: number }) => a.at - b.at;
    const receipts = ready.receipts.sort(byAt);
    const later = receipts.length > chunkReceipts ? receipts.splice(chunkReceipts) : [];
    const chunk = {
      bookings: ready.bookings,
      demands: ready.demands.sort(byAt),
      splits: ready.splits.sort(byAt),
      receipts,
      issued: numbers.issued,
    };
    ready = { bookings: [], demands: [], splits: [], receipts: later };
    numbers.issued = [];
    return chunk;
  };
  const settled = (open: OpenDemand) => {
    ready.demands.push(open.demand);
    for (const s of open.splits) ready.splits.push(s);
    for (const r of open.receipts) ready.receipts.push(r);
  };

  const newBooking = (): PlannedBooking => {
    const booking: PlannedBooking = {
      id: uuid(),
      number: numbers.issue('booking', day),
      unitId: uuid(),
      buyerName: `${pick(FIRST_NAMES)} ${pick(LAST_NAMES)}`,
      buyerId: uuid(),
      coBuyerId: uuid(),
      bankId: uuid(),
      date: dateText[day],
      at: nextEntry(),
      cancelledAt: null,
      cancelReason: null,
    };
    ready.bookings.push(booking);
    return booking;
  };

  const addSplit = (
    open: OpenDemand,
    payerType: PayerType,
    payerId: string,
    amount: number,
  ): PlannedSplit => {
    const split: PlannedSplit = {
      id: uuid(),
      demandId: open.demand.id,
      payerType,
      payerId,
      number: numbers.issue('demand-split', day, open.demand.number),
      amount,
      paid: 0,
      status: 'PENDING',
      at: open.demand.at,
      modifiedAt: open.demand.at,
    };
    open.splits.push(split);
    open.unpaid++;
    const entry: OpenSplit = { split, owner: open, index: pool.length };
    pool.push(entry);
    if (payerType === 'BUYER') {
      const dues = buyerDues.get(payerId) ?? [];
      dues.push(entry);
      buyerDues.set(payerId, dues);
    }
    return split;
  };

  /** The next milestone of an active unit, or a new booking's booking amount. */
  const raiseDemand = () => {
    let index = units.length < activeUnits ? -1 : Math.floor(random() * units.length);
    if (index < 0) {
      const booking = newBooking();
      const lakhs = 40 + Math.floor(random() * 460); // 40 L to 5 Cr
      units.push({ booking, price: lakhs * 100_000 * RUPEE, nextMilestone: 0 });
      index = units.length - 1;
    }
    const unit = units[index];
    const first = unit.nextMilestone === 0;
    const total = Math.round(unit.price * (first ? 0.1 : 0.09));
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
    const at = nextEntry();
    const { booking } = unit;
    const demand: PlannedDemand = {
      id: uuid(),
      bookingId: booking.id,
      unitId: booking.unitId,
      buyerName: booking.buyerName,
      milestoneId: first ? null : uuid(),
      demandType: first ? 'MANUAL' : 'MILESTONE',
      number: numbers.issue('demand', day, booking.number),
      total,
      received: 0,
      status: 'PENDING',
      dueDate: dateText[Math.min(lastDay, day + 15 + Math.floor(random() * 30))],
      date: dateText[day],
      remarks: flat(
        `${MILESTONES[unit.nextMilestone]} - ${first ? 'booking' : 'construction-linked'} instalment`,
      ),
      at,
      modifiedAt: at,
      cancelledAt: null,
      cancelReason: null,
    };
    const open: OpenDemand = {
      demand,
      bookingNumber: booking.number,
      splits: [],
      receipts: [],
      unpaid: 0,
      tds: unit.price >= TDS_THRESHOLD && random() < 0.7,
    };
    let rest = total;
    payers.forEach(([payerType, part], i) => {
      const amount = i === payers.length - 1 ? rest : Math.round(total * part);
      rest -= amount;
      const payerId =
        payerType === 'BUYER'
          ? booking.buyerId
          : payerType === 'BANK'
            ? booking.bankId
            : booking.coBuyerId;
      addSplit(open, payerType, payerId, amount);
    });
    unit.nextMilestone++;
    if (unit.nextMilestone >= MILESTONES.length) {
      units[index] = units[units.length - 1];
      units.pop();
    }
  };

  /** A MANUAL demand for a bounce's charges: same booking, one split to the same payer. */
  const chargesDemand = (bounced: OpenDemand, payer: PlannedSplit, receipt: PlannedReceipt) => {
    const at = nextEntry();
    const open: OpenDemand = {
      bookingNumber: bounced.bookingNumber,
      demand: {
        ...bounced.demand,
        id: uuid(),
        milestoneId: null,
        demandType: 'MANUAL',
        number: numbers.issue('demand', day, bounced.bookingNumber),
        total: 590 * RUPEE,
        received: 0,
        status: 'PENDING',
        dueDate: dateText[day],
        date: dateText[day],
        remarks: flat(`Charges for bounced receipt ${receipt.number}: Insufficient funds`),
        at,
        modifiedAt: at,
      },
      splits: [],
      receipts: [],
      unpaid: 0,
      tds: false,
    };
    addSplit(open, payer.payerType, payer.payerId, 590 * RUPEE);
  };

  /** A split paid in full leaves the pool (and its buyer's dues); its demand may settle. */
  const closeIfPaid = (entry: OpenSplit) => {
    const { split, owner } = entry;
    if (split.paid !== split.amount) return;
    const last = pool.pop() as OpenSplit;
    if (last !== entry) {
      pool[entry.index] = last;
      last.index = entry.index;
    }
    const dues = buyerDues.get(split.payerId);
    if (dues) {
      dues.splice(dues.indexOf(entry), 1);
      if (dues.length === 0) buyerDues.delete(split.payerId);
    }
    if (--owner.unpaid === 0) settled(owner);
  };

  /** One receipt today against `entry`, ACTIVE, applied to its split and demand. */
  const record = (
    entry: OpenSplit,
    amount: number,
    mode: PaymentMode,
    transactionRef: string,
  ): PlannedReceipt => {
    const { split, owner } = entry;
    const { demand } = owner;
    const at = nextEntry();
    const receipt: PlannedReceipt = {
      id: uuid(),
      splitId: split.id,
      demandId: demand.id,
      bookingId: demand.bookingId,
      payerType: split.payerType,
      number: numbers.issue('receipt', day),
      amount,
      paymentMode: mode,
      transactionRef,
      date: dateText[day],
      at,
      status: 'ACTIVE',
      statusReason: null,
      statusChangedAt: null,
      statusChangedOn: null,
      write: ++writes,
    };
    owner.receipts.push(receipt);
    planned++;
    pay(split, demand, amount, at);
    return receipt;
  };

  /**
   * The reference a payer's bank gives a payment, shaped like the real ones so the demo
   * statement's lines match them (docs/bank.md): a 22-character NEFT/RTGS UTR (the remitting
   * bank, N or R, the date, a sequence), a 12-digit RRN for UPI, IMPS and cards, a 6-digit cheque
   * or draft number, and the Form 26QB acknowledgement beside TDS. One draw each, whatever the
   * mode, so the rest of the history does not depend on the shapes.
   */
  const reference = (mode: PaymentMode): string => {
    const n = Math.floor(random() * 1e12);
    const digits = n.toString().padStart(12, '0');
    switch (mode) {
      case 'NEFT':
      case 'RTGS':
        return flat(
          `${REMITTING_BANKS[n % REMITTING_BANKS.length]}${mode[0]}${dateText[day].replace(/-/g, '')}${digits.slice(-9)}`,
        );
      case 'CHEQUE':
      case 'DEMAND_DRAFT':
        return flat(digits.slice(-6));
      case 'TDS':
        return flat(`26QB${digits}`);
      default:
        return flat(digits);
    }
  };

  /**
   * One transfer by a buyer for every instalment they owe on the booking (up to `room`), oldest
   * due first, each paid in full: what POST /bookings/{id}/payments records, one receipt per
   * split sharing the transactionRef. Returns the receipts made (0 when only one is owed).
   */
  const payAllDues = (payerId: string, room: number): number => {
    const dues = [...(buyerDues.get(payerId) ?? [])].sort(
      (a, b) =>
        compareText(a.owner.demand.dueDate, b.owner.demand.dueDate) ||
        a.owner.demand.number.length - b.owner.demand.number.length ||
        compareText(a.owner.demand.number, b.owner.demand.number),
    );
    if (dues.length < 2) return 0;
    const paid = dues.slice(0, Math.min(room, MAX_DUES_IN_ONE_PAYMENT));
    const mode = pick(['NEFT', 'RTGS', 'IMPS'] as const);
    const ref = reference(mode);
    for (const entry of paid) {
      record(entry, entry.split.amount - entry.split.paid, mode, ref);
      closeIfPaid(entry);
    }
    return paid.length;
  };

  /**
   * One payment today against a random open split (some bounce or are cancelled the same day),
   * or a buyer's transfer for all they owe on the booking, or a buyer's instalment paid 99 %
   * with 1 % TDS deducted (a second receipt). At most `room` receipts; returns how many.
   */
  const receive = (room: number): number => {
    if (pool.length === 0) raiseDemand();
    const entry = pool[Math.floor(random() * pool.length)];
    const { split, owner } = entry;
    if (split.payerType === 'BUYER' && room >= 2 && random() < 0.3) {
      const made = payAllDues(split.payerId, room);
      if (made > 0) return made;
    }
    const pending = split.amount - split.paid;
    const withTds =
      owner.tds && split.payerType === 'BUYER' && split.paid === 0 && room >= 2 && random() < 0.8;
    const full = withTds || random() < 0.55 || pending < 10_000 * RUPEE;
    const tds = withTds ? Math.round(split.amount / 100) : 0;
    const amount = full
      ? pending - tds
      : random() < 0.3
        ? Math.round(pending * (0.2 + random() * 0.5))
        : Math.round((pending * (0.2 + random() * 0.5)) / RUPEE) * RUPEE;
    const mode: PaymentMode =
      split.payerType === 'BANK' ? pick(['NEFT', 'RTGS'] as const) : pick(PAID_BY_PAYERS);
    const receipt = record(entry, amount, mode, mode === 'CASH' ? '' : reference(mode));
    // A few cheques and drafts bounce (some with charges raised as a demand), and a few receipts
    // are entered by mistake and cancelled, the same day.
    const paper = mode === 'CHEQUE' || mode === 'DEMAND_DRAFT';
    if (random() < (paper ? 0.08 : 0.02)) {
      const changedAt = receipt.at + 3 * 3_600_000;
      receipt.status = paper ? 'BOUNCED' : 'CANCELLED';
      receipt.statusReason = paper ? 'Insufficient funds' : 'Entered against the wrong unit';
      receipt.statusChangedAt = changedAt;
      receipt.statusChangedOn = dateText[day];
      writes++;
      pay(split, owner.demand, -amount, changedAt);
      if (paper && random() < 0.5) chargesDemand(owner, split, receipt);
    }
    // The 1 % the buyer deposited with Form 26QB: a credit like any receipt, never bounced.
    if (tds > 0) record(entry, tds, 'TDS', reference('TDS'));
    closeIfPaid(entry);
    return tds > 0 ? 2 : 1;
  };

  for (day = 0; day <= lastDay; day++) {
    const quota = quotas[day];
    // Entries a day: receipts, demands, bookings, charges; spaced to fit the office day.
    entryStep = Math.max(
      1,
      Math.min(60_000, Math.floor(OFFICE_DAY_MS / (2 * quota + 2 * demandsPerDay + 10))),
    );
    entryAt = start + day * DAY_MS + OFFICE_OPENS_MS - entryStep;
    for (let k = 0; k < demandsPerDay && pool.length < poolTarget; k++) raiseDemand();
    for (let made = 0; made < quota;) {
      made += receive(quota - made);
      if (ready.receipts.length >= chunkReceipts) yield takeChunk();
    }
  }
  day = lastDay;
  withdrawnBooking();
  // Whatever is still open (pending, partly paid, overdue) goes out as it stands.
  const stillOpen = new Set<OpenDemand>();
  for (const { owner } of pool) stillOpen.add(owner);
  for (const open of stillOpen) settled(open);
  const counters = numbers.summary();
  do yield takeChunk();
  while (ready.receipts.length > 0);
  if (planned !== target) throw new Error(`planned ${planned} receipts instead of ${target}`);
  return { receipts: planned, counters, receiptWrites: writes };

  /** A buyer who withdrew: a booking and its booking-amount demand, cancelled the same day. */
  function withdrawnBooking(): void {
    const booking = newBooking();
    const at = nextEntry();
    const cancelledAt = at + 2 * 3_600_000;
    const reason = 'Buyer withdrew from the booking';
    booking.cancelledAt = cancelledAt;
    booking.cancelReason = reason;
    const demand: PlannedDemand = {
      id: uuid(),
      bookingId: booking.id,
      unitId: booking.unitId,
      buyerName: booking.buyerName,
      milestoneId: null,
      demandType: 'MANUAL',
      number: numbers.issue('demand', day, booking.number),
      total: 500_000 * RUPEE,
      received: 0,
      status: 'CANCELLED',
      dueDate: dateText[day + 15],
      date: dateText[day],
      remarks: 'Booking amount - booking instalment',
      at,
      modifiedAt: cancelledAt,
      cancelledAt,
      cancelReason: reason,
    };
    ready.demands.push(demand);
    ready.splits.push({
      id: uuid(),
      demandId: demand.id,
      payerType: 'BUYER',
      payerId: booking.buyerId,
      number: numbers.issue('demand-split', day, demand.number),
      amount: demand.total,
      paid: 0,
      status: 'CANCELLED',
      at,
      modifiedAt: cancelledAt,
    });
    writes++;
  }
}

/** The whole plan in memory: for tests and small sizes (the seed writes chunk by chunk). */
export function planDemoTenant(input: PlanInput): DemoPlan {
  const plan: DemoPlan = {
    bookings: [],
    demands: [],
    splits: [],
    receipts: [],
    issued: [],
    counters: [],
    receiptWrites: 0,
  };
  const chunks = planDemoChunks(input);
  for (;;) {
    const next = chunks.next();
    if (next.done) {
      plan.counters = next.value.counters;
      plan.receiptWrites = next.value.receiptWrites;
      break;
    }
    const chunk = next.value;
    for (const key of ['bookings', 'demands', 'splits', 'receipts', 'issued'] as const) {
      const into = plan[key] as unknown[];
      for (const row of chunk[key]) into.push(row);
    }
  }
  const byAt = (a: { at: number }, b: { at: number }) => a.at - b.at;
  plan.demands.sort(byAt);
  plan.splits.sort(byAt);
  plan.receipts.sort(byAt);
  return plan;
}
