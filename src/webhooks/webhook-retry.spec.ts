import { decideRetry, RETRY_JITTER } from './webhook-retry';

describe('decideRetry', () => {
  const now = Date.parse('2026-11-24T10:00:00.000Z');
  const scheduleMs = [10_000, 60_000, 300_000];
  const facts = { scheduleMs, now, random: 0.5 };

  it('a success is delivered, whatever the attempt', () => {
    expect(decideRetry({ ...facts, attempt: 1, succeeded: true })).toEqual({ kind: 'delivered' });
    expect(decideRetry({ ...facts, attempt: 4, succeeded: true })).toEqual({ kind: 'delivered' });
  });

  it('a failed first attempt is retried after the first wait of the schedule', () => {
    expect(decideRetry({ ...facts, attempt: 1, succeeded: false })).toEqual({
      kind: 'retry',
      at: new Date(now + 10_000),
    });
  });

  it('attempt n waits the n-th entry, up to the last one', () => {
    expect(decideRetry({ ...facts, attempt: 2, succeeded: false })).toEqual({
      kind: 'retry',
      at: new Date(now + 60_000),
    });
    expect(decideRetry({ ...facts, attempt: 3, succeeded: false })).toEqual({
      kind: 'retry',
      at: new Date(now + 300_000),
    });
  });

  it('the attempt after the last entry is dead', () => {
    expect(decideRetry({ ...facts, attempt: 4, succeeded: false })).toEqual({ kind: 'dead' });
    expect(decideRetry({ ...facts, attempt: 9, succeeded: false })).toEqual({ kind: 'dead' });
  });

  it('an empty schedule gives no retry at all', () => {
    expect(decideRetry({ ...facts, scheduleMs: [], attempt: 1, succeeded: false })).toEqual({
      kind: 'dead',
    });
  });

  it('the jitter spans ±20 % of the wait', () => {
    const at = (random: number) => {
      const decision = decideRetry({ ...facts, random, attempt: 1, succeeded: false });
      if (decision.kind !== 'retry') throw new Error(decision.kind);
      return decision.at.getTime() - now;
    };
    expect(RETRY_JITTER).toBe(0.2);
    expect(at(0)).toBe(8_000);
    expect(at(0.5)).toBe(10_000);
    expect(at(0.999999)).toBeCloseTo(12_000, -1);
    expect(at(0.999999)).toBeLessThan(12_000);
  });
});
