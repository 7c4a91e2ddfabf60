import { Logger, OnApplicationShutdown } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import type { ReservedBudgetRow } from '@/http/throttling/rate-limit.sql';
import { SlidingWindowStorage } from '@/http/throttling/sliding-window-storage';

type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/** One round trip: slices of many clients' budgets (RESERVE_BUDGET_SQL), and the clean-up. */
export interface BudgetReserver {
  reserve(batch: {
    keys: string[];
    wants: number[];
    limit: number;
    windowMs: number;
  }): Promise<ReservedBudgetRow[]>;
  /** Deletes budgets idle for `idleMs` (PURGE_BUDGETS_SQL). */
  purge(idleMs: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * The stock an instance keeps per client: it is topped up to this, off the request's path,
 * once down to REFILL_SHARE of it, so one round trip serves about 7 requests and lands before
 * the last tokens are spent. What a client can lose per instance and window when the instance
 * stops or the window ends (docs/rate-limits.md).
 */
export const SLICE = 10;
export const REFILL_SHARE = 0.3;
/**
 * A client busier than SLICE per this on one instance gets a stock of what it spends in this
 * long (at most 1 % of its budget): a stock of 10 would last less than a round trip under load,
 * and its requests would wait for top-ups.
 */
export const STOCK_HORIZON_MS = 100;
/** The largest stock for a budget of `limit`: SLICE, or 1 % of the budget when that is more. */
export const maxStock = (limit: number): number => Math.max(SLICE, Math.floor(limit / 100));
/** Round trips one request may wait for before it is refused (many waiters, few tokens). */
const MAX_ATTEMPTS = 10;
/** Shortest refusal: a client refused is not asked about again sooner. */
const MIN_BLOCK_MS = 50;
/** Most clients per statement. */
const MAX_BATCH = 500;
/** Longest a request waits for a slice before it is limited by this instance alone. */
export const RESERVE_WAIT_MS = 1000;
/** After a failed or slow round trip, this instance limits alone for this long, then retries. */
export const ALONE_AFTER_FAILURE_MS = 1000;
/** How often (on average) an instance deletes idle budgets. */
const PURGE_EVERY_MS = 5 * 60_000;
/** Clients with nothing in flight and nothing to remember are dropped this often. */
const SWEEP_EVERY_MS = 60_000;

interface Budget {
  /** Tokens granted to this instance and not spent yet; valid until `windowEndsAt`. */
  tokens: number;
  /** When the window the tokens belong to ends (this process's clock, ms). */
  windowEndsAt: number;
  /** Refused until then once the tokens are spent (no round trip meanwhile). */
  blockedUntil: number;
  /** Requests counted in the client's window, as far as this instance knows (for headers). */
  hits: number;
  /** What a top-up fills the stock to: SLICE, more for a busy client (STOCK_HORIZON_MS). */
  stock: number;
  /** Tokens spent since the last top-up was sent, and when it was: the client's rate here. */
  spent: number;
  refilledAt: number;
  /** The round trip in flight for this client, if any: true once it answered. */
  pending?: Promise<boolean>;
}

interface Queued {
  key: string;
  want: number;
  limit: number;
  windowMs: number;
  waiters: { resolve: (row: ReservedBudgetRow) => void; reject: (error: Error) => void }[];
}

/**
 * How long, in ms after `elapsedMs` into its window, until a client whose budget looks like
 * `row` gets one token (RESERVE_BUDGET_SQL's sliding window): within this window once the
 * previous one's weight has shrunk enough, else in the next one, when this window's count is
 * the one weighing.
 */
export function msUntilToken(
  row: Pick<ReservedBudgetRow, 'used' | 'previous_used' | 'elapsed_ms'>,
  limit: number,
  windowMs: number,
): number {
  const { used, previous_used: previous, elapsed_ms: elapsed } = row;
  if (used <= limit - 1 && previous > 0) {
    // limit - used - previous * (1 - t / windowMs) >= 1
    const at = windowMs * (1 - (limit - used - 1) / previous);
    if (at < windowMs) return Math.max(0, at - elapsed);
  }
  // In the next window: limit - used * (1 - t / windowMs) >= 1.
  const next = used > 0 ? windowMs * Math.max(0, 1 - (limit - 1) / used) : 0;
  return Math.max(0, windowMs - elapsed + next);
}

/**
 * The rate limiter's counts shared by every instance through PostgreSQL (RATE_LIMIT_STORE=
 * postgres): one budget per client and window in `rate_limit_budgets`, of which each instance
 * takes slices and spends them in memory. A request costs no round trip while its instance
 * holds tokens for its client; the stock (SLICE, more for a client busier than 100 requests/s
 * here) is topped up in the background when 70 % spent, so a steady client never waits. A client's first request on an instance (in
 * a window) waits for one round trip. Round trips are batched: one statement at a time on one
 * connection of its own (never the request pool's, never inside a request's transaction),
 * carrying every client that needs a slice meanwhile.
 *
 * Never more than the budget: tokens exist only as granted by the upsert. Less by at most what
 * instances hold unspent when a window ends or an instance dies: one stock per instance and
 * client (SLICE, at most 1 % of the budget for a busy client).
 * A refused client is refused in memory until a token frees (the Retry-After the statement's
 * figures give), so a client hammering past its budget costs no round trips either.
 *
 * When PostgreSQL does not answer (an error, or no answer within RESERVE_WAIT_MS) the instance
 * limits alone (the in-memory sliding window, RATE_LIMIT_PER_MINUTE per instance) for
 * ALONE_AFTER_FAILURE_MS, then tries again: a limiter outage never turns into 5xx or waits.
 */
export class SharedBudgetStorage implements ThrottlerStorage, OnApplicationShutdown {
  private readonly logger = new Logger('RateLimit');
  private readonly budgets = new Map<string, Budget>();
  private readonly queue = new Map<string, Queued>();
  private draining = false;
  private closed = false;
  private aloneUntil = 0;
  private alone = false;
  private nextSweepAt = 0;
  private nextPurgeAt: number;
  /** Round trips made (tests, and to see that most requests need none). */
  roundTrips = 0;

  constructor(
    private readonly reserver: BudgetReserver,
    private readonly now: () => number = Date.now,
    private readonly fallback: ThrottlerStorage = new SlidingWindowStorage(now),
  ) {
    this.nextPurgeAt = now() + PURGE_EVERY_MS * Math.random();
  }

  /** Clients currently tracked (tests, and to see that idle ones are dropped). */
  get size(): number {
    return this.budgets.size;
  }

  increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerStorageRecord> {
    const now = this.now();
    if (now >= this.nextSweepAt) this.sweep(now);
    if (this.closed || now < this.aloneUntil) {
      return this.fallback.increment(key, ttl, limit, blockDuration, throttlerName);
    }
    let budget = this.budgets.get(key);
    if (!budget) {
      budget = {
        tokens: 0,
        windowEndsAt: 0,
        blockedUntil: 0,
        hits: 0,
        stock: SLICE,
        spent: 0,
        refilledAt: 0,
      };
      this.budgets.set(key, budget);
    }
    const taken = this.take(key, budget, now, limit, ttl);
    if (taken) return Promise.resolve(taken);
    if (budget.blockedUntil > now) return Promise.resolve(refused(budget, now, limit));
    return this.incrementAfterRoundTrip(key, budget, ttl, limit, blockDuration, throttlerName);
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.reserver.close();
  }

  /** Drops clients whose window is over, with nothing blocked or in flight. */
  sweep(now = this.now()): void {
    this.nextSweepAt = now + SWEEP_EVERY_MS;
    for (const [key, b] of this.budgets) {
      if (b.windowEndsAt <= now && b.blockedUntil <= now && !b.pending) this.budgets.delete(key);
    }
  }

  /** Spends one of this instance's tokens for the client, if it holds any for this window. */
  private take(
    key: string,
    b: Budget,
    now: number,
    limit: number,
    windowMs: number,
  ): ThrottlerStorageRecord | null {
    if (now >= b.windowEndsAt) b.tokens = 0; // a slice of a window that is over is lost
    if (b.tokens === 0) return null;
    b.tokens--;
    b.hits++;
    b.spent++;
    if (b.tokens <= b.stock * REFILL_SHARE && !b.pending && b.blockedUntil <= now) {
      void this.refill(key, b, limit, windowMs);
    }
    return {
      totalHits: Math.min(b.hits, limit),
      timeToExpire: Math.max(1, Math.ceil((b.windowEndsAt - now) / 1000)),
      isBlocked: false,
      timeToBlockExpire: 0,
    };
  }

  private async incrementAfterRoundTrip(
    key: string,
    b: Budget,
    windowMs: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerStorageRecord> {
    // Each answer either grants a token or blocks the client; it loops only when requests
    // waiting together outnumber the slice (or a slice lapsed on the way).
    for (let attempt = 1; ; attempt++) {
      const answered = await this.refill(key, b, limit, windowMs);
      const now = this.now();
      if (!answered) {
        return this.fallback.increment(key, windowMs, limit, blockDuration, throttlerName);
      }
      const taken = this.take(key, b, now, limit, windowMs);
      if (taken) return taken;
      if (b.blockedUntil > now || attempt === MAX_ATTEMPTS) return refused(b, now, limit);
    }
  }

  /**
   * Tops the client's stock up with one round trip (one per client at a time): true once
   * answered, false when PostgreSQL failed or was too slow (this instance then limits alone for
   * a while). A late answer still adds its tokens.
   */
  private refill(key: string, b: Budget, limit: number, windowMs: number): Promise<boolean> {
    if (b.pending) return b.pending;
    const sentAt = this.now();
    // The stock for the rate since the last top-up: SLICE, or what the client spends here in
    // STOCK_HORIZON_MS when that is more (a client back from idle starts at SLICE again).
    if (b.refilledAt > 0) {
      const perMs = b.spent / Math.max(1, sentAt - b.refilledAt);
      b.stock = Math.min(maxStock(limit), Math.max(SLICE, Math.ceil(perMs * STOCK_HORIZON_MS)));
    }
    b.spent = 0;
    b.refilledAt = sentAt;
    const want = Math.max(1, b.stock - b.tokens);
    const reservation = this.enqueue(key, want, limit, windowMs).then(
      (row) => {
        this.apply(b, row, sentAt, limit, windowMs);
        this.backTogether();
        return true;
      },
      (error: unknown) => {
        this.goAlone(error);
        return false;
      },
    );
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => {
        this.goAlone(new Error(`no answer within ${RESERVE_WAIT_MS} ms`));
        resolve(false);
      }, RESERVE_WAIT_MS);
      timer.unref();
    });
    const pending = Promise.race([reservation, late]).then((answered) => {
      clearTimeout(timer);
      if (b.pending === pending) b.pending = undefined;
      return answered;
    });
    b.pending = pending;
    return pending;
  }

  private apply(
    b: Budget,
    row: ReservedBudgetRow,
    sentAt: number,
    limit: number,
    windowMs: number,
  ): void {
    const now = this.now();
    if (now >= b.windowEndsAt) b.tokens = 0;
    b.tokens += row.granted;
    // Measured from when the statement was sent, which is no later than the server's now():
    // the tokens lapse here no later than the window ends there.
    b.windowEndsAt = sentAt + windowMs - row.elapsed_ms;
    b.blockedUntil =
      row.granted > 0 ? 0 : sentAt + Math.max(MIN_BLOCK_MS, msUntilToken(row, limit, windowMs));
    const weight = Math.max(0, 1 - row.elapsed_ms / windowMs);
    b.hits = Math.ceil(row.used + row.previous_used * weight) - b.tokens;
  }

  private enqueue(
    key: string,
    want: number,
    limit: number,
    windowMs: number,
  ): Promise<ReservedBudgetRow> {
    return new Promise((resolve, reject) => {
      const queued = this.queue.get(key);
      if (queued) {
        // A refill that timed out is still queued: one slice answers both.
        queued.want = Math.max(queued.want, want);
        queued.waiters.push({ resolve, reject });
        return;
      }
      this.queue.set(key, { key, want, limit, windowMs, waiters: [{ resolve, reject }] });
      if (!this.draining) void this.drain();
    });
  }

  /** One statement at a time, each carrying every client queued meanwhile. */
  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.queue.size > 0) {
        const batch: Queued[] = [];
        const [first] = this.queue.values();
        for (const q of this.queue.values()) {
          if (batch.length === MAX_BATCH) break;
          if (q.limit === first.limit && q.windowMs === first.windowMs) batch.push(q);
        }
        for (const q of batch) this.queue.delete(q.key);
        this.roundTrips++;
        try {
          const rows = await this.reserver.reserve({
            keys: batch.map((q) => q.key),
            wants: batch.map((q) => q.want),
            limit: first.limit,
            windowMs: first.windowMs,
          });
          const byKey = new Map(rows.map((r) => [r.key, r]));
          for (const q of batch) {
            const row = byKey.get(q.key);
            for (const w of q.waiters) {
              if (row) w.resolve(row);
              else w.reject(new Error('no budget row returned'));
            }
          }
        } catch (error) {
          const reason = error instanceof Error ? error : new Error(String(error));
          for (const q of batch) for (const w of q.waiters) w.reject(reason);
        }
        await this.purgeWhenDue(first.windowMs);
      }
    } finally {
      this.draining = false;
    }
  }

  private async purgeWhenDue(windowMs: number): Promise<void> {
    const now = this.now();
    if (now < this.nextPurgeAt) return;
    this.nextPurgeAt = now + PURGE_EVERY_MS * (0.5 + Math.random());
    try {
      await this.reserver.purge(2 * windowMs);
    } catch {
      // Idle rows are harmless (an idle budget is worth nothing); the next purge takes them.
    }
  }

  private goAlone(error: unknown): void {
    this.aloneUntil = this.now() + ALONE_AFTER_FAILURE_MS;
    if (this.alone) return;
    this.alone = true;
    this.logger.warn(
      `shared budgets unavailable (${error instanceof Error ? error.message : String(error)}): limiting per instance until PostgreSQL answers again`,
    );
  }

  private backTogether(): void {
    if (!this.alone) return;
    this.alone = false;
    this.logger.log('shared budgets available again');
  }
}

function refused(b: Budget, now: number, limit: number): ThrottlerStorageRecord {
  const wait = Math.max(1, Math.ceil((b.blockedUntil - now) / 1000));
  return { totalHits: limit + 1, timeToExpire: wait, isBlocked: true, timeToBlockExpire: wait };
}
