import { parseSearchRequest } from '@/search/search-request';
import { compileSearch } from '../search/receipt-search.sql';
import { RECEIPT_SEARCH } from '../search/search-fields';
import { summaryDependencies } from './receipt-summary.sql';
import { SUMMARY_CACHE_BYTES, SummaryCache } from './summary-cache';
import type { VersionedSummaryRow } from './receipt-summary.sql';

const A = '0b6c3f5e-2d1a-4e8b-9c7d-6f5e4d3c2b1a';
const B = '7e1d2c3b-4a59-4687-9a0b-1c2d3e4f5a6b';

const row = (
  version: number,
  key: string | null,
  count: number,
  amount: string,
  stale = false,
): VersionedSummaryRow => ({
  version: String(version),
  stale,
  key,
  total_row: key === null,
  count: String(count),
  amount,
});

/** A fake database: answers the full statement with `full`, the delta one with `delta`. */
function database(full: VersionedSummaryRow[], delta: VersionedSummaryRow[]) {
  const calls: { kind: 'full' | 'delta'; params: unknown[] }[] = [];
  const query = <T>(text: string, params: unknown[]): Promise<T[]> => {
    const kind = text.includes('inserted_version >') ? 'delta' : 'full';
    calls.push({ kind, params });
    return Promise.resolve((kind === 'full' ? full : delta) as T[]);
  };
  return { query, calls };
}

describe('SummaryCache', () => {
  const parsed = parseSearchRequest(RECEIPT_SEARCH, {}, []);
  const deps = summaryDependencies(parsed, 'paymentMode');

  it('adds what was inserted since the cached version to the cached groups', async () => {
    const db = database(
      [row(5, 'NEFT', 2, '300.10'), row(5, 'UPI', 1, '0.01'), row(5, null, 3, '300.11')],
      [row(7, 'CASH', 1, '10.00'), row(7, 'NEFT', 1, '0.99'), row(7, null, 2, '10.99')],
    );
    const cache = new SummaryCache();
    const sql = compileSearch(parsed, A);
    const first = await cache.summarize(db.query, A, sql, 'paymentMode', deps);
    expect(first).toEqual({
      count: 3,
      amount: '300.11',
      groups: [
        { key: 'NEFT', count: 2, amount: '300.10' },
        { key: 'UPI', count: 1, amount: '0.01' },
      ],
    });
    const second = await cache.summarize(db.query, A, sql, 'paymentMode', deps);
    expect(db.calls.map((c) => c.kind)).toEqual(['full', 'delta']);
    // The cached version is bound after the filter values.
    expect(db.calls[1].params).toEqual([...sql.countParams, '5']);
    expect(second).toEqual({
      count: 5,
      amount: '311.10',
      groups: [
        { key: 'CASH', count: 1, amount: '10.00' },
        { key: 'NEFT', count: 3, amount: '301.09' },
        { key: 'UPI', count: 1, amount: '0.01' },
      ],
    });
    // The next request builds on version 7.
    await cache.summarize(db.query, A, sql, 'paymentMode', deps);
    expect(db.calls[2].params).toEqual([...sql.countParams, '7']);
  });

  it('recounts when the delta statement says the entry is stale', async () => {
    const db = database([row(5, null, 3, '300.11')], [row(9, null, 0, '0', true)]);
    const cache = new SummaryCache();
    const sql = compileSearch(parsed, A);
    await cache.summarize(db.query, A, sql, undefined, deps);
    const again = await cache.summarize(db.query, A, sql, undefined, deps);
    expect(db.calls.map((c) => c.kind)).toEqual(['full', 'delta', 'full']);
    expect(again).toEqual({ count: 3, amount: '300.11', groups: [] });
  });

  it("never answers one tenant from another's entry", async () => {
    const db = database([row(5, null, 3, '300.11')], [row(5, null, 0, '0.00')]);
    const cache = new SummaryCache();
    await cache.summarize(db.query, A, compileSearch(parsed, A), undefined, deps);
    await cache.summarize(db.query, B, compileSearch(parsed, B), undefined, deps);
    expect(db.calls.map((c) => c.kind)).toEqual(['full', 'full']);
    expect(db.calls[1].params[0]).toBe(B);
    // Nor a groupBy from another groupBy's entry.
    await cache.summarize(db.query, A, compileSearch(parsed, A), 'status', deps);
    expect(db.calls.map((c) => c.kind)).toEqual(['full', 'full', 'full']);
  });

  it('keeps its memory bounded however many summaries are asked for', async () => {
    // One group per day of three years: the largest summaries there are.
    const days = Array.from({ length: 1100 }, (_, i) =>
      row(1, new Date(Date.UTC(2024, 0, 1 + i)).toISOString().slice(0, 10), 1, '1.00'),
    );
    const db = database([...days, row(1, null, days.length, `${days.length}.00`)], []);
    const cache = new SummaryCache();
    for (let i = 0; i < 200; i++) {
      const filtered = parseSearchRequest(RECEIPT_SEARCH, {}, [
        { field: 'amount', query: String(i), type: 'GT' },
      ]);
      await cache.summarize(db.query, A, compileSearch(filtered, A), 'receivedDate', deps);
    }
    expect(cache.bytes).toBeLessThanOrEqual(SUMMARY_CACHE_BYTES);
    expect(cache.size).toBeLessThan(200);
    expect(cache.size).toBeGreaterThan(10);
  });
});
