import { Client } from 'pg';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { compileSearch } from '@/receipts/search/receipt-search.sql';
import { RECEIPT_SEARCH } from '@/receipts/search/search-fields';
import { parseSearchRequest } from '@/search/search-request';
import { Tenant } from '@/http/tenancy/tenant.entity';
import {
  compareText,
  defaultOrder,
  FixtureReceipt,
  seedSearchFixtures,
} from './support/search-fixtures';
import { createTestApp, ownerDataSource, TestApp } from './support/test-app';
import { as } from './support/tokens';

type Filter = { field: string; query?: string; type: string };

describe('POST /receipts/search', () => {
  let t: TestApp;
  let owner: DataSource;
  let tenant: Tenant;
  let other: Tenant;
  let data: FixtureReceipt[];
  let otherData: FixtureReceipt[];

  beforeAll(async () => {
    t = await createTestApp();
    owner = await ownerDataSource(t.ownerUrl);
    tenant = await t.createTenant();
    other = await t.createTenant({ currency: 'USD', locale: 'en-US' });
    data = await seedSearchFixtures(owner, tenant.id, 'A');
    otherData = await seedSearchFixtures(owner, other.id, 'B');
  });
  afterAll(async () => {
    await owner.destroy();
    await t.close();
  });

  const search = (filters: unknown, query: Record<string, unknown> = {}, key = tenant.key) =>
    request(t.server)
      .post('/receipts/search')
      .query(query)
      .set(as(key))
      .send(filters as object);

  /** Runs a search for all rows (size 500) and returns ids in order. */
  const ids = async (filters: Filter[], query: Record<string, unknown> = {}) => {
    const res = await search(filters, { size: 500, ...query });
    expect(res.status).toBe(200);
    return (res.body.content as { id: string }[]).map((r) => r.id);
  };
  const expected = (predicate: (r: FixtureReceipt) => boolean) =>
    data
      .filter(predicate)
      .sort(defaultOrder)
      .map((r) => r.id);

  it('returns the page object with embedded split and demand, money per the tenant', async () => {
    const res = await search([], { size: 5 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      empty: false,
      first: true,
      last: false,
      from: 1,
      to: 5,
      pageNumber: 0,
      pageSize: 5,
      totalElements: data.length,
      totalPages: Math.ceil(data.length / 5),
    });
    const top = [...data].sort(defaultOrder)[0];
    const r = res.body.content[0];
    expect(r).toEqual({
      id: top.id,
      demandSplit: top.demandSplit,
      demand: top.demand,
      booking: top.booking,
      payerType: top.payerType,
      receiptNumber: top.receiptNumber,
      amount: {
        amount: Number(top.amount),
        currency: 'INR',
        currencySymbol: '₹',
        formatted: expect.any(String),
      },
      paymentMode: top.paymentMode,
      transactionRef: top.transactionRef,
      receivedDate: top.receivedDate,
      status: top.status,
      statusReason: null,
      statusChangedOn: null,
      statusChangedBy: null,
      realisedOn: null,
      bankLine: null,
      refundedOn: null,
      demandSplitMeta: {
        id: top.demandSplit,
        demand: top.demand,
        payerType: top.payerType,
        payerId: top.payerId,
        demandSplitNumber: top.demandSplitNumber,
        amount: { amount: 100000, currency: 'INR', currencySymbol: '₹', formatted: '1,00,000.00' },
        paidAmount: expect.objectContaining({ currency: 'INR' }),
        pendingAmount: expect.objectContaining({ currency: 'INR' }),
        status: top.splitStatus,
      },
      demandMeta: {
        id: top.demand,
        booking: top.booking,
        unit: top.unit,
        milestone: top.milestone,
        demandType: top.demandType,
        demandNumber: top.demandNumber,
        totalAmount: {
          amount: 200000,
          currency: 'INR',
          currencySymbol: '₹',
          formatted: '2,00,000.00',
        },
        dueDate: top.dueDate,
        remarks: 'fixture demand',
        status: top.demandStatus,
        receivedAmount: expect.objectContaining({ currency: 'INR' }),
        pendingAmount: expect.objectContaining({ currency: 'INR' }),
        buyerName: top.buyerName,
      },
    });
    const split = r.demandSplitMeta;
    expect(split.paidAmount.amount + split.pendingAmount.amount).toBeCloseTo(100000, 2);
  });

  it('formats money with the tenant locale (en-US tenant)', async () => {
    const res = await search(
      [{ field: 'amount', query: '1000,1000000', type: 'BETWEEN' }],
      { size: 1 },
      other.key,
    );
    expect(res.body.content[0].demandMeta.totalAmount).toEqual({
      amount: 200000,
      currency: 'USD',
      currencySymbol: '$',
      formatted: '200,000.00',
    });
  });

  it('treats no body like an empty array', async () => {
    const res = await request(t.server).post('/receipts/search').set(as(tenant.key));
    expect(res.status).toBe(200);
    expect(res.body.totalElements).toBe(data.length);
  });

  describe('filters: each type on each field type', () => {
    const cases: [string, Filter[], (r: FixtureReceipt) => boolean][] = [
      // uuid
      ['uuid EQUALS', [{ field: 'demand', query: '', type: 'EQUALS' }], () => true],
      [
        'enum EQUALS (case-insensitive value)',
        [{ field: 'paymentMode', query: 'neft', type: 'eq' }],
        (r) => r.paymentMode === 'NEFT',
      ],
      [
        'enum NOT_EQUALS',
        [{ field: 'status', query: 'ACTIVE', type: '!=' }],
        (r) => r.status !== 'ACTIVE',
      ],
      [
        'enum IN',
        [{ field: 'paymentMode', query: 'NEFT, RTGS,UPI', type: 'in' }],
        (r) => ['NEFT', 'RTGS', 'UPI'].includes(r.paymentMode),
      ],
      [
        'enum NOT_IN',
        [{ field: 'payerType', query: 'BANK', type: 'not_in' }],
        (r) => r.payerType !== 'BANK',
      ],
      [
        'text EQUALS is case-insensitive',
        [{ field: 'receiptNumber', query: 'a-rct-005', type: 'EQUALS' }],
        (r) => r.receiptNumber === 'A-RCT-005',
      ],
      [
        'text CONTAINS',
        [{ field: 'receiptNumber', query: 'rct-01', type: 'like' }],
        (r) => r.receiptNumber.includes('RCT-01'),
      ],
      [
        'text CONTAINS treats % and _ literally',
        [{ field: 'transactionRef', query: '_x%', type: 'CONTAINS' }],
        (r) => r.transactionRef.toLowerCase().includes('_x%'),
      ],
      [
        'text NOT_CONTAINS',
        [{ field: 'transactionRef', query: 'UTR', type: 'NOT_CONTAINS' }],
        (r) => !r.transactionRef.includes('UTR'),
      ],
      [
        'text STARTS_WITH',
        [{ field: 'demandNumber', query: 'A-DMD-1', type: 'STARTS_WITH' }],
        (r) => r.demandNumber.startsWith('A-DMD-1'),
      ],
      [
        'text ENDS_WITH',
        [{ field: 'demandSplitMeta.demandSplitNumber', query: '/s1', type: 'ends_with' }],
        (r) => r.demandSplitNumber.endsWith('/S1'),
      ],
      [
        'text EQUALS empty string',
        [{ field: 'transactionRef', query: '', type: 'EQUALS' }],
        (r) => r.transactionRef === '',
      ],
      [
        'text IN',
        [{ field: 'buyerName', query: 'ananya iyer,Meera Nair', type: 'IN' }],
        (r) => ['Ananya Iyer', 'Meera Nair'].includes(r.buyerName),
      ],
      [
        'number GT',
        [{ field: 'amount', query: '10000', type: 'GT' }],
        (r) => Number(r.amount) > 10000,
      ],
      [
        'number GTE',
        [{ field: 'amount', query: '10000.25', type: '>=' }],
        (r) => Number(r.amount) >= 10000.25,
      ],
      [
        'number LT',
        [{ field: 'amount', query: '5000', type: 'lt' }],
        (r) => Number(r.amount) < 5000,
      ],
      [
        'number LTE',
        [{ field: 'amount', query: '5000.5', type: 'LTE' }],
        (r) => Number(r.amount) <= 5000.5,
      ],
      [
        'number EQUALS',
        [{ field: 'amount', query: '3000.50', type: 'EQUALS' }],
        (r) => r.amount === '3000.50',
      ],
      [
        'number BETWEEN (inclusive)',
        [{ field: 'amount', query: '2000.25,6000', type: 'BETWEEN' }],
        (r) => Number(r.amount) >= 2000.25 && Number(r.amount) <= 6000,
      ],
      [
        'date BETWEEN (inclusive)',
        [{ field: 'receivedDate', query: '2025-03-04,2025-06-07', type: 'BETWEEN' }],
        (r) => r.receivedDate >= '2025-03-04' && r.receivedDate <= '2025-06-07',
      ],
      [
        'date GTE on a joined field',
        [{ field: 'demandMeta.dueDate', query: '2025-04-01', type: 'GTE' }],
        (r) => r.dueDate >= '2025-04-01',
      ],
      [
        'date NOT_EQUALS',
        [{ field: 'receivedDate', query: '2025-01-01', type: 'ne' }],
        (r) => r.receivedDate !== '2025-01-01',
      ],
      [
        'nullable uuid IS_NULL',
        [{ field: 'milestone', type: 'IS_NULL' }],
        (r) => r.milestone === null,
      ],
      [
        'nullable uuid IS_NOT_NULL',
        [{ field: 'demandMeta.milestone', query: 'ignored', type: 'is_not_null' }],
        (r) => r.milestone !== null,
      ],
      [
        'enum on split',
        [{ field: 'demandSplitMeta.status', query: 'PARTIALLY_PAID', type: 'EQUALS' }],
        (r) => r.splitStatus === 'PARTIALLY_PAID',
      ],
      [
        'enum on demand with alias',
        [{ field: 'demandType', query: 'MILESTONE', type: 'EQUALS' }],
        (r) => r.demandType === 'MILESTONE',
      ],
      [
        'keyword across buyer name',
        [{ field: 'keyword', query: 'KAPOOR', type: 'CONTAINS' }],
        (r) => r.buyerName === 'Rohan Kapoor',
      ],
      [
        'keyword across receipt number',
        [{ field: 'keyword', query: 'rct-02', type: 'CONTAINS' }],
        (r) => r.receiptNumber.includes('RCT-02'),
      ],
      [
        'AND of several filters on three tables',
        [
          { field: 'status', query: 'ACTIVE', type: 'EQUALS' },
          { field: 'payerId', query: '', type: 'IS_NOT_NULL' },
          { field: 'demandMeta.status', query: 'PARTIALLY_PAID', type: 'EQUALS' },
          { field: 'amount', query: '4000', type: 'GT' },
        ],
        (r) =>
          r.status === 'ACTIVE' && r.demandStatus === 'PARTIALLY_PAID' && Number(r.amount) > 4000,
      ],
    ];
    it.each(cases.filter(([name]) => name !== 'uuid EQUALS'))(
      '%s',
      async (_name, filters, predicate) => {
        const want = expected(predicate);
        expect(want.length).toBeGreaterThan(0); // the fixture exercises the filter
        expect(await ids(filters)).toEqual(want);
      },
    );

    it('uuid EQUALS / NOT_EQUALS / IN on receipt and joined fields', async () => {
      const pick = data[5];
      expect(await ids([{ field: 'id', query: pick.id.toUpperCase(), type: 'EQUALS' }])).toEqual([
        pick.id,
      ]);
      expect(await ids([{ field: 'demand', query: pick.demand, type: 'EQUALS' }])).toEqual(
        expected((r) => r.demand === pick.demand),
      );
      expect(await ids([{ field: 'booking', query: pick.booking, type: 'NE' }])).toEqual(
        expected((r) => r.booking !== pick.booking),
      );
      expect(
        await ids([
          {
            field: 'demandSplit',
            query: `${data[0].demandSplit},${data[9].demandSplit}`,
            type: 'IN',
          },
        ]),
      ).toEqual(
        expected(
          (r) => r.demandSplit === data[0].demandSplit || r.demandSplit === data[9].demandSplit,
        ),
      );
      expect(
        await ids([{ field: 'demandSplitMeta.payerId', query: pick.payerId, type: 'EQUALS' }]),
      ).toEqual(expected((r) => r.payerId === pick.payerId));
      expect(await ids([{ field: 'unit', query: pick.unit, type: 'EQUALS' }])).toEqual(
        expected((r) => r.unit === pick.unit),
      );
    });
  });

  describe('sorting', () => {
    it('defaults to receivedDate desc, receiptNumber desc', async () => {
      expect(await ids([])).toEqual([...data].sort(defaultOrder).map((r) => r.id));
    });
    it('sorts by amount asc then by the id tie-breaker', async () => {
      const want = [...data]
        .sort((a, b) => Number(a.amount) - Number(b.amount) || compareText(b.id, a.id))
        .map((r) => r.id);
      expect(await ids([], { sort: 'amount,asc' })).toEqual(want);
    });
    it('accepts repeated sort parameters', async () => {
      const want = [...data]
        .sort(
          (a, b) =>
            compareText(a.paymentMode, b.paymentMode) ||
            compareText(b.receiptNumber, a.receiptNumber) ||
            compareText(b.id, a.id),
        )
        .map((r) => r.id);
      expect(await ids([], { sort: ['paymentMode,asc', 'receiptNumber,DESC'] })).toEqual(want);
    });
    it('rejects an unknown sort field listing the allowed ones', async () => {
      const res = await search([], { sort: 'buyerName,asc' });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('SEARCH_INVALID_SORT');
      expect(res.body.detail).toContain('receivedDate');
    });
    it('rejects an unknown direction', async () => {
      const res = await search([], { sort: 'amount,up' });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('SEARCH_INVALID_SORT');
    });
  });

  describe('paging', () => {
    const total = () => data.length; // 24
    it('first page', async () => {
      const res = await search([], { page: 0, size: 10 });
      expect(res.body).toMatchObject({
        first: true,
        last: false,
        from: 1,
        to: 10,
        totalElements: total(),
        totalPages: 3,
        empty: false,
      });
    });
    it('middle page', async () => {
      const res = await search([], { page: 1, size: 10 });
      expect(res.body).toMatchObject({
        first: false,
        last: false,
        from: 11,
        to: 20,
        pageNumber: 1,
      });
      expect(res.body.content.map((r: { id: string }) => r.id)).toEqual(
        [...data]
          .sort(defaultOrder)
          .slice(10, 20)
          .map((r) => r.id),
      );
    });
    it('last (partial) page', async () => {
      const res = await search([], { page: 2, size: 10 });
      expect(res.body).toMatchObject({
        first: false,
        last: true,
        from: 21,
        to: total(),
        totalElements: total(),
        totalPages: 3,
      });
      expect(res.body.content).toHaveLength(total() - 20);
    });
    it('exactly full last page', async () => {
      const res = await search([], { page: 1, size: 12 });
      expect(res.body).toMatchObject({
        last: true,
        from: 13,
        to: 24,
        totalElements: 24,
        totalPages: 2,
      });
    });
    it('past the end: 200, empty content, true totals', async () => {
      const res = await search([], { page: 7, size: 10 });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        content: [],
        empty: true,
        first: false,
        last: true,
        from: 0,
        to: 0,
        totalElements: total(),
        totalPages: 3,
      });
    });
    it('empty result', async () => {
      const res = await search([
        { field: 'receiptNumber', query: 'nothing-like-this', type: 'EQUALS' },
      ]);
      expect(res.body).toMatchObject({
        content: [],
        empty: true,
        first: true,
        last: true,
        from: 0,
        to: 0,
        totalElements: 0,
        totalPages: 0,
      });
    });
    it.each([[{ page: -1 }], [{ page: 'abc' }], [{ size: 0 }], [{ size: 501 }], [{ size: 2.5 }]])(
      'rejects %p',
      async (query) => {
        const res = await search([], query);
        expect(res.status).toBe(400);
        expect(res.body.code).toBe('SEARCH_INVALID_PAGING');
      },
    );
  });

  describe('bad input is a 400 naming the filter and what is allowed', () => {
    const cases: [string, unknown, string, RegExp][] = [
      [
        'unknown field',
        [{ field: 'colour', query: 'x', type: 'EQUALS' }],
        'SEARCH_UNKNOWN_FIELD',
        /filters\[0\]/,
      ],
      [
        'unknown operator',
        [{ field: 'amount', query: '1', type: 'ABOUT' }],
        'SEARCH_UNKNOWN_OPERATOR',
        /EQUALS/,
      ],
      [
        'operator not allowed for the type',
        [{ field: 'amount', query: '1', type: 'CONTAINS' }],
        'SEARCH_OPERATOR_NOT_ALLOWED',
        /GT/,
      ],
      [
        'bad uuid',
        [{ field: 'demand', query: 'not-a-uuid', type: 'EQUALS' }],
        'SEARCH_INVALID_QUERY',
        /UUID/i,
      ],
      [
        'bad date',
        [{ field: 'receivedDate', query: '2025-02-30', type: 'EQUALS' }],
        'SEARCH_INVALID_QUERY',
        /date/i,
      ],
      [
        'bad decimal',
        [{ field: 'amount', query: '12.345', type: 'EQUALS' }],
        'SEARCH_INVALID_QUERY',
        /decimal/i,
      ],
      [
        'bad enum',
        [{ field: 'paymentMode', query: 'BITCOIN', type: 'EQUALS' }],
        'SEARCH_INVALID_QUERY',
        /NEFT/,
      ],
      [
        'BETWEEN with one value',
        [{ field: 'amount', query: '1', type: 'BETWEEN' }],
        'SEARCH_INVALID_QUERY',
        /two/i,
      ],
      ['body is not an array', { field: 'amount' }, 'VALIDATION_FAILED', /array/i],
      [
        'more than 50 filters',
        Array.from({ length: 51 }, () => ({ field: 'amount', query: '1', type: 'GT' })),
        'SEARCH_INVALID_BODY',
        /50/,
      ],
    ];
    it.each(cases)('%s', async (_name, body, code, detail) => {
      const res = await search(body);
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toMatch(/problem\+json/);
      expect(res.body.code).toBe(code);
      expect(res.body.detail).toMatch(detail);
      expect(res.body.errors.length).toBeGreaterThan(0);
    });
  });

  describe('keyword', () => {
    const matches = (r: FixtureReceipt, keyword: string) =>
      [r.receiptNumber, r.transactionRef, r.demandNumber, r.buyerName].some((v) =>
        v.toLowerCase().includes(keyword.toLowerCase()),
      );
    const total = async (filters: Filter[], key = tenant.key) => {
      const res = await search(filters, { size: 1 }, key);
      expect(res.status).toBe(200);
      return res.body.totalElements as number;
    };

    // Each keyword is found through one source only (checked), on the indexed path (a run of
    // three letters or digits) or the scanning one (none).
    it.each<[string, string, (r: FixtureReceipt) => string]>([
      ['receipt number (indexed)', 'a-RCT-01', (r) => r.receiptNumber],
      ['transaction reference (indexed)', 'utra1', (r) => r.transactionRef],
      ['demand number (indexed)', 'dmd-1', (r) => r.demandNumber],
      ['buyer name (indexed)', 'KAPOOR', (r) => r.buyerName],
      ['buyer name, two characters (scan)', 'ap', (r) => r.buyerName],
      ['receipt number, one character (scan)', 'c', (r) => r.receiptNumber],
    ])('matches the %s', async (_name, keyword, source) => {
      const want = expected((r) => matches(r, keyword));
      expect(want.length).toBeGreaterThan(0);
      expect(want).toEqual(
        expected((r) => source(r).toLowerCase().includes(keyword.toLowerCase())),
      );
      const filters = [{ field: 'keyword', query: keyword, type: 'CONTAINS' }];
      expect(await ids(filters)).toEqual(want);
      expect(await total(filters)).toBe(want.length);
    });

    it('combines with other filters and every sort, page and count alike', async () => {
      const filters = [
        { field: 'keyword', query: 'iyer', type: 'CONTAINS' },
        { field: 'status', query: 'ACTIVE', type: 'EQUALS' },
        { field: 'amount', query: '3000', type: 'GT' },
      ];
      const want = data.filter(
        (r) => matches(r, 'iyer') && r.status === 'ACTIVE' && Number(r.amount) > 3000,
      );
      expect(want.length).toBeGreaterThan(2);
      expect(want.length).toBeLessThan(data.filter((r) => matches(r, 'iyer')).length);
      expect(await ids(filters)).toEqual([...want].sort(defaultOrder).map((r) => r.id));
      const byAmount = [...want]
        .sort((a, b) => Number(a.amount) - Number(b.amount) || compareText(b.id, a.id))
        .map((r) => r.id);
      expect(await ids(filters, { sort: 'amount,asc' })).toEqual(byAmount);
      const byRef = [...want]
        .sort((a, b) => compareText(b.transactionRef, a.transactionRef) || compareText(b.id, a.id))
        .map((r) => r.id);
      expect(await ids(filters, { sort: 'transactionRef,desc' })).toEqual(byRef);
      // paging: page 1 of size 2 (a full page, so the count runs)
      const res = await search(filters, { size: 2, page: 1, sort: 'amount,asc' });
      expect(res.body.totalElements).toBe(want.length);
      expect((res.body.content as { id: string }[]).map((r) => r.id)).toEqual(byAmount.slice(2, 4));
    });

    it('two keywords must both match', async () => {
      const filters = [
        { field: 'keyword', query: 'iyer', type: 'CONTAINS' },
        { field: 'keyword', query: 'rct-00', type: 'CONTAINS' },
      ];
      const want = expected((r) => matches(r, 'iyer') && matches(r, 'rct-00'));
      expect(want.length).toBeGreaterThan(0);
      expect(await ids(filters)).toEqual(want);
    });

    it('treats %, _ and backslash literally on both paths', async () => {
      // Transaction refs end in a literal "_X%": as wildcards, these would match other text too.
      const literal = expected((r) => r.transactionRef.includes('1_X%'));
      expect(literal.length).toBeGreaterThan(0);
      expect(await ids([{ field: 'keyword', query: '1_x%', type: 'CONTAINS' }])).toEqual(literal);
      const indexed = expected((r) => r.transactionRef.toLowerCase().includes('utra1_x%'));
      expect(indexed.length).toBeGreaterThan(0);
      expect(await ids([{ field: 'keyword', query: 'utrA1_x%', type: 'CONTAINS' }])).toEqual(
        indexed,
      );
      // "ra1%_x" appears nowhere; with live wildcards it would match "UTRA1_X%".
      for (const query of ['ra1%_x', 'ra1__x', 'ra1\\_x', '\\']) {
        expect(await total([{ field: 'keyword', query, type: 'CONTAINS' }])).toBe(0);
      }
      const percent = expected((r) => matches(r, '%'));
      expect(percent.length).toBeGreaterThan(0);
      expect(percent.length).toBeLessThan(data.length);
      expect(await ids([{ field: 'keyword', query: '%', type: 'CONTAINS' }])).toEqual(percent);
    });

    it("another tenant's matching receipts never appear nor count", async () => {
      const mine = expected((r) => matches(r, 'kapoor'));
      const theirs = otherData.filter((r) => matches(r, 'kapoor'));
      expect(theirs.length).toBeGreaterThan(0);
      const filters = [{ field: 'keyword', query: 'kapoor', type: 'CONTAINS' }];
      expect(await ids(filters)).toEqual(mine);
      expect(await total(filters)).toBe(mine.length);
      const res = await search(filters, { size: 500 }, other.key);
      expect(res.body.totalElements).toBe(theirs.length);
      expect((res.body.content as { id: string }[]).map((r) => r.id).sort()).toEqual(
        theirs.map((r) => r.id).sort(),
      );
      // B's receipt number and reference, searched as A (indexed path): nothing.
      expect(await total([{ field: 'keyword', query: 'b-rct-00', type: 'CONTAINS' }])).toBe(0);
      expect(await total([{ field: 'keyword', query: 'utrb1', type: 'CONTAINS' }])).toBe(0);
    });

    it('the scanning branch (past the caps) finds exactly what the indexed one does', async () => {
      const app = new Client({ connectionString: t.appUrl });
      await app.connect();
      try {
        const run = async (sql: string, params: unknown[]) => {
          await app.query('BEGIN');
          await app.query(`SELECT set_config('app.tenant_id', $1, true)`, [tenant.id]);
          const { rows } = await app.query<Record<string, string>>(sql, params);
          await app.query('COMMIT');
          return rows;
        };
        for (const keyword of ['kapoor', 'rct-01', 'utra1']) {
          const c = compileSearch(
            parseSearchRequest(RECEIPT_SEARCH, { size: '500', sort: 'amount,desc' }, [
              { field: 'keyword', query: keyword, type: 'CONTAINS' },
            ]),
            tenant.id,
          );
          const forced = (sql: string) => sql.replace(/ <= \d+/g, ' <= -1');
          expect(forced(c.idsSql)).not.toBe(c.idsSql);
          const indexed = await run(c.idsSql, c.idsParams);
          expect(indexed.length).toBeGreaterThan(0);
          expect(await run(forced(c.idsSql), c.idsParams)).toEqual(indexed);
          expect(await run(forced(c.countSql), c.countParams)).toEqual([
            { total: String(indexed.length) },
          ]);
          expect(await run(c.countSql, c.countParams)).toEqual([{ total: String(indexed.length) }]);
        }
      } finally {
        await app.end();
      }
    });

    it('counts a receipt matched by its demand and by its own reference once', async () => {
      const kapoor = data.find((r) => r.buyerName === 'Rohan Kapoor')!;
      const nair = data.find((r) => r.buyerName === 'Meera Nair')!;
      const want = expected((r) => matches(r, 'kapoor')).length + 1;
      const c = compileSearch(
        parseSearchRequest(RECEIPT_SEARCH, {}, [
          { field: 'keyword', query: 'kapoor', type: 'CONTAINS' },
        ]),
        tenant.id,
      );
      const app = new Client({ connectionString: t.appUrl });
      await app.connect();
      await owner.query(
        `UPDATE receipts SET transaction_ref = 'NEFT-KAPOOR-' || receipt_number WHERE id = ANY($1)`,
        [[kapoor.id, nair.id]],
      );
      try {
        await app.query('BEGIN');
        await app.query(`SELECT set_config('app.tenant_id', $1, true)`, [tenant.id]);
        const { rows } = await app.query<{ total: string }>(c.countSql, c.countParams);
        await app.query('COMMIT');
        expect(rows).toEqual([{ total: String(want) }]);
      } finally {
        await app.end();
        for (const r of [kapoor, nair]) {
          await owner.query(`UPDATE receipts SET transaction_ref = $2 WHERE id = $1`, [
            r.id,
            r.transactionRef,
          ]);
        }
      }
    });

    it("the lookup functions answer only for the transaction's tenant", async () => {
      const app = new Client({ connectionString: t.appUrl });
      await app.connect();
      try {
        const lookup = async (setting: string | null, asTenant: string) => {
          await app.query('BEGIN');
          if (setting !== null) {
            await app.query(`SELECT set_config('app.tenant_id', $1, true)`, [setting]);
          }
          const { rows } = await app.query<{ d: number; r: number }>(
            `SELECT (SELECT count(*)::int FROM receipt_keyword_demand_ids($1, '%kapoor%', 100)) AS d,
                    (SELECT count(*)::int FROM receipt_keyword_receipt_ids($1, '%rct%', 100)) AS r`,
            [asTenant],
          );
          await app.query('COMMIT');
          return rows[0];
        };
        const own = await lookup(tenant.id, tenant.id);
        expect(own.d).toBeGreaterThan(0);
        expect(own.r).toBeGreaterThan(0);
        expect(await lookup(tenant.id, other.id)).toEqual({ d: 0, r: 0 });
        expect(await lookup(null, other.id)).toEqual({ d: 0, r: 0 });
      } finally {
        await app.end();
      }
    });
  });

  describe('tenant isolation', () => {
    it("a search as another tenant never returns this tenant's receipts", async () => {
      const res = await search([], { size: 500 }, other.key);
      const returned = new Set((res.body.content as { id: string }[]).map((r) => r.id));
      expect(res.body.totalElements).toBe(otherData.length);
      for (const r of data) expect(returned.has(r.id)).toBe(false);
    });
    it("filtering by another tenant's receipt id or number finds nothing", async () => {
      const target = data[3];
      for (const filters of [
        [{ field: 'id', query: target.id, type: 'EQUALS' }],
        [{ field: 'receiptNumber', query: target.receiptNumber, type: 'EQUALS' }],
        [{ field: 'keyword', query: target.receiptNumber, type: 'CONTAINS' }],
        [{ field: 'demand', query: target.demand, type: 'EQUALS' }],
      ]) {
        const res = await search(filters, {}, other.key);
        expect(res.body).toMatchObject({ totalElements: 0, content: [] });
      }
    });
    it("GET /receipts/:id of another tenant's receipt is 404", async () => {
      const res = await request(t.server).get(`/receipts/${data[0].id}`).set(as(other.key));
      expect(res.status).toBe(404);
      const own = await request(t.server).get(`/receipts/${data[0].id}`).set(as(tenant.key));
      expect(own.status).toBe(200);
      expect(own.body.receiptNumber).toBe(data[0].receiptNumber);
    });
  });
});
