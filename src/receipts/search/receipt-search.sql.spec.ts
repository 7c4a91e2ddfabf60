import fc from 'fast-check';

import { escapeLike } from '@/search/search-conditions';
import { ParsedSearchRequest, parseSearchRequest, RawSearchQuery } from '@/search/search-request';
import { CompiledSearch, compileSearch } from './receipt-search.sql';
import { RECEIPT_SEARCH } from './search-fields';

const TENANT = '0b6f4a39-6a43-4c43-9a34-1f6c0d1e2f30';
const UUID = '123e4567-e89b-12d3-a456-426614174000';

type Filter = { field: string; type: string; query?: string };

const parseReceiptSearch = (query: RawSearchQuery, body: unknown): ParsedSearchRequest =>
  parseSearchRequest(RECEIPT_SEARCH, query, body);

function compile(filters: Filter[] = [], query: RawSearchQuery = {}): CompiledSearch {
  return compileSearch(parseReceiptSearch(query, filters), TENANT);
}

/** The SQL between `WHERE` and `ORDER BY` (or the end). */
function whereOf(sql: string): string {
  return sql.replace(/^.*? WHERE /, '').replace(/ ORDER BY .*$/, '');
}

/** Every $n used in sql must be 1..params.length and every parameter must be used. */
function expectParamsConsistent(sql: string, params: unknown[]): void {
  const used = new Set([...sql.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])));
  expect([...used].sort((a, b) => a - b)).toEqual(
    Array.from({ length: params.length }, (_, i) => i + 1),
  );
}

function count(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}

describe('compileSearch', () => {
  it('compiles an unfiltered request with the default sort', () => {
    const c = compile();
    expect(c.idsSql).toBe(
      'SELECT r.id FROM receipts r WHERE r.tenant_id = $1::uuid ' +
        'ORDER BY r.received_date DESC, r.receipt_number DESC, r.id DESC LIMIT $2 OFFSET $3',
    );
    expect(c.idsParams).toEqual([TENANT, 20, 0]);
    expect(c.countSql).toBe(
      'SELECT count(*)::bigint AS total FROM receipts r WHERE r.tenant_id = $1::uuid',
    );
    expect(c.countParams).toEqual([TENANT]);
  });

  it('binds limit and offset from page and size', () => {
    const c = compile([], { page: '3', size: '50' });
    expect(c.idsSql).toMatch(/LIMIT \$2 OFFSET \$3$/);
    expect(c.idsParams.slice(-2)).toEqual([50, 150]);
    const max = compile([], { page: '10000000', size: '500' });
    expect(max.idsParams.slice(-2)).toEqual([500, 5_000_000_000]);
  });

  it('maps sort fields to receipt columns and appends the id tie-breaker once', () => {
    expect(compile([], { sort: ['created,asc', 'amount'] }).idsSql).toContain(
      'ORDER BY r.created_at ASC, r.amount ASC, r.id DESC LIMIT',
    );
    expect(compile([], { sort: ['id,asc', 'transactionRef,desc'] }).idsSql).toContain(
      'ORDER BY r.id ASC, r.transaction_ref DESC LIMIT',
    );
    expect(compile([], { sort: 'paymentMode,desc' }).idsSql).toContain(
      'ORDER BY r.payment_mode DESC, r.id DESC LIMIT',
    );
  });

  it('appends the id tie-breaker even for a hand-built sort without id', () => {
    const parsed = parseReceiptSearch({}, []);
    const c = compileSearch({ ...parsed, sort: [{ field: 'status', direction: 'asc' }] }, TENANT);
    expect(c.idsSql).toContain('ORDER BY r.status ASC, r.id DESC LIMIT');
  });

  it('selects every match with the count conditions and exposes the order', () => {
    const c = compile([{ field: 'status', type: 'eq', query: 'active' }], { sort: 'amount,asc' });
    expect(c.matchSql('r.id, r.amount')).toBe(
      `SELECT r.id, r.amount FROM receipts r WHERE ${whereOf(c.countSql)}`,
    );
    expect(c.orderBy).toBe('r.amount ASC, r.id DESC');
    expectParamsConsistent(c.matchSql('r.id'), c.countParams);
  });

  it('selects keyword matches from both branches with the count parameters', () => {
    const c = compile([{ field: 'keyword', type: 'contains', query: 'iyer' }]);
    const sql = c.matchSql('r.id');
    expect(sql).toMatch(/^WITH kw AS MATERIALIZED/);
    expect(count(sql, 'UNION ALL')).toBe(1);
    expect(count(sql, 'SELECT r.id FROM receipts r WHERE')).toBe(2);
    expectParamsConsistent(sql, c.countParams);
  });

  it('uses the same conditions and parameters for ids and count', () => {
    const c = compile([
      { field: 'status', type: 'eq', query: 'active' },
      { field: 'buyerName', type: 'contains', query: 'ram' },
    ]);
    expect(whereOf(c.idsSql)).toBe(whereOf(c.countSql));
    expect(c.idsParams.slice(0, c.countParams.length)).toEqual(c.countParams);
    expect(c.idsParams).toHaveLength(c.countParams.length + 2);
    expect(c.countSql).not.toMatch(/JOIN|OVER\s*\(/i);
  });

  describe('receipt columns', () => {
    it.each<[Filter, string, unknown[]]>([
      [{ field: 'id', type: 'eq', query: UUID.toUpperCase() }, 'r.id = $2::uuid', [UUID]],
      [{ field: 'demand', type: 'ne', query: UUID }, 'r.demand_id <> $2::uuid', [UUID]],
      [
        { field: 'booking', type: 'in', query: `${UUID},${UUID}` },
        'r.booking_id = ANY($2::uuid[])',
        [[UUID]],
      ],
      [
        { field: 'demandSplit', type: 'not in', query: UUID },
        'r.demand_split_id <> ALL($2::uuid[])',
        [[UUID]],
      ],
      [{ field: 'status', type: 'eq', query: 'active' }, 'r.status = $2::text', ['ACTIVE']],
      [
        { field: 'paymentMode', type: 'in', query: 'neft,upi' },
        'r.payment_mode = ANY($2::text[])',
        [['NEFT', 'UPI']],
      ],
      [{ field: 'amount', type: '>=', query: '100.50' }, 'r.amount >= $2::numeric', ['100.5']],
      [{ field: 'amount', type: 'lt', query: '-1' }, 'r.amount < $2::numeric', ['-1']],
      [
        { field: 'amount', type: 'between', query: '1,2' },
        'r.amount BETWEEN $2::numeric AND $3::numeric',
        ['1', '2'],
      ],
      [
        { field: 'amount', type: 'in', query: '1,2.5' },
        'r.amount = ANY($2::numeric[])',
        [['1', '2.5']],
      ],
      [
        { field: 'receivedDate', type: 'gt', query: '2025-01-31' },
        'r.received_date > $2::date',
        ['2025-01-31'],
      ],
      [
        { field: 'receivedDate', type: 'between', query: '2025-01-01,2025-01-31' },
        'r.received_date BETWEEN $2::date AND $3::date',
        ['2025-01-01', '2025-01-31'],
      ],
      [
        { field: 'receiptNumber', type: 'eq', query: 'RCP-1' },
        'lower(r.receipt_number) = lower($2::text)',
        ['RCP-1'],
      ],
      [
        { field: 'receiptNumber', type: 'ne', query: 'RCP-1' },
        'lower(r.receipt_number) <> lower($2::text)',
        ['RCP-1'],
      ],
      [
        { field: 'transactionRef', type: 'contains', query: 'utr' },
        'r.transaction_ref ILIKE $2',
        ['%utr%'],
      ],
      [
        { field: 'transactionRef', type: 'not contains', query: 'utr' },
        'r.transaction_ref NOT ILIKE $2',
        ['%utr%'],
      ],
      [
        { field: 'receiptNumber', type: 'starts with', query: 'RCP' },
        'r.receipt_number ILIKE $2',
        ['RCP%'],
      ],
      [
        { field: 'receiptNumber', type: 'ends with', query: '01' },
        'r.receipt_number ILIKE $2',
        ['%01'],
      ],
      [
        { field: 'receiptNumber', type: 'in', query: 'RCP-1, rcp-1 ,Rcp-2' },
        'lower(r.receipt_number) = ANY($2::text[])',
        [['rcp-1', 'rcp-2']],
      ],
      [
        { field: 'receiptNumber', type: 'not in', query: 'A,b' },
        'lower(r.receipt_number) <> ALL($2::text[])',
        [['a', 'b']],
      ],
      [{ field: 'transactionRef', type: 'is null' }, 'r.transaction_ref IS NULL', []],
      [{ field: 'amount', type: 'is not null' }, 'r.amount IS NOT NULL', []],
    ])('%j -> %s', (filter, condition, params) => {
      const c = compile([filter]);
      expect(whereOf(c.countSql)).toBe(`r.tenant_id = $1::uuid AND ${condition}`);
      expect(c.countParams).toEqual([TENANT, ...params]);
      expectParamsConsistent(c.idsSql, c.idsParams);
      expectParamsConsistent(c.countSql, c.countParams);
    });
  });

  describe('nullable milestone', () => {
    it('includes rows without a milestone in negative operators', () => {
      expect(
        whereOf(compile([{ field: 'milestone', type: 'ne', query: UUID }]).countSql),
      ).toContain('d.milestone_id IS DISTINCT FROM $2::uuid');
      expect(
        whereOf(compile([{ field: 'milestone', type: 'not in', query: UUID }]).countSql),
      ).toContain('(d.milestone_id IS NULL OR d.milestone_id <> ALL($2::uuid[]))');
      expect(whereOf(compile([{ field: 'milestone', type: 'is null' }]).countSql)).toContain(
        'd.milestone_id IS NULL)',
      );
      expect(
        whereOf(compile([{ field: 'milestone', type: 'eq', query: UUID }]).countSql),
      ).toContain('d.milestone_id = $2::uuid)');
    });
  });

  describe('EXISTS grouping', () => {
    it('puts all demand filters into one EXISTS on demands', () => {
      const c = compile([
        { field: 'demandMeta.status', type: 'eq', query: 'paid' },
        { field: 'status', type: 'eq', query: 'active' },
        { field: 'demandType', type: 'eq', query: 'milestone' },
        { field: 'demandMeta.dueDate', type: 'lte', query: '2025-03-31' },
      ]);
      expect(count(c.countSql, 'EXISTS')).toBe(1);
      expect(count(c.countSql, 'FROM demands d ')).toBe(1);
      expect(whereOf(c.countSql)).toBe(
        'r.tenant_id = $1::uuid AND r.status = $2::text AND EXISTS (SELECT 1 FROM demands d ' +
          'WHERE d.tenant_id = r.tenant_id AND d.id = r.demand_id AND d.status = $3::text ' +
          'AND d.demand_type = $4::text AND d.due_date <= $5::date)',
      );
      expect(c.countParams).toEqual([TENANT, 'ACTIVE', 'PAID', 'MILESTONE', '2025-03-31']);
    });

    it('puts all split filters into one EXISTS on demand_splits', () => {
      const c = compile([
        { field: 'payerId', type: 'eq', query: UUID },
        { field: 'demandSplitNumber', type: 'starts with', query: 'DS-' },
        { field: 'demandSplitMeta.status', type: 'in', query: 'pending,paid' },
        { field: 'unit', type: 'eq', query: UUID },
      ]);
      expect(count(c.countSql, 'FROM demand_splits s ')).toBe(1);
      expect(count(c.countSql, 'FROM demands d ')).toBe(1);
      expect(whereOf(c.countSql)).toBe(
        'r.tenant_id = $1::uuid AND EXISTS (SELECT 1 FROM demand_splits s ' +
          'WHERE s.tenant_id = r.tenant_id AND s.id = r.demand_split_id AND s.payer_id = $2::uuid ' +
          'AND s.demand_split_number ILIKE $3 AND s.status = ANY($4::text[])) ' +
          'AND EXISTS (SELECT 1 FROM demands d WHERE d.tenant_id = r.tenant_id ' +
          'AND d.id = r.demand_id AND d.unit_id = $5::uuid)',
      );
      expect(c.countParams).toEqual([TENANT, UUID, 'DS-%', ['PENDING', 'PAID'], UUID]);
    });

    it('adds no EXISTS for receipt-only filters', () => {
      const c = compile([{ field: 'amount', type: 'gt', query: '5' }]);
      expect(c.countSql).not.toContain('EXISTS');
    });
  });

  describe('keyword', () => {
    const SCAN =
      '(r.receipt_number ILIKE $2 OR r.transaction_ref ILIKE $2 ' +
      'OR EXISTS (SELECT 1 FROM demands dk WHERE dk.tenant_id = r.tenant_id ' +
      'AND dk.id = r.demand_id AND (dk.demand_number ILIKE $2 OR dk.buyer_name ILIKE $2)))';
    // The page's scanning branch probes demands per receipt read (OFFSET 0: no hashed subplan).
    const PAGE_SCAN = SCAN.replace('$2)))', '$2) OFFSET 0))');
    const CTE =
      'WITH kw AS MATERIALIZED (SELECT ' +
      'ARRAY(SELECT receipt_keyword_demand_ids($1::uuid, $2, 10001)) AS demand_ids, ' +
      'ARRAY(SELECT receipt_keyword_receipt_ids($1::uuid, $2, 20001)) AS receipt_ids)';
    const INDEXED =
      '(r.demand_id = ANY ((SELECT demand_ids FROM kw)::uuid[]) ' +
      'OR r.id = ANY ((SELECT receipt_ids FROM kw)::uuid[]))';
    const WITHIN_CAP =
      '(SELECT cardinality(demand_ids) <= 10000 AND cardinality(receipt_ids) <= 20000 FROM kw)';
    // The count: its own, higher cap on demands and two disjoint semi-joins on the id lists.
    const COUNT_CTE = CTE.replace('$2, 10001)', '$2, 200001)');
    const COUNT_WITHIN_CAP = WITHIN_CAP.replace('<= 10000', '<= 200000');
    const BY_DEMAND = 'r.demand_id IN (SELECT unnest(demand_ids) FROM kw)';
    const BY_NUMBER = `(r.id IN (SELECT unnest(receipt_ids) FROM kw) AND NOT (${BY_DEMAND}))`;

    it('looks a keyword with a trigram up through the index functions, scanning past the caps', () => {
      const c = compile([{ field: 'keyword', type: 'contains', query: 'ram' }]);
      expect(c.countSql).toBe(
        `${COUNT_CTE} SELECT count(*)::bigint AS total FROM (` +
          `SELECT 1 FROM receipts r WHERE r.tenant_id = $1::uuid AND ${BY_DEMAND} AND ${COUNT_WITHIN_CAP} ` +
          `UNION ALL SELECT 1 FROM receipts r WHERE r.tenant_id = $1::uuid AND ${BY_NUMBER} AND ${COUNT_WITHIN_CAP} ` +
          `UNION ALL SELECT 1 FROM receipts r WHERE r.tenant_id = $1::uuid AND ${SCAN} AND NOT ${COUNT_WITHIN_CAP}) r`,
      );
      expect(c.countParams).toEqual([TENANT, '%ram%']);
      const top =
        'ORDER BY r.received_date DESC, r.receipt_number DESC, r.id DESC LIMIT ($3::bigint + $4::bigint)';
      expect(c.idsSql).toBe(
        `${CTE} SELECT r.id FROM (` +
          `(SELECT r.id, r.received_date, r.receipt_number FROM receipts r WHERE r.tenant_id = $1::uuid AND ${INDEXED} AND ${WITHIN_CAP} ${top}) ` +
          `UNION ALL (SELECT r.id, r.received_date, r.receipt_number FROM receipts r WHERE r.tenant_id = $1::uuid AND ${PAGE_SCAN} AND NOT ${WITHIN_CAP} ${top})) r ` +
          'ORDER BY r.received_date DESC, r.receipt_number DESC, r.id DESC LIMIT $3 OFFSET $4',
      );
      expect(c.idsParams).toEqual([TENANT, '%ram%', 20, 0]);
    });

    it('counts the receipts inserted after a version with the scan condition (incremental counts)', () => {
      const c = compile([{ field: 'keyword', type: 'contains', query: 'ram' }]);
      // Only the receipts inserted since: the scan condition on them, no trigram lookups.
      expect(c.countInsertedAfter('$9::bigint')).toBe(
        `SELECT count(*)::bigint AS total FROM receipts r WHERE r.tenant_id = $1::uuid AND ${SCAN} AND r.inserted_version > $9::bigint`,
      );
      const scan = compile([{ field: 'keyword', type: 'contains', query: 'ra' }]);
      expect(scan.countInsertedAfter('$9')).toBe(`${scan.countSql} AND r.inserted_version > $9`);
    });

    it.each(['r', 'ra', '12', 'a-b', 'ab%', '%_\\', 'é1x', '  ab  '])(
      'scans for %j (no run of three letters or digits: no trigram to look up)',
      (query) => {
        const c = compile([{ field: 'keyword', type: 'contains', query }]);
        expect(c.countSql).toBe(
          `SELECT count(*)::bigint AS total FROM receipts r WHERE r.tenant_id = $1::uuid AND ${SCAN}`,
        );
        expect(c.idsSql).not.toContain('receipt_keyword_');
      },
    );

    it('keeps the other filters, identical, in both branches, and selects the sort columns', () => {
      const c = compile(
        [
          { field: 'buyerName', type: 'eq', query: 'Ram' },
          { field: 'keyword', type: 'like', query: 'iyer' },
          { field: 'amount', type: 'gt', query: '1' },
        ],
        { sort: ['amount,asc'] },
      );
      expect(c.countParams).toEqual([TENANT, '%iyer%', '1', 'Ram']);
      const [indexed, scan] = c.idsSql
        .replace(/^.*? FROM \(\(/, '')
        .replace(/\)\) r ORDER BY .*$/, '')
        .split(') UNION ALL (');
      const others =
        'AND r.amount > $3::numeric AND EXISTS (SELECT 1 FROM demands d WHERE d.tenant_id = r.tenant_id ' +
        'AND d.id = r.demand_id AND lower(d.buyer_name) = lower($4::text))';
      const top = 'ORDER BY r.amount ASC, r.id DESC LIMIT ($5::bigint + $6::bigint)';
      expect(indexed).toBe(
        `SELECT r.id, r.amount FROM receipts r WHERE r.tenant_id = $1::uuid AND ${INDEXED} ${others} AND ${WITHIN_CAP} ${top}`,
      );
      expect(scan).toBe(
        `SELECT r.id, r.amount FROM receipts r WHERE r.tenant_id = $1::uuid AND ${PAGE_SCAN} ${others} AND NOT ${WITHIN_CAP} ${top}`,
      );
      for (const match of [BY_DEMAND, BY_NUMBER])
        expect(c.countSql).toContain(
          `SELECT 1 FROM receipts r WHERE r.tenant_id = $1::uuid AND ${match} ${others} AND ${COUNT_WITHIN_CAP} UNION ALL `,
        );
      expect(c.countSql).toContain(
        `SELECT 1 FROM receipts r WHERE r.tenant_id = $1::uuid AND ${SCAN} ${others} AND NOT ${COUNT_WITHIN_CAP}) r`,
      );
      expect(c.idsSql).toMatch(/\) r ORDER BY r\.amount ASC, r\.id DESC LIMIT \$5 OFFSET \$6$/);
      expectParamsConsistent(c.idsSql, c.idsParams);
      expectParamsConsistent(c.countSql, c.countParams);
    });

    it('looks up the first indexable keyword only; further keywords scan inline', () => {
      const c = compile([
        { field: 'keyword', type: 'contains', query: 'ab' },
        { field: 'keyword', type: 'contains', query: 'kapoor' },
        { field: 'keyword', type: 'contains', query: 'rct' },
      ]);
      expect(c.countParams).toEqual([TENANT, '%kapoor%', '%ab%', '%rct%']);
      expect(count(c.countSql, 'receipt_keyword_demand_ids(')).toBe(1);
      expect(c.countSql).toContain('receipt_keyword_demand_ids($1::uuid, $2, 200001)');
      expect(c.idsSql).toContain('receipt_keyword_demand_ids($1::uuid, $2, 10001)');
      expect(count(c.countSql, 'r.receipt_number ILIKE $3')).toBe(3);
      expect(count(c.countSql, 'r.receipt_number ILIKE $4')).toBe(3);
      expect(count(c.countSql, 'r.receipt_number ILIKE $2')).toBe(1);
      expectParamsConsistent(c.idsSql, c.idsParams);
    });

    it('keeps keyword separate from the demand EXISTS and numbers params in order', () => {
      const c = compile([
        { field: 'buyerName', type: 'eq', query: 'Ram' },
        { field: 'keyword', type: 'like', query: 'x' },
        { field: 'amount', type: 'gt', query: '1' },
      ]);
      expect(c.countParams).toEqual([TENANT, '%x%', '1', 'Ram']);
      expect(whereOf(c.countSql)).toMatch(
        /^r\.tenant_id = \$1::uuid AND \(r\.receipt_number ILIKE \$2 .*\) AND r\.amount > \$3::numeric AND EXISTS \(SELECT 1 FROM demands d WHERE .* lower\(d\.buyer_name\) = lower\(\$4::text\)\)$/,
      );
      expectParamsConsistent(c.idsSql, c.idsParams);
    });

    it('escapes wildcards on the indexed path too', () => {
      const c = compile([{ field: 'keyword', type: 'contains', query: 'RCT_1%\\x' }]);
      expect(c.countSql).toContain('receipt_keyword_receipt_ids($1::uuid, $2, 20001)');
      expect(c.countParams).toEqual([TENANT, '%RCT\\_1\\%\\\\x%']);
    });
  });

  describe('LIKE escaping', () => {
    it('escapes %, _ and backslash', () => {
      expect(escapeLike('50%_a\\b')).toBe('50\\%\\_a\\\\b');
      expect(escapeLike('plain')).toBe('plain');
    });

    it('binds escaped patterns', () => {
      const c = compile([
        { field: 'receiptNumber', type: 'contains', query: '100%' },
        { field: 'transactionRef', type: 'starts with', query: 'a_b' },
        { field: 'keyword', type: 'contains', query: '\\' },
      ]);
      expect(c.countParams).toEqual([TENANT, '%100\\%%', 'a\\_b%', '%\\\\%']);
    });

    it('does not escape equality or IN values', () => {
      const c = compile([
        { field: 'receiptNumber', type: 'eq', query: 'A_1%' },
        { field: 'transactionRef', type: 'in', query: 'X_1' },
      ]);
      expect(c.countParams).toEqual([TENANT, 'A_1%', ['x_1']]);
    });
  });

  describe('injection safety', () => {
    const evil = "'; drop table x; --";

    it('keeps user text out of the SQL', () => {
      const c = compile([
        { field: 'receiptNumber', type: 'eq', query: evil },
        { field: 'buyerName', type: 'contains', query: evil },
        { field: 'keyword', type: 'contains', query: evil },
        { field: 'transactionRef', type: 'in', query: evil },
        { field: 'demandSplitNumber', type: 'ends with', query: evil },
      ]);
      for (const sql of [c.idsSql, c.countSql]) {
        expect(sql).not.toContain('drop');
        expect(sql).not.toContain("'");
        expect(sql).not.toContain('--');
      }
      // the indexed keyword (its lookup leads the SQL), then receipt conditions in body order, then
      // the split EXISTS, then the demand EXISTS
      expect(c.countParams).toEqual([TENANT, `%${evil}%`, evil, [evil], `%${evil}`, `%${evil}%`]);
    });

    it('keeps the tenant id out of the SQL', () => {
      const c = compileSearch(parseReceiptSearch({}, []), "x'; drop table receipts; --");
      expect(c.idsSql).not.toContain('drop');
      expect(c.countParams[0]).toBe("x'; drop table receipts; --");
    });

    it('requires a tenant id', () => {
      expect(() => compileSearch(parseReceiptSearch({}, []), '')).toThrow(/tenant id/);
    });

    it('never puts text values into SQL and always numbers params consistently', () => {
      const textField = fc.constantFrom(
        'receiptNumber',
        'transactionRef',
        'buyerName',
        'demandNumber',
        'demandSplitNumber',
      );
      const textOp = fc.constantFrom(
        'eq',
        'ne',
        'contains',
        'not contains',
        'starts with',
        'ends with',
        'in',
      );
      const marker = fc
        .string({ minLength: 1, maxLength: 30 })
        .map((s) => `Zq${s.split(String.fromCharCode(0)).join('').replace(/,/g, '')}`);
      fc.assert(
        fc.property(
          fc.array(fc.tuple(textField, textOp, marker), { minLength: 1, maxLength: 12 }),
          fc.array(fc.constantFrom('amount,desc', 'status', 'created,ASC', 'id'), {
            maxLength: 3,
          }),
          (filters, sort) => {
            const c = compileSearch(
              parseReceiptSearch(
                { sort: [...new Set(sort)] },
                filters.map(([field, type, query]) => ({ field, type, query })),
              ),
              TENANT,
            );
            expect(c.idsSql).not.toMatch(/Zq/i);
            expect(c.countSql).not.toMatch(/Zq/i);
            expectParamsConsistent(c.idsSql, c.idsParams);
            expectParamsConsistent(c.countSql, c.countParams);
            expect(count(c.countSql, 'FROM demands d ')).toBeLessThanOrEqual(1);
            expect(count(c.countSql, 'FROM demand_splits s ')).toBeLessThanOrEqual(1);
          },
        ),
        { numRuns: 200 },
      );
    });
  });
});
