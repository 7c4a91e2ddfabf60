import { SlidingWindowStorage } from '@/http/throttling/sliding-window-storage';

describe(SlidingWindowStorage.name, () => {
  const MINUTE = 60_000;
  let now: number;
  let storage: SlidingWindowStorage;
  const hit = (key = 'client', limit = 3, block = MINUTE) =>
    storage.increment(key, MINUTE, limit, block, 'default');

  beforeEach(() => {
    now = 1_700_000_000_000;
    storage = new SlidingWindowStorage(() => now);
  });

  it('allows `limit` hits a window, refuses the next with the time to wait, per client', async () => {
    const records = [await hit(), await hit(), await hit()];
    expect(records.map((r) => [r.totalHits, r.isBlocked])).toEqual([
      [1, false],
      [2, false],
      [3, false],
    ]);
    expect(records[0].timeToExpire).toBe(60);
    const refused = await hit();
    expect(refused).toMatchObject({ isBlocked: true, timeToBlockExpire: 60 });
    expect((await hit('another client')).isBlocked).toBe(false);
  });

  it('blocks for blockDuration without counting refused hits, then slides', async () => {
    for (let i = 0; i < 4; i++) await hit();
    now += 30_000;
    expect(await hit()).toMatchObject({ isBlocked: true, timeToBlockExpire: 30 });
    now += 30_000; // the block is over and the first three hits have left the window
    const after = await hit();
    expect(after).toMatchObject({ isBlocked: false, totalHits: 1 });
  });

  it('forgets hits as they leave the window, second by second', async () => {
    await hit('c', 2, 0);
    now += 40_000;
    await hit('c', 2, 0);
    expect((await hit('c', 2, 0)).isBlocked).toBe(true);
    now += 20_000; // the first hit is now 60 s old: one place free
    const record = await hit('c', 2, 0);
    expect(record).toMatchObject({ isBlocked: false, totalHits: 2 });
    // The oldest hit left is the one 20 s ago: it frees its place in 40 s.
    expect(record.timeToExpire).toBe(40);
  });

  it('keeps memory per client constant however many hits, and drops idle clients', async () => {
    for (let i = 0; i < 100_000; i++) {
      await storage.increment('busy', MINUTE, 1e9, MINUTE, 'default');
      now += 1;
    }
    // The window at 1 s resolution: the 59 whole seconds before this one (1,000 hits each) and
    // this second so far (this hit).
    expect((await storage.increment('busy', MINUTE, 1e9, MINUTE, 'default')).totalHits).toBe(
      59_001,
    );
    await hit('idle');
    expect(storage.size).toBe(2);
    now += 2 * MINUTE;
    storage.sweep();
    expect(storage.size).toBe(0);
  });
});
