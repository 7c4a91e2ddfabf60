/**
 * Receipt totals (POST /receipts/summary) kept between requests, exact as the search counts are
 * (../search/exact-counts.ts explains why): an entry is the totals and groups of one (tenant,
 * filters, groupBy) at the tenant's write version V. A later request reads, in ONE statement, the
 * tenant's versions and the aggregate of the matching receipts inserted after V, and adds it to
 * the entry; it recounts instead when a write changed something the summary reads (a receipt
 * status under a status filter or groupBy=status, a demand or split status under such a
 * filter), on a reset, or too far behind. Receipts are never deleted and their amounts and
 * group keys never change, so a group's count and amount only grow by what is inserted.
 *
 * The key hashes the tenant with the compiled statement and its binds (which hold the tenant
 * too), so one tenant's entry can never answer another's request. Memory is bounded by size
 * (an entry costs its groups), not by entry count: groupBy=receivedDate keeps hundreds.
 */
import Decimal from 'decimal.js';
import { LRUCache } from 'lru-cache';
import { createHash } from 'node:crypto';
import { CountDependencies, QueryFn } from '../search/exact-counts';
import { CompiledSearch } from '../search/receipt-search.sql';
import {
  summaryDeltaStatement,
  SummaryGroup,
  VersionedSummaryRow,
  versionedSummaryStatement,
} from './receipt-summary.sql';

/** Exact totals: `amount` as decimal text with two places. */
export interface SummaryTotals {
  count: number;
  amount: string;
  /** By key in byte order (the statement's `COLLATE "C"`); [] without groupBy. */
  groups: { key: string; count: number; amount: string }[];
}

interface Total {
  readonly count: number;
  readonly amount: Decimal;
}

interface CachedSummary {
  readonly version: bigint;
  readonly total: Total;
  readonly groups: ReadonlyMap<string, Total>;
}

/** Bytes the cache may hold in all (approximate sizes below); ~50,000 groups. */
export const SUMMARY_CACHE_BYTES = 8 * 1024 * 1024;
const ENTRY_BYTES = 300;
const GROUP_BYTES = 160;

/** COLLATE "C" order of the keys: their UTF-8 bytes. */
const byteOrder = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));

export class SummaryCache {
  private readonly cache = new LRUCache<string, CachedSummary>({
    maxSize: SUMMARY_CACHE_BYTES,
    sizeCalculation: (entry) => ENTRY_BYTES + entry.groups.size * GROUP_BYTES,
  });

  /** Entries held now (tests). */
  get size(): number {
    return this.cache.size;
  }

  /** Their approximate size in bytes, never above SUMMARY_CACHE_BYTES (tests). */
  get bytes(): number {
    return this.cache.calculatedSize;
  }

  /**
   * The exact totals of `sql` (compiled for `tenantId`, bound as its `$1`) through `query` (the
   * request's transaction, tenant set for RLS), from the cache when it can be brought up to date.
   */
  async summarize(
    query: QueryFn,
    tenantId: string,
    sql: CompiledSearch,
    groupBy: SummaryGroup | undefined,
    deps: CountDependencies,
  ): Promise<SummaryTotals> {
    const key = createHash('sha256')
      .update(`${tenantId}\n${groupBy ?? ''}\n${sql.countSql}\n${JSON.stringify(sql.countParams)}`)
      .digest('base64url');
    const cached = this.cache.get(key);
    let entry: CachedSummary | undefined;
    if (cached) {
      const rows = await query<VersionedSummaryRow>(summaryDeltaStatement(sql, groupBy, deps), [
        ...sql.countParams,
        cached.version.toString(),
      ]);
      if (!rows[0].stale) entry = withDelta(cached, rows);
    }
    entry ??= fromRows(
      await query<VersionedSummaryRow>(versionedSummaryStatement(sql, groupBy), sql.countParams),
    );
    // Another request may have stored a newer entry meanwhile; both are exact, keep the newer.
    const latest = this.cache.get(key);
    if (!latest || latest.version <= entry.version) this.cache.set(key, entry);
    return toTotals(entry);
  }
}

function rowTotal(row: VersionedSummaryRow): Total {
  return { count: Number(row.count ?? 0), amount: new Decimal(row.amount ?? 0) };
}

/** An entry from the full statement's rows (the grand total and one row per group). */
function fromRows(rows: VersionedSummaryRow[]): CachedSummary {
  const totalRow = rows.find((row) => row.total_row);
  if (!totalRow) throw new Error('receipt summary: the total row is missing');
  const groups = new Map<string, Total>();
  for (const row of rows) {
    if (!row.total_row && row.key !== null) groups.set(row.key, rowTotal(row));
  }
  return { version: BigInt(totalRow.version), total: rowTotal(totalRow), groups };
}

/** A new entry: `cached` plus the delta statement's rows (never changes `cached`). */
function withDelta(cached: CachedSummary, rows: VersionedSummaryRow[]): CachedSummary {
  const delta = fromRows(rows);
  const add = (a: Total | undefined, b: Total): Total =>
    a ? { count: a.count + b.count, amount: a.amount.plus(b.amount) } : b;
  if (delta.total.count === 0) return { ...cached, version: delta.version };
  const groups = new Map(cached.groups);
  for (const [key, total] of delta.groups) groups.set(key, add(groups.get(key), total));
  return {
    version: delta.version,
    total: add(cached.total, delta.total),
    groups,
  };
}

function toTotals(entry: CachedSummary): SummaryTotals {
  return {
    count: entry.total.count,
    amount: entry.total.amount.toFixed(2),
    groups: [...entry.groups.keys()].sort(byteOrder).map((key) => {
      const total = entry.groups.get(key) as Total;
      return { key, count: total.count, amount: total.amount.toFixed(2) };
    }),
  };
}
