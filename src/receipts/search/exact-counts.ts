/**
 * Exact search totals that a write does not throw away.
 *
 * Every receipt write bumps its tenant's row in `receipt_search_versions` (see
 * `RECEIPT_WRITE_VERSION_SQL`) and stamps the receipts it inserts with the new version
 * (`receipts.inserted_version`). A cached total is kept as (count, version it was counted at).
 * On a later version, if nothing the filter reads changed in between, the total is the cached
 * count plus the matching receipts inserted after that version - a range scan on
 * `(tenant_id, inserted_version)` - instead of a recount.
 *
 * Why that is exact (T = the total of one filter in the snapshot S a statement reads):
 * 1. The version row is read in the same statement, hence the same snapshot, as the counts.
 * 2. A writer takes the version row's lock when it bumps it and keeps it until commit, so
 *    versions are granted and committed in one order: when a snapshot sees version V, it sees
 *    every transaction that stamped a version <= V (each committed before the next one could
 *    bump), and none that stamped a version > V (not committed when V was the latest).
 *    So the receipts a snapshot at V sees are exactly those with inserted_version <= V.
 * 3. Receipts are never deleted, and `inserted_version` and every searchable column except the
 *    statuses are never updated (the application login holds UPDATE only on status and
 *    cancellation columns; test/search-totals.e2e-spec.ts checks that). A filter that reads a
 *    receipt status is recounted when `receipt_status_version` moved past the cached version; one
 *    that reads a demand or split status when `demand_status_version` did; any filter when
 *    `reset_version` did (bulk loads, repairs).
 * Hence T(S at V') = T(S0 at V) + count(filter AND inserted_version > V) in S.
 *
 * The cache is per process and needs no coordination: an entry is only ever combined with
 * versions read from the database in the same statement, so several instances each stay exact.
 */
import { LRUCache } from 'lru-cache';
import { createHash } from 'node:crypto';
import { ParsedSearchRequest } from '@/search/search-request';
import { CompiledSearch } from './receipt-search.sql';

/** What a filter reads that a write can change after the receipt was inserted. */
export interface CountDependencies {
  /** receipts.status (changed by a cancel). */
  readonly receiptStatus: boolean;
  /** demands.status or demand_splits.status (changed by payments and cancels). */
  readonly demandStatus: boolean;
}

/** What a receipt write changed, besides inserting the receipts it stamps. */
export type ReceiptWriteChanges = CountDependencies;

/**
 * The searchable columns a write may change after insertion (`source.column`), and what they
 * depend on. Every other searchable column is fixed once its row is written.
 */
export const MUTABLE_SEARCH_COLUMNS: Readonly<Record<string, keyof CountDependencies>> = {
  'receipt.status': 'receiptStatus',
  // Matching and unmatching a bank line bump the receipt status version (bank-matching.sql.ts).
  'receipt.realised_on': 'receiptStatus',
  'split.status': 'demandStatus',
  'demand.status': 'demandStatus',
};

export function countDependencies(parsed: ParsedSearchRequest): CountDependencies {
  let receiptStatus = false;
  let demandStatus = false;
  for (const f of parsed.filters) {
    const dependency = MUTABLE_SEARCH_COLUMNS[`${f.field.source}.${f.field.column}`];
    if (dependency === 'receiptStatus') receiptStatus = true;
    if (dependency === 'demandStatus') demandStatus = true;
  }
  return { receiptStatus, demandStatus };
}

/**
 * Bumps the tenant's version, records what changed, returns the new version (text) to stamp on
 * the receipts this transaction inserts. Bind: tenant id, receipt status changed, demand or
 * split status changed. Its row lock is held until commit: take it after every other lock.
 */
export const RECEIPT_WRITE_VERSION_SQL = `
  INSERT INTO receipt_search_versions AS v
         (tenant_id, version, receipt_status_version, demand_status_version)
  VALUES ($1, 1, CASE WHEN $2::boolean THEN 1 ELSE 0 END, CASE WHEN $3::boolean THEN 1 ELSE 0 END)
  ON CONFLICT (tenant_id) DO UPDATE
     SET version = v.version + 1,
         receipt_status_version =
           CASE WHEN $2::boolean THEN v.version + 1 ELSE v.receipt_status_version END,
         demand_status_version =
           CASE WHEN $3::boolean THEN v.version + 1 ELSE v.demand_status_version END
  RETURNING version::text AS version`;

/** Above this many writes since the cached version a recount is cheaper than the delta. */
export const MAX_VERSIONS_BEHIND = 5_000;

/** Exact totals kept per (tenant, query); ~150 bytes an entry. */
const COUNT_CACHE_ENTRIES = 20_000;

export type QueryFn = <T>(sql: string, params: unknown[]) => Promise<T[]>;

/** The bind value for the cached version when nothing usable is cached. */
export const NOTHING_CACHED = '-1';

interface CachedCount {
  readonly total: number;
  readonly version: bigint;
}

/**
 * One statement: the tenant's versions and either the full count (no usable cached entry, or a
 * change the filter depends on) or the receipts inserted after the cached version. The unused
 * branch is an uncomputed init plan. `$n+1` is the cached version, -1 when there is none.
 */
export function incrementalCountSql(
  sql: CompiledSearch,
  deps: CountDependencies,
  options: IncrementalCountOptions = {},
): string {
  const cached = `${options.cachedVersionParam ?? `$${sql.countParams.length + 1}`}::bigint`;
  const stale = staleCondition(cached, deps);
  const unless = options.unless ? `${options.unless} THEN NULL WHEN ` : '';
  // Only the branch that can run is written out: planning the other costs PostgreSQL more than
  // running the delta does (about 1 ms per search with both, measured at 400k receipts).
  const total =
    options.only === 'delta'
      ? 'NULL::bigint'
      : options.only === 'full'
        ? `CASE WHEN ${unless}true THEN (${sql.countSql}) END`
        : `CASE WHEN ${unless}${stale} THEN (${sql.countSql}) END`;
  const added =
    options.only === 'full'
      ? 'NULL::bigint'
      : `CASE WHEN ${unless}NOT (${stale}) THEN (${sql.countInsertedAfter(cached)}) END`;
  return (
    `SELECT v.version::text AS version,` +
    ` ${total} AS total,` +
    ` ${added} AS added` +
    ` FROM ${TENANT_VERSIONS}`
  );
}

/**
 * The tenant's write versions as the one-row relation `v` (zeros before its first write), read
 * in the statement that uses them (hence its snapshot). Binds the tenant as `$1`.
 */
export const TENANT_VERSIONS =
  `(SELECT coalesce(max(version), 0) AS version,` +
  ` coalesce(max(receipt_status_version), 0) AS receipt_status_version,` +
  ` coalesce(max(demand_status_version), 0) AS demand_status_version,` +
  ` coalesce(max(reset_version), 0) AS reset_version` +
  ` FROM receipt_search_versions WHERE tenant_id = $1::uuid) v`;

/**
 * True (over TENANT_VERSIONS `v`) when what was cached at version `cached` (a bigint SQL
 * expression, negative when nothing is) cannot be brought up to date with the receipts inserted
 * since: nothing cached, a database restored to an earlier state, a reset, too many writes
 * since, or a change of something the filter reads (deps).
 */
export function staleCondition(cached: string, deps: CountDependencies): string {
  return [
    `${cached} < 0`,
    `v.version < ${cached}`,
    `v.reset_version > ${cached}`,
    `v.version - ${cached} > ${MAX_VERSIONS_BEHIND}`,
    ...(deps.receiptStatus ? [`v.receipt_status_version > ${cached}`] : []),
    ...(deps.demandStatus ? [`v.demand_status_version > ${cached}`] : []),
  ].join(' OR ');
}

export interface IncrementalCountOptions {
  /** Where the cached version is bound; `$n+1` (right after countParams) by default. */
  readonly cachedVersionParam?: string;
  /** A condition under which nothing is counted (total and added are NULL): the total is known. */
  readonly unless?: string;
  /**
   * `full`: always count from scratch; `delta`: only what was inserted since the cached version,
   * and neither (both NULL) when that is stale, so the caller recounts (count()). Default: both,
   * chosen in SQL.
   */
  readonly only?: 'full' | 'delta';
}

/** What the count statement returns (exact-counts' columns). */
export interface CountColumns {
  version: string;
  total: string | null;
  added: string | null;
}

/** A cache lookup made before the statement, settled with the statement's row. */
export interface PreparedCount {
  readonly key: string;
  /** Bind value for the cached version: `-1` when nothing usable is cached. */
  readonly cachedVersion: string;
  readonly cachedTotal: number;
}

export class ExactCounts {
  private readonly cache = new LRUCache<string, CachedCount>({ max: COUNT_CACHE_ENTRIES });

  /**
   * The exact number of receipts matching `sql` for `tenantId` (bound as its `$1`), run through
   * `query` (the caller's transaction, tenant already set for RLS).
   */
  async count(
    query: QueryFn,
    tenantId: string,
    sql: CompiledSearch,
    deps: CountDependencies,
  ): Promise<number> {
    const prepared = this.prepare(tenantId, sql);
    const [row] = await query<CountColumns>(incrementalCountSql(sql, deps), [
      ...sql.countParams,
      prepared.cachedVersion,
    ]);
    return this.settle(prepared, row);
  }

  /** Looks the query up; bind `cachedVersion` where incrementalCountSql expects it. */
  prepare(tenantId: string, sql: CompiledSearch): PreparedCount {
    const key = createHash('sha256')
      .update(`${tenantId}\n${sql.countSql}\n${JSON.stringify(sql.countParams)}`)
      .digest('base64url');
    const cached = this.cache.get(key);
    return {
      key,
      cachedVersion: cached ? cached.version.toString() : NOTHING_CACHED,
      cachedTotal: cached?.total ?? 0,
    };
  }

  /** The exact total from the statement's columns (none NULL-ed by `unless`), cached. */
  settle(prepared: PreparedCount, row: CountColumns): number {
    const version = BigInt(row.version);
    const total =
      row.total !== null ? Number(row.total) : prepared.cachedTotal + Number(row.added ?? 0);
    // Another request may have stored a newer entry meanwhile; both are exact, keep the newer.
    const latest = this.cache.get(prepared.key);
    if (!latest || latest.version <= version) this.cache.set(prepared.key, { total, version });
    return total;
  }
}
