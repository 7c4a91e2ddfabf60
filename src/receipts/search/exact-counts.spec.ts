import {
  countDependencies,
  ExactCounts,
  incrementalCountSql,
  MAX_VERSIONS_BEHIND,
  MUTABLE_SEARCH_COLUMNS,
  QueryFn,
} from './exact-counts';
import { parseSearchRequest } from '@/search/search-request';
import { CompiledSearch, compileSearch } from './receipt-search.sql';
import { RECEIPT_SEARCH, SEARCH_FIELDS } from './search-fields';

const TENANT = '0b6f4a39-6a43-4c43-9a34-1f6c0d1e2f30';
const OTHER = '5d1c3f0e-2b8a-4c55-9f0e-7a6b5c4d3e2f';

type Filter = { field: string; type: string; query?: string };
const parse = (filters: Filter[]) => parseSearchRequest(RECEIPT_SEARCH, {}, filters);
const compile = (filters: Filter[], tenant = TENANT): CompiledSearch =>
  compileSearch(parse(filters), tenant);

const DATE_AND_MODE: Filter[] = [
  { field: 'receivedDate', type: 'between', query: '2025-06-01,2025-08-31' },
  { field: 'paymentMode', type: 'in', query: 'NEFT,RTGS,UPI' },
];

interface Row {
  version: string;
  total: string | null;
  added: string | null;
}

/** A stand-in database: answers with `next`, records the cached version each call passed. */
function fakeDb(next: () => Row) {
  const passed: string[] = [];
  const query = ((_sql: string, params: unknown[]) => {
    passed.push(String(params[params.length - 1]));
    return Promise.resolve([next()]);
  }) as QueryFn;
  return { query, passed };
}

describe('countDependencies', () => {
  it('finds the statuses a filter reads', () => {
    expect(countDependencies(parse(DATE_AND_MODE))).toEqual({
      receiptStatus: false,
      demandStatus: false,
    });
    expect(countDependencies(parse([{ field: 'status', type: 'eq', query: 'ACTIVE' }]))).toEqual({
      receiptStatus: true,
      demandStatus: false,
    });
    for (const field of ['demandMeta.status', 'demandSplitMeta.status']) {
      expect(countDependencies(parse([{ field, type: 'eq', query: 'PAID' }]))).toEqual({
        receiptStatus: false,
        demandStatus: true,
      });
    }
  });

  it('names only columns of the search catalogue', () => {
    const columns = new Set(SEARCH_FIELDS.map((f) => `${f.source}.${f.column}`));
    for (const key of Object.keys(MUTABLE_SEARCH_COLUMNS)) expect(columns).toContain(key);
  });
});

describe('incrementalCountSql', () => {
  it('binds the cached version after the filter values and reads the versions of the tenant', () => {
    const sql = compile(DATE_AND_MODE);
    const text = incrementalCountSql(sql, countDependencies(parse(DATE_AND_MODE)));
    const n = sql.countParams.length + 1;
    expect(text).toContain(`(${sql.countSql})`);
    expect(text).toContain(`(${sql.countSql} AND r.inserted_version > $${n}::bigint)`);
    expect(text).toContain('FROM receipt_search_versions WHERE tenant_id = $1::uuid');
    expect(text).toContain(`v.version - $${n}::bigint > ${MAX_VERSIONS_BEHIND}`);
    expect(text).not.toContain('receipt_status_version >');
    expect(text).not.toContain('demand_status_version >');
  });

  it('recounts status filters when a status changed', () => {
    const filters = [{ field: 'status', type: 'eq', query: 'ACTIVE' }, ...DATE_AND_MODE];
    const text = incrementalCountSql(compile(filters), countDependencies(parse(filters)));
    expect(text).toContain('v.receipt_status_version > $6::bigint');
    expect(text).not.toContain('demand_status_version >');
  });
});

describe('ExactCounts', () => {
  it('counts in full first, then adds what was inserted since the cached version', async () => {
    const rows: Row[] = [
      { version: '7', total: '100', added: null },
      { version: '9', total: null, added: '3' },
      { version: '9', total: null, added: '0' },
    ];
    const db = fakeDb(() => rows.shift()!);
    const counts = new ExactCounts();
    const sql = compile(DATE_AND_MODE);
    const deps = countDependencies(parse(DATE_AND_MODE));
    expect(await counts.count(db.query, TENANT, sql, deps)).toBe(100);
    expect(await counts.count(db.query, TENANT, sql, deps)).toBe(103);
    expect(await counts.count(db.query, TENANT, sql, deps)).toBe(103);
    expect(db.passed).toEqual(['-1', '7', '9']);
  });

  it('takes a full count over the cached one when the database recounted', async () => {
    const rows: Row[] = [
      { version: '7', total: '100', added: null },
      { version: '8', total: '99', added: null },
    ];
    const db = fakeDb(() => rows.shift()!);
    const counts = new ExactCounts();
    const sql = compile([]);
    const deps = countDependencies(parse([]));
    await counts.count(db.query, TENANT, sql, deps);
    expect(await counts.count(db.query, TENANT, sql, deps)).toBe(99);
  });

  it('keeps tenants and filters apart', async () => {
    const db = fakeDb(() => ({ version: '1', total: '5', added: null }));
    const counts = new ExactCounts();
    const none = countDependencies(parse([]));
    await counts.count(db.query, TENANT, compile([]), none);
    await counts.count(db.query, OTHER, compile([], OTHER), none);
    await counts.count(db.query, TENANT, compile(DATE_AND_MODE), none);
    expect(db.passed).toEqual(['-1', '-1', '-1']);
  });
});
