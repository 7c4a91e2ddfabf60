import { Logger } from '@nestjs/common';
import type { ReservedBudgetRow } from '@/http/throttling/rate-limit.sql';
import {
  BudgetReserver,
  msUntilToken,
  maxStock,
  REFILL_SHARE,
  RESERVE_WAIT_MS,
  SharedBudgetStorage,
  SLICE,
} from '@/http/throttling/shared-budget-storage';

const MINUTE = 60_000;

/**
 * RESERVE_BUDGET_SQL's arithmetic on rows in memory, for one or more storages (instances).
 * test/rate-limit.e2e-spec.ts runs the statement itself.
 */
class FakeBudgets implements BudgetReserver {
  readonly rows = new Map<string, { start: number; previous: number; used: number }>();
  readonly batches: string[][] = [];
  failure: Error | null = null;
  /** While set, answers wait for it (a slow server). */
  gate: Promise<void> | null = null;
  purges = 0;
  closed = false;

  constructor(private readonly now: () => number) {}

  async reserve(batch: {
    keys: string[];
    wants: number[];
    limit: number;
    windowMs: number;
  }): Promise<ReservedBudgetRow[]> {
    const { keys, wants, limit, windowMs } = batch;
    this.batches.push(keys);
    await Promise.resolve();
    if (this.gate) await this.gate;
    if (this.failure) throw this.failure;
    const t = this.now();
    return keys.map((key, i) => {
      const r = this.rows.get(key);
      let start = t;
      let previous = 0;
      let used = 0;
      if (r && t - r.start < windowMs) ({ start, previous, used } = r);
      else if (r && t - r.start < 2 * windowMs) {
        start = r.start + windowMs;
        previous = r.used;
      }
      const elapsed = t - start;
      const available = Math.floor(limit - used - previous * (1 - elapsed / windowMs));
      const granted = Math.max(0, Math.min(wants[i], Math.ceil(available / 2)));
      this.rows.set(key, { start, previous, used: used + granted });
      return { key, granted, used: used + granted, previous_used: previous, elapsed_ms: elapsed };
    });
  }

  purge(): Promise<void> {
    this.purges++;
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.closed = true;
    return Promise.resolve();
  }
}

describe(SharedBudgetStorage.name, () => {
  let now: number;
  let db: FakeBudgets;
  const clock = () => now;
  const instance = () => new SharedBudgetStorage(db, clock);
  const hit = (s: SharedBudgetStorage, key = 'client', limit = 100) =>
    s.increment(key, MINUTE, limit, MINUTE, 'default');

  beforeEach(() => {
    now = 1_700_000_000_000;
    db = new FakeBudgets(clock);
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  it('spends slices in memory: one round trip per few requests, none awaited once warm', async () => {
    const s = instance();
    const first = hit(s);
    expect(db.batches).toHaveLength(1); // the first request of a client waits for a slice
    expect(await first).toMatchObject({ isBlocked: false, totalHits: 1, timeToExpire: 60 });
    for (let i = 0; i < 69; i++) {
      // Answered at once from the instance's stock: already settled when it is returned.
      const record = await Promise.race([hit(s), Promise.resolve('waited' as const)]);
      expect(record).toMatchObject({ isBlocked: false });
      await new Promise((resolve) => setImmediate(resolve)); // a top-up lands between requests
    }
    // 70 requests: the first slice, then a top-up every 7 requests (down to 3 of 10).
    expect(s.roundTrips).toBe(1 + Math.floor(70 / (SLICE - Math.floor(SLICE * REFILL_SHARE))));
    // The instance never held more than a slice: what the table says it took, less what it spent.
    expect(db.rows.get('client')!.used - 70).toBeLessThanOrEqual(SLICE);
  });

  it('keeps a bigger stock for a busy client (0.1 s of its rate, at most 1 % of the budget)', async () => {
    const s = instance();
    const budget = 1_000_000;
    for (let i = 0; i < 5000; i++) {
      expect((await hit(s, 'busy', budget)).isBlocked).toBe(false);
      await new Promise((resolve) => setImmediate(resolve));
      now += 1; // 1,000 requests a second: 100 per 0.1 s
    }
    // About one round trip per 70 requests once the stock has grown, instead of one per 7.
    expect(s.roundTrips).toBeLessThan(5000 / 50);
    const held = db.rows.get('busy')!.used - 5000;
    expect(held).toBeLessThanOrEqual(100);
    expect(held).toBeLessThanOrEqual(maxStock(budget));
    // Back from a pause, it starts again at a slice.
    now += 10 * 60_000;
    const trips = s.roundTrips;
    await hit(s, 'busy', budget);
    await new Promise((resolve) => setImmediate(resolve));
    now += 1000;
    await hit(s, 'busy', budget);
    await new Promise((resolve) => setImmediate(resolve));
    expect(s.roundTrips - trips).toBeGreaterThanOrEqual(1);
    expect(db.rows.get('busy')!.used).toBeLessThanOrEqual(2 * SLICE);
    expect(maxStock(1200)).toBe(12);
    expect(maxStock(100)).toBe(SLICE);
  });

  it('gives two instances one budget: round robin over both, exactly the limit passes', async () => {
    const a = instance();
    const b = instance();
    const statuses: boolean[] = [];
    for (let i = 0; i < 200; i++) statuses.push((await hit(i % 2 ? a : b)).isBlocked);
    expect(statuses.filter((blocked) => !blocked)).toHaveLength(100);
    // Another client of the same instances has a whole budget of its own.
    let passed = 0;
    for (let i = 0; i < 200; i++) if (!(await hit(i % 2 ? a : b, 'other')).isBlocked) passed++;
    expect(passed).toBe(100);
  });

  it('refuses in memory until a token frees, with that wait as Retry-After', async () => {
    const s = instance();
    for (let i = 0; i < 10; i++) await hit(s, 'c', 10);
    const refused = await hit(s, 'c', 10);
    // Nothing left in this window, none before: the next window, when this one's 10 weigh
    // 10 * (1 - t) <= 9, that is 6 s into it.
    expect(refused).toMatchObject({ isBlocked: true, timeToBlockExpire: 66 });
    const trips = s.roundTrips;
    for (let i = 0; i < 50; i++) expect((await hit(s, 'c', 10)).isBlocked).toBe(true);
    expect(s.roundTrips).toBe(trips); // refusals cost no round trip
    now += 65_000;
    expect((await hit(s, 'c', 10)).isBlocked).toBe(true);
    now += 1_000;
    expect(await hit(s, 'c', 10)).toMatchObject({ isBlocked: false });
  });

  it('slides: the previous window weighs by the share of it still within the last minute', async () => {
    const s = instance();
    for (let i = 0; i < 10; i++) await hit(s, 'c', 10);
    now += MINUTE + 30_000; // half-way into the next window: the 10 weigh 5
    let passed = 0;
    for (let i = 0; i < 10; i++) if (!(await hit(s, 'c', 10)).isBlocked) passed++;
    expect(passed).toBe(5);
  });

  it('drops the tokens of a window that ended (what an instance loses, at most a slice)', async () => {
    const s = instance();
    await hit(s, 'c', 1000); // a slice of 10 taken, 1 spent, more on the way
    await Promise.resolve();
    now += 2 * MINUTE + 1; // two idle windows: the row starts over
    const before = db.batches.length;
    expect(await hit(s, 'c', 1000)).toMatchObject({ isBlocked: false, totalHits: 1 });
    expect(db.batches.length).toBe(before + 1); // the old tokens were not spent
    expect(db.rows.get('c')).toMatchObject({ previous: 0, used: SLICE });
  });

  it('batches the clients that need a slice at the same time into one statement', async () => {
    const s = instance();
    await hit(s, 'warm-up');
    const records = await Promise.all(Array.from({ length: 50 }, (_, i) => hit(s, `client-${i}`)));
    expect(records.every((r) => !r.isBlocked)).toBe(true);
    // The first went alone; the other 49 waited for it and went together.
    expect(db.batches.slice(1).map((keys) => keys.length)).toEqual([1, 49]);
  });

  it('coalesces concurrent requests of one client into one round trip per slice', async () => {
    const s = instance();
    const records = await Promise.all(Array.from({ length: 25 }, () => hit(s, 'burst')));
    expect(records.filter((r) => !r.isBlocked)).toHaveLength(25);
    expect(db.batches.length).toBeLessThanOrEqual(4);
  });

  it('limits alone while PostgreSQL fails, warning once, then shares again', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn');
    const log = jest.spyOn(Logger.prototype, 'log');
    const s = instance();
    db.failure = new Error('connect ECONNREFUSED');
    for (let i = 0; i < 3; i++) expect((await hit(s, 'c', 3)).isBlocked).toBe(false);
    expect((await hit(s, 'c', 3)).isBlocked).toBe(true); // the instance's own sliding window
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0][0])).toMatch(/ECONNREFUSED/);
    const trips = s.roundTrips;
    now += 500;
    await hit(s, 'd', 3);
    expect(s.roundTrips).toBe(trips); // no round trip while alone
    db.failure = null;
    now += 1_000;
    expect((await hit(s, 'd', 3)).isBlocked).toBe(false);
    expect(s.roundTrips).toBeGreaterThan(trips);
    expect(log).toHaveBeenCalledWith('shared budgets available again');
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it('waits at most RESERVE_WAIT_MS for a slow answer, then counts alone', async () => {
    jest.useFakeTimers({ doNotFake: ['queueMicrotask', 'nextTick'] });
    try {
      const s = instance();
      let release!: () => void;
      db.gate = new Promise((resolve) => (release = resolve));
      const pending = hit(s, 'c', 5);
      await jest.advanceTimersByTimeAsync(RESERVE_WAIT_MS);
      expect(await pending).toMatchObject({ isBlocked: false }); // counted in memory
      release();
      db.gate = null;
      await jest.advanceTimersByTimeAsync(0);
      // The late slice was granted all the same.
      expect(db.rows.get('c')!.used).toBeGreaterThan(0);
    } finally {
      jest.useRealTimers();
    }
  });

  it('drops idle clients from memory, and closes its connection once', async () => {
    const s = instance();
    await hit(s, 'a');
    await hit(s, 'b');
    await new Promise((resolve) => setImmediate(resolve));
    expect(s.size).toBe(2);
    now += MINUTE + 1;
    s.sweep();
    expect(s.size).toBe(0);
    await s.onApplicationShutdown();
    await s.onApplicationShutdown();
    expect(db.closed).toBe(true);
    // After close, requests are still limited (in memory), never failed.
    expect((await hit(s, 'a')).isBlocked).toBe(false);
  });

  it('purges idle budgets now and then, from the statement loop', async () => {
    const s = instance();
    await hit(s, 'a');
    now += 10 * MINUTE;
    await hit(s, 'b');
    await new Promise((resolve) => setImmediate(resolve));
    expect(db.purges).toBe(1);
  });
});

describe(msUntilToken.name, () => {
  const row = (used: number, previous_used: number, elapsed_ms: number) => ({
    used,
    previous_used,
    elapsed_ms,
  });

  it('waits within the window while the previous one weighs too much', () => {
    // 10 - 5 - 10 * (1 - t/60) >= 1 from t = 36 s; now 6 s in.
    expect(msUntilToken(row(5, 10, 6_000), 10, MINUTE)).toBeCloseTo(30_000);
  });

  it('waits for the next window when this one is spent, until it weighs little enough', () => {
    expect(msUntilToken(row(10, 0, 6_000), 10, MINUTE)).toBeCloseTo(54_000 + 6_000);
    // A budget of 1 spent at the start of a window: the approximation takes the hit as spread
    // over the window, so it frees only once the next window is over too (a cost of small limits).
    expect(msUntilToken(row(1, 0, 0), 1, MINUTE)).toBe(2 * MINUTE);
  });
});
