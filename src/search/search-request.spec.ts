import fc from 'fast-check';

import { AppError } from '@/common/app-error';
import { field, SearchCatalogue, SortKey } from '@/search/search-catalogue';
import {
  ParsedFilter,
  parseFilters as parseFiltersOf,
  parsePaging,
  parseSearchRequest as parseSearchRequestOf,
  parseSort as parseSortOf,
  RawSearchQuery,
} from '@/search/search-request';

/**
 * A stand-in catalogue for the engine: payments with their split and demand, every field type,
 * aliases, a nullable column and a keyword. Its names follow the receipt catalogue's, so the
 * messages below read like a receipt search's; the receipt catalogue itself is tested in
 * src/receipts/search.
 */
const DEFAULT_SORT: readonly SortKey[] = [
  { field: 'receivedDate', direction: 'desc' },
  { field: 'receiptNumber', direction: 'desc' },
  { field: 'id', direction: 'desc' },
];
const CATALOGUE = new SearchCatalogue(
  'payments',
  [
    field('id', 'uuid', 'payment', 'id'),
    field('demand', 'uuid', 'payment', 'demand_id'),
    field('booking', 'uuid', 'payment', 'booking_id'),
    field('payerType', 'enum', 'payment', 'payer_type', { enumValues: ['BUYER', 'CO_BUYER'] }),
    field('paymentMode', 'enum', 'payment', 'payment_mode', { enumValues: ['NEFT', 'UPI'] }),
    field('status', 'enum', 'payment', 'status', {
      enumValues: ['ACTIVE', 'CANCELLED', 'BOUNCED'],
    }),
    field('receiptNumber', 'text', 'payment', 'receipt_number'),
    field('transactionRef', 'text', 'payment', 'transaction_ref'),
    field('amount', 'number', 'payment', 'amount'),
    field('receivedDate', 'date', 'payment', 'received_date'),
    field('demandSplitMeta.payerId', 'uuid', 'split', 'payer_id', { aliases: ['payerId'] }),
    field('demandSplitMeta.demandSplitNumber', 'text', 'split', 'demand_split_number', {
      aliases: ['demandSplitNumber'],
    }),
    field('demandMeta.unit', 'uuid', 'demand', 'unit_id', { aliases: ['unit'] }),
    field('demandMeta.milestone', 'uuid', 'demand', 'milestone_id', {
      aliases: ['milestone'],
      nullable: true,
    }),
    field('demandMeta.demandType', 'enum', 'demand', 'demand_type', {
      aliases: ['demandType'],
      enumValues: ['MANUAL', 'MILESTONE'],
    }),
    field('demandMeta.demandNumber', 'text', 'demand', 'demand_number', {
      aliases: ['demandNumber'],
    }),
    field('demandMeta.dueDate', 'date', 'demand', 'due_date'),
    field('demandMeta.status', 'enum', 'demand', 'status', {
      enumValues: ['PENDING', 'PARTIALLY_PAID', 'PAID'],
    }),
    field('demandMeta.buyerName', 'text', 'demand', 'buyer_name', { aliases: ['buyerName'] }),
    field('keyword', 'keyword', 'keyword', ''),
  ],
  {
    receivedDate: 'received_date',
    receiptNumber: 'receipt_number',
    amount: 'amount',
    paymentMode: 'payment_mode',
    payerType: 'payer_type',
    status: 'status',
    transactionRef: 'transaction_ref',
    created: 'created_at',
    id: 'id',
  },
  DEFAULT_SORT,
);

const parseFilters = (body: unknown): ParsedFilter[] => parseFiltersOf(CATALOGUE, body);
const parseSort = (raw: unknown): SortKey[] => parseSortOf(CATALOGUE, raw);
const parseSearchRequest = (query: RawSearchQuery | undefined, body: unknown) =>
  parseSearchRequestOf(CATALOGUE, query, body);

const UUID = '123e4567-e89b-12d3-a456-426614174000';

function catchAppError(fn: () => unknown): AppError {
  try {
    fn();
  } catch (e) {
    if (e instanceof AppError) return e;
    throw e;
  }
  throw new Error('expected an AppError to be thrown');
}

function one(field: string, type: string, query?: unknown): ParsedFilter {
  const filter: Record<string, unknown> = { field, type };
  if (query !== undefined) filter.query = query;
  const parsed = parseFilters([filter]);
  expect(parsed).toHaveLength(1);
  return parsed[0];
}

function filterError(field: string, type: string, query?: unknown): AppError {
  const filter: Record<string, unknown> = { field, type };
  if (query !== undefined) filter.query = query;
  return catchAppError(() => parseFilters([filter]));
}

describe('parseFilters', () => {
  describe('body shape', () => {
    it.each([undefined, null, []])('treats %j as no filter', (body) => {
      expect(parseFilters(body)).toEqual([]);
    });

    // JSON of the wrong shape altogether is every route's VALIDATION_FAILED, not a bad filter.
    it.each([{}, 'x', 42, true, { field: 'id' }])('rejects a non-array body %j', (body) => {
      const err = catchAppError(() => parseFilters(body));
      expect(err.status).toBe(400);
      expect(err.code).toBe('VALIDATION_FAILED');
      expect(err.errors).toEqual([{ field: 'body', message: expect.stringMatching(/JSON array/) }]);
    });

    it('rejects elements that are not objects', () => {
      const err = catchAppError(() =>
        parseFilters([null, 'x', [], { field: 'id', type: 'is null' }, 5]),
      );
      expect(err.code).toBe('SEARCH_INVALID_BODY');
      expect(err.errors?.map((e) => e.field)).toEqual([
        'filters[0]',
        'filters[1]',
        'filters[2]',
        'filters[4]',
      ]);
      expect(err.errors?.[0].message).toMatch(/filter 0 is null; expected an object/);
      expect(err.errors?.[2].message).toMatch(/filter 2 is an array/);
    });

    it('rejects non-string field, type and query', () => {
      const err = catchAppError(() =>
        parseFilters([
          { field: 1, type: 'eq', query: UUID },
          { field: 'id', type: ['eq'], query: UUID },
          { field: 'amount', type: 'eq', query: 100 },
          { type: 'eq', query: 'x' },
        ]),
      );
      expect(err.code).toBe('SEARCH_INVALID_BODY');
      expect(err.errors).toEqual([
        { field: 'filters[0].field', message: expect.stringContaining('allowed fields: id,') },
        { field: 'filters[1].type', message: expect.stringContaining('allowed operators: EQUALS') },
        { field: 'filters[2].query', message: expect.stringContaining('must be a string') },
        {
          field: 'filters[3].field',
          message: expect.stringContaining('field must be a string, got nothing'),
        },
      ]);
    });

    it('rejects extra properties on a filter', () => {
      const err = catchAppError(() =>
        parseFilters([{ field: 'status', type: 'eq', query: 'ACTIVE', value: 'x' }]),
      );
      expect(err.code).toBe('SEARCH_INVALID_BODY');
      expect(err.errors).toEqual([
        {
          field: 'filters[0].value',
          message: expect.stringMatching(/unknown property "value"; expected an object .*field/),
        },
      ]);
    });

    it('accepts 50 filters and rejects 51', () => {
      const f = { field: 'status', type: 'eq', query: 'active' };
      expect(parseFilters(Array.from({ length: 50 }, () => f))).toHaveLength(50);
      const err = catchAppError(() => parseFilters(Array.from({ length: 51 }, () => f)));
      expect(err.code).toBe('SEARCH_INVALID_BODY');
      expect(err.errors).toEqual([
        { field: 'filters', message: 'at most 50 filters are allowed, got 51' },
      ]);
    });

    it('treats a null query like an omitted one', () => {
      expect(parseFilters([{ field: 'milestone', type: 'is null', query: null }])).toEqual([
        expect.objectContaining({ operator: 'IS_NULL' }),
      ]);
    });
  });

  describe('fields and operators', () => {
    it('resolves alias fields to the canonical field', () => {
      expect(one('unit', 'eq', UUID).field.name).toBe('demandMeta.unit');
      expect(one('payerId', 'eq', UUID).field.name).toBe('demandSplitMeta.payerId');
      expect(one('buyerName', 'contains', 'x').field.name).toBe('demandMeta.buyerName');
      expect(one('demandNumber', 'eq', 'x').field.name).toBe('demandMeta.demandNumber');
      expect(one('demandType', 'eq', 'manual').field.name).toBe('demandMeta.demandType');
      expect(one('milestone', 'is null').field.name).toBe('demandMeta.milestone');
      expect(one('demandSplitNumber', 'eq', 'x').field.name).toBe(
        'demandSplitMeta.demandSplitNumber',
      );
      expect(one('BUYERNAME', 'contains', 'x').field.name).toBe('demandMeta.buyerName');
    });

    it.each([
      ['eq', 'EQUALS'],
      ['equal', 'EQUALS'],
      ['is', 'EQUALS'],
      ['=', 'EQUALS'],
      ['==', 'EQUALS'],
      ['ne', 'NOT_EQUALS'],
      ['neq', 'NOT_EQUALS'],
      ['!=', 'NOT_EQUALS'],
      ['<>', 'NOT_EQUALS'],
      ['like', 'CONTAINS'],
      ['ilike', 'CONTAINS'],
      ['Contains', 'CONTAINS'],
      ['not_contains', 'NOT_CONTAINS'],
      ['starts with', 'STARTS_WITH'],
      ['ENDS-WITH', 'ENDS_WITH'],
    ])('maps text operator %j to %s', (type, expected) => {
      expect(one('receiptNumber', type, 'RCP').operator).toBe(expected);
    });

    it.each([
      ['>', 'GT'],
      ['gt', 'GT'],
      ['>=', 'GTE'],
      ['<', 'LT'],
      ['<=', 'LTE'],
      ['lte', 'LTE'],
    ])('maps range operator %j to %s', (type, expected) => {
      expect(one('amount', type, '10').operator).toBe(expected);
    });

    it('maps list and null operators', () => {
      expect(one('status', 'in', 'active').operator).toBe('IN');
      expect(one('status', 'not-in', 'active').operator).toBe('NOT_IN');
      expect(one('status', 'not in', 'active').operator).toBe('NOT_IN');
      expect(one('milestone', 'is null').operator).toBe('IS_NULL');
      expect(one('milestone', 'IS-NOT-NULL', 'ignored').operator).toBe('IS_NOT_NULL');
      expect(one('amount', 'Between', '1,2').operator).toBe('BETWEEN');
    });

    it('reports an unknown field with the list of allowed fields', () => {
      const err = filterError('buyer', 'eq', 'x');
      expect(err.code).toBe('SEARCH_UNKNOWN_FIELD');
      expect(err.errors).toHaveLength(1);
      expect(err.errors?.[0].field).toBe('filters[0].field');
      expect(err.errors?.[0].message).toMatch(/filter 0: unknown field "buyer"; allowed fields: /);
      expect(err.errors?.[0].message).toContain('demandMeta.buyerName');
      expect(err.errors?.[0].message).toContain('buyerName');
      expect(err.detail).toContain('filters[0].field');
    });

    it('reports an unknown operator with the operators of the field', () => {
      const err = filterError('status', 'approx', 'x');
      expect(err.code).toBe('SEARCH_UNKNOWN_OPERATOR');
      expect(err.errors).toEqual([
        {
          field: 'filters[0].type',
          message:
            'filter 0: unknown operator "approx"; allowed operators for status: ' +
            'EQUALS, NOT_EQUALS, IN, NOT_IN, IS_NULL, IS_NOT_NULL',
        },
      ]);
    });

    it('reports both an unknown field and an unknown operator', () => {
      const err = filterError('nope', 'approx', 'x');
      expect(err.code).toBe('SEARCH_UNKNOWN_FIELD');
      expect(err.errors?.map((e) => e.field)).toEqual(['filters[0].field', 'filters[0].type']);
      expect(err.errors?.[1].message).toContain('allowed operators: EQUALS, NOT_EQUALS, CONTAINS');
    });

    it.each([
      ['status', 'gt', 'x', 'EQUALS, NOT_EQUALS, IN, NOT_IN, IS_NULL, IS_NOT_NULL'],
      ['id', 'contains', 'x', 'EQUALS, NOT_EQUALS, IN, NOT_IN, IS_NULL, IS_NOT_NULL'],
      ['amount', 'contains', '1', 'EQUALS, NOT_EQUALS, GT, GTE, LT, LTE, BETWEEN, IN'],
      ['receiptNumber', 'between', 'a,b', 'EQUALS, NOT_EQUALS, CONTAINS, NOT_CONTAINS'],
      ['keyword', 'eq', 'x', 'allowed operators for keyword: CONTAINS'],
      ['keyword', 'starts with', 'x', 'allowed operators for keyword: CONTAINS'],
    ])('rejects %s %s with the allowed operators', (field, type, query, allowed) => {
      const err = filterError(field, type, query);
      expect(err.code).toBe('SEARCH_OPERATOR_NOT_ALLOWED');
      expect(err.errors).toHaveLength(1);
      expect(err.errors?.[0].field).toBe('filters[0].type');
      expect(err.errors?.[0].message).toMatch(/^filter 0: operator \w+ is not allowed for field/);
      expect(err.errors?.[0].message).toContain(allowed);
    });

    it('collects the problems of all filters into one error, in order', () => {
      const err = catchAppError(() =>
        parseFilters([
          { field: 'status', type: 'eq', query: 'ACTIVE' },
          { field: 'nope', type: 'eq', query: 'x' },
          { field: 'amount', type: 'eq', query: '1.234' },
          { field: 'status', type: 'gt', query: 'x' },
          { field: 'receivedDate', type: 'eq', query: '2025-02-30' },
        ]),
      );
      expect(err.code).toBe('SEARCH_UNKNOWN_FIELD');
      expect(err.errors?.map((e) => e.field)).toEqual([
        'filters[1].field',
        'filters[2].query',
        'filters[3].type',
        'filters[4].query',
      ]);
      expect(err.detail).toMatch(/^The search request has 4 problems: filters\[1\]\.field: /);
      expect(err.detail).toContain('filters[4].query: filter 4 (receivedDate EQUALS)');
    });
  });

  describe('query parsing', () => {
    it('normalises UUIDs to lower case and accepts any version', () => {
      expect(one('id', 'eq', '  123E4567-E89B-12D3-A456-426614174000 ')).toMatchObject({
        value: UUID,
      });
      expect(one('booking', 'eq', '00000000-0000-0000-0000-000000000000')).toMatchObject({
        value: '00000000-0000-0000-0000-000000000000',
      });
      expect(one('unit', 'eq', 'ffffffff-ffff-7fff-bfff-ffffffffffff')).toMatchObject({
        value: 'ffffffff-ffff-7fff-bfff-ffffffffffff',
      });
    });

    it.each([
      'abc',
      '123e4567e89b12d3a456426614174000x',
      '123e4567-e89b-12d3-a456-42661417400',
      '123e4567-e89b-12d3-a456-42661417400g',
      "123e4567-e89b-12d3-a456-426614174000'",
      '',
    ])('rejects the UUID %j', (query) => {
      const err = filterError('demand', 'eq', query);
      expect(err.code).toBe('SEARCH_INVALID_QUERY');
      expect(err.errors?.[0].field).toBe('filters[0].query');
      expect(err.errors?.[0].message).toMatch(
        /^filter 0 \(demand EQUALS\): .* is not a valid UUID; expected .*8-4-4-4-12/,
      );
    });

    it('accepts real calendar dates only', () => {
      expect(one('receivedDate', 'eq', '2024-02-29')).toMatchObject({ value: '2024-02-29' });
      expect(one('demandMeta.dueDate', 'gte', '2000-02-29')).toMatchObject({ value: '2000-02-29' });
      expect(one('receivedDate', 'lt', '0001-01-01')).toMatchObject({ value: '0001-01-01' });
    });

    it.each([
      '2025-02-30',
      '2023-02-29',
      '1900-02-29',
      '2025-04-31',
      '2025-13-01',
      '2025-00-10',
      '2025-01-00',
      '0000-01-01',
      '2025-1-01',
      '25-01-01',
      '2025/01/01',
      '2025-01-01T00:00:00Z',
      'today',
    ])('rejects the date %j', (query) => {
      const err = filterError('receivedDate', 'eq', query);
      expect(err.code).toBe('SEARCH_INVALID_QUERY');
      expect(err.errors?.[0].field).toBe('filters[0].query');
      expect(err.errors?.[0].message).toContain('expected a real calendar date as YYYY-MM-DD');
    });

    it.each([
      ['100', '100'],
      ['100.5', '100.5'],
      ['100.50', '100.5'],
      ['-0.01', '-0.01'],
      ['007', '7'],
      ['-0', '0'],
      ['9999999999999999.99', '9999999999999999.99'],
      ['-9999999999999999.99', '-9999999999999999.99'],
      [' 12.30 ', '12.3'],
    ])('parses the amount %j as %j', (query, value) => {
      expect(one('amount', 'eq', query)).toMatchObject({ value });
    });

    it('rejects amounts with more than 2 decimals', () => {
      const err = filterError('amount', 'eq', '1.234');
      expect(err.code).toBe('SEARCH_INVALID_QUERY');
      expect(err.errors?.[0]).toEqual({
        field: 'filters[0].query',
        message: expect.stringMatching(
          /^filter 0 \(amount EQUALS\): "1\.234" has 3 decimal places; at most 2 are allowed/,
        ),
      });
    });

    it.each(['1e5', '0x10', '1,000', '+5', '.5', '5.', 'NaN', 'Infinity', '', '١٢'])(
      'rejects the malformed amount %j',
      (query) => {
        const err = filterError('amount', 'eq', query);
        expect(err.code).toBe('SEARCH_INVALID_QUERY');
        expect(err.errors?.[0].message).toContain(
          'is not a valid number; expected a plain decimal',
        );
      },
    );

    it.each(['10000000000000000', '-10000000000000000.00', '123456789012345678'])(
      'rejects the out-of-range amount %j',
      (query) => {
        const err = filterError('amount', 'gt', query);
        expect(err.code).toBe('SEARCH_INVALID_QUERY');
        expect(err.errors?.[0].message).toContain('out of range; amounts are numeric(18,2)');
      },
    );

    it('parses enums case-insensitively and normalises to upper case', () => {
      expect(one('paymentMode', 'eq', ' neft ')).toMatchObject({ value: 'NEFT' });
      expect(one('payerType', 'eq', 'Co_Buyer')).toMatchObject({ value: 'CO_BUYER' });
      expect(one('demandMeta.status', 'in', 'pending, Paid')).toMatchObject({
        values: ['PENDING', 'PAID'],
      });
    });

    it('rejects unknown enum values and lists the allowed ones', () => {
      const err = filterError('status', 'eq', 'open');
      expect(err.code).toBe('SEARCH_INVALID_QUERY');
      expect(err.errors).toEqual([
        {
          field: 'filters[0].query',
          message:
            'filter 0 (status EQUALS): "open" is not a valid value for status; ' +
            'allowed values (case-insensitive): ACTIVE, CANCELLED, BOUNCED',
        },
      ]);
    });

    it('keeps text as given and limits it to 200 characters', () => {
      expect(one('transactionRef', 'eq', '')).toMatchObject({ value: '' });
      expect(one('receiptNumber', 'contains', ' 50%_off ')).toMatchObject({ value: ' 50%_off ' });
      expect(one('keyword', 'contains', 'x'.repeat(200))).toMatchObject({ value: 'x'.repeat(200) });
      const err = filterError('keyword', 'contains', 'x'.repeat(201));
      expect(err.code).toBe('SEARCH_INVALID_QUERY');
      expect(err.errors?.[0].message).toContain('text is 201 characters long; at most 200');
    });

    it('rejects NUL characters in text', () => {
      const err = filterError('buyerName', 'eq', 'a\u0000b');
      expect(err.code).toBe('SEARCH_INVALID_QUERY');
    });

    it('requires a query except for IS_NULL / IS_NOT_NULL', () => {
      const err = filterError('amount', 'eq');
      expect(err.code).toBe('SEARCH_INVALID_QUERY');
      expect(err.errors?.[0].message).toContain(
        'query is required for operator EQUALS; only IS_NULL and IS_NOT_NULL may omit it',
      );
      expect(one('milestone', 'is not null')).toEqual(
        expect.objectContaining({ operator: 'IS_NOT_NULL' }),
      );
      expect(one('amount', 'is null', 'garbage')).not.toHaveProperty('value');
    });

    describe('BETWEEN', () => {
      it('parses an inclusive range', () => {
        expect(one('amount', 'between', ' 10 , 20.5')).toMatchObject({ from: '10', to: '20.5' });
        expect(one('receivedDate', 'between', '2025-01-01,2025-01-01')).toMatchObject({
          from: '2025-01-01',
          to: '2025-01-01',
        });
      });

      it.each(['10', '1,2,3', '', ','])('rejects %j (not two values)', (query) => {
        const err = filterError('amount', 'between', query);
        expect(err.code).toBe('SEARCH_INVALID_QUERY');
        expect(err.errors?.[0].message).toMatch(
          /BETWEEN needs exactly two comma-separated values "from,to"|BETWEEN lower bound/,
        );
      });

      it('rejects from > to, comparing numbers as decimals', () => {
        expect(one('amount', 'between', '9.5,10')).toMatchObject({ from: '9.5', to: '10' });
        const bad = filterError('amount', 'between', '100,20');
        expect(bad.code).toBe('SEARCH_INVALID_QUERY');
        expect(bad.errors?.[0].message).toContain(
          'BETWEEN lower bound 100 is greater than upper bound 20; expected "from,to" with from <= to',
        );
        const badDate = filterError('receivedDate', 'between', '2025-02-01,2025-01-31');
        expect(badDate.code).toBe('SEARCH_INVALID_QUERY');
      });

      it('reports invalid bounds', () => {
        const err = filterError('receivedDate', 'between', '2025-01-01,2025-02-30');
        expect(err.code).toBe('SEARCH_INVALID_QUERY');
        expect(err.errors?.[0].message).toContain('BETWEEN upper bound: "2025-02-30"');
      });
    });

    describe('IN / NOT_IN', () => {
      it('splits, trims, normalises and de-duplicates values', () => {
        expect(one('id', 'in', ` ${UUID.toUpperCase()} , ${UUID}`)).toMatchObject({
          values: [UUID],
        });
        expect(one('receiptNumber', 'not in', ' a , B ')).toMatchObject({ values: ['a', 'B'] });
        expect(one('amount', 'in', '1,2.50')).toMatchObject({ values: ['1', '2.5'] });
      });

      it('accepts 100 values and rejects 101', () => {
        const values = (n: number) => Array.from({ length: n }, (_, i) => String(i)).join(',');
        expect(one('amount', 'in', values(100))).toMatchObject({ operator: 'IN' });
        const err = filterError('amount', 'in', values(101));
        expect(err.code).toBe('SEARCH_INVALID_QUERY');
        expect(err.errors?.[0].message).toContain(
          'IN needs 1 to 100 comma-separated values, got 101',
        );
      });

      it.each(['', '  '])('rejects an empty list %j', (query) => {
        const err = filterError('status', 'not_in', query);
        expect(err.code).toBe('SEARCH_INVALID_QUERY');
        expect(err.errors?.[0].message).toContain(
          'NOT_IN needs 1 to 100 comma-separated values, got none',
        );
      });

      it('reports the first bad value and how many more there are', () => {
        const err = filterError('status', 'in', 'active,open,,closed');
        expect(err.code).toBe('SEARCH_INVALID_QUERY');
        expect(err.errors).toHaveLength(1);
        expect(err.errors?.[0].message).toMatch(
          /value 2 of 4: "open" is not a valid value for status; .* \(and 2 more invalid values\); IN needs 1 to 100/,
        );
      });
    });
  });
});

describe('parsePaging', () => {
  it('defaults to page 0, size 20', () => {
    expect(parsePaging({})).toEqual({ page: 0, size: 20 });
    expect(parsePaging()).toEqual({ page: 0, size: 20 });
  });

  it.each([
    [
      { page: '0', size: '1' },
      { page: 0, size: 1 },
    ],
    [
      { page: '3', size: '500' },
      { page: 3, size: 500 },
    ],
    [{ page: '10000000' }, { page: 10_000_000, size: 20 }],
    [
      { page: '007', size: '05' },
      { page: 7, size: 5 },
    ],
    [
      { page: 2, size: 50 },
      { page: 2, size: 50 },
    ],
  ])('accepts %j', (query, expected) => {
    expect(parsePaging(query)).toEqual(expected);
  });

  it.each([
    ['page', '-1'],
    ['page', '1.5'],
    ['page', 'abc'],
    ['page', ''],
    ['page', ' 1'],
    ['page', '1e3'],
    ['page', '10000001'],
    ['page', '99999999999999999999999'],
    ['page', ['1', '2']],
    ['page', 1.5],
    ['page', { a: 1 }],
    ['size', '0'],
    ['size', '501'],
    ['size', '-1'],
    ['size', '1.5'],
    ['size', 'abc'],
    ['size', ['20', '20']],
  ])('rejects %s=%j', (name, value) => {
    const err = catchAppError(() => parsePaging({ [name]: value }));
    expect(err.code).toBe('SEARCH_INVALID_PAGING');
    expect(err.errors).toHaveLength(1);
    expect(err.errors?.[0].field).toBe(name);
    expect(err.errors?.[0].message).toContain(
      name === 'page' ? 'an integer between 0 and 10000000' : 'an integer between 1 and 500',
    );
  });

  it('reports both page and size', () => {
    const err = catchAppError(() => parsePaging({ page: '-1', size: '0' }));
    expect(err.errors?.map((e) => e.field)).toEqual(['page', 'size']);
  });
});

describe('parseSort', () => {
  it('defaults to receivedDate desc, receiptNumber desc, id desc', () => {
    const expected = [
      { field: 'receivedDate', direction: 'desc' },
      { field: 'receiptNumber', direction: 'desc' },
      { field: 'id', direction: 'desc' },
    ];
    expect(parseSort(undefined)).toEqual(expected);
    expect(parseSort([])).toEqual(expected);
    expect(DEFAULT_SORT).toEqual(expected);
  });

  it('parses one key with the default direction and appends the id tie-breaker', () => {
    expect(parseSort('amount')).toEqual([
      { field: 'amount', direction: 'asc' },
      { field: 'id', direction: 'desc' },
    ]);
  });

  it('parses repeated keys, case-insensitive directions and whitespace', () => {
    expect(parseSort(['status,DESC', ' created , Asc '])).toEqual([
      { field: 'status', direction: 'desc' },
      { field: 'created', direction: 'asc' },
      { field: 'id', direction: 'desc' },
    ]);
  });

  it('does not append id when id already is a key', () => {
    expect(parseSort(['id,asc', 'amount,desc'])).toEqual([
      { field: 'id', direction: 'asc' },
      { field: 'amount', direction: 'desc' },
    ]);
    expect(parseSort('id')).toEqual([{ field: 'id', direction: 'asc' }]);
    const keys = parseSort(['amount', 'id,desc']);
    expect(keys.filter((k) => k.field === 'id')).toHaveLength(1);
  });

  it('accepts sort fields case-insensitively', () => {
    expect(parseSort('RECEIVEDDATE,desc')[0]).toEqual({ field: 'receivedDate', direction: 'desc' });
  });

  it.each([
    [
      'amount,up',
      'sort[0]',
      /unknown sort direction "up" in "amount,up"; allowed directions: asc, desc/,
    ],
    ['amount,', 'sort[0]', /unknown sort direction ""/],
    [
      'buyerName,asc',
      'sort[0]',
      /unknown sort field "buyerName"; allowed sort fields: receivedDate, /,
    ],
    ['', 'sort[0]', /unknown sort field ""/],
    ['amount,asc,desc', 'sort[0]', /has 3 comma-separated parts/],
  ])('rejects %j', (sort, field, message) => {
    const err = catchAppError(() => parseSort(sort));
    expect(err.code).toBe('SEARCH_INVALID_SORT');
    expect(err.errors?.[0].field).toBe(field);
    expect(err.errors?.[0].message).toMatch(message);
    expect(err.errors?.[0].message).toContain(
      'allowed sort fields: receivedDate, receiptNumber, amount, paymentMode, payerType, status, transactionRef, created, id',
    );
    expect(err.errors?.[0].message).toContain('asc or desc');
  });

  it('reports each bad repeated sort with its index', () => {
    const err = catchAppError(() =>
      parseSort(['amount', 'nope', 'status,sideways', 'amount,desc']),
    );
    expect(err.code).toBe('SEARCH_INVALID_SORT');
    expect(err.errors?.map((e) => e.field)).toEqual(['sort[1]', 'sort[2]', 'sort[3]']);
    expect(err.errors?.[2].message).toContain('sort field "amount" is given more than once');
  });

  it('rejects non-string sort values', () => {
    const err = catchAppError(() => parseSort({ amount: 'asc' }));
    expect(err.code).toBe('SEARCH_INVALID_SORT');
    expect(err.errors?.[0]).toEqual({
      field: 'sort[0]',
      message: expect.stringContaining('sort must be a string, got an object'),
    });
  });
});

describe('parseSearchRequest', () => {
  it('parses a complete request', () => {
    const parsed = parseSearchRequest({ page: '2', size: '50', sort: 'amount,desc' }, [
      { field: 'status', type: 'eq', query: 'active' },
      { field: 'unit', type: 'in', query: UUID },
    ]);
    expect(parsed.page).toBe(2);
    expect(parsed.size).toBe(50);
    expect(parsed.sort).toEqual([
      { field: 'amount', direction: 'desc' },
      { field: 'id', direction: 'desc' },
    ]);
    expect(parsed.filters).toEqual([
      expect.objectContaining({ index: 0, operator: 'EQUALS', value: 'ACTIVE' }),
      expect.objectContaining({ index: 1, operator: 'IN', values: [UUID] }),
    ]);
  });

  it('uses defaults for an empty request', () => {
    expect(parseSearchRequest(undefined, undefined)).toEqual({
      page: 0,
      size: 20,
      sort: DEFAULT_SORT,
      filters: [],
    });
  });

  it('collects paging, sort and filter problems into one error', () => {
    const err = catchAppError(() =>
      parseSearchRequest({ page: 'x', sort: 'nope' }, [
        { field: 'amount', type: 'eq', query: 'y' },
      ]),
    );
    expect(err.status).toBe(400);
    expect(err.code).toBe('SEARCH_INVALID_PAGING');
    expect(err.errors?.map((e) => e.field)).toEqual(['page', 'sort[0]', 'filters[0].query']);
    expect(err.detail).toMatch(/^The search request has 3 problems: page: /);
  });

  it('only ever throws AppError for arbitrary input', () => {
    fc.assert(
      fc.property(
        fc.record(
          { page: fc.anything(), size: fc.anything(), sort: fc.anything() },
          {
            requiredKeys: [],
          },
        ),
        fc.oneof(
          fc.anything(),
          fc.array(
            fc.record(
              {
                field: fc.oneof(
                  fc.constantFrom('amount', 'status', 'unit', 'keyword'),
                  fc.string(),
                ),
                type: fc.oneof(fc.constantFrom('eq', 'in', 'between', 'contains'), fc.string()),
                query: fc.oneof(fc.string(), fc.anything()),
              },
              { requiredKeys: [] },
            ),
          ),
        ),
        (query, body) => {
          try {
            parseSearchRequest(query, body);
          } catch (e) {
            expect(e).toBeInstanceOf(AppError);
            const err = e as AppError;
            expect(err.code).toMatch(/^(SEARCH_|VALIDATION_FAILED$)/);
            expect(err.errors?.length).toBeGreaterThan(0);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
