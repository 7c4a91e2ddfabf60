import { AppError } from '@/common/app-error';
import { parseFilters, parseSearchRequest, parseSort } from '@/search/search-request';
import {
  DEFAULT_SORT,
  RECEIPT_SEARCH,
  SEARCH_FIELDS,
  SEARCH_FIELD_NAMES,
  SORT_COLUMNS,
  SORT_FIELDS,
  findSearchField,
  findSortField,
} from './search-fields';

describe('search field catalogue', () => {
  it('has unique names and aliases', () => {
    const names = SEARCH_FIELDS.flatMap((f) => [f.name, ...f.aliases]);
    expect(new Set(names).size).toBe(names.length);
    expect([...SEARCH_FIELD_NAMES].sort()).toEqual([...names].sort());
  });

  it('uses only plain snake_case column names', () => {
    for (const f of SEARCH_FIELDS) {
      if (f.source === 'keyword') expect(f.column).toBe('');
      else expect(f.column).toMatch(/^[a-z_]+$/);
    }
    for (const col of Object.values(SORT_COLUMNS)) expect(col).toMatch(/^[a-z_]+$/);
  });

  it.each([
    ['id', 'id', 'receipt', 'id', 'uuid'],
    ['demandSplit', 'demandSplit', 'receipt', 'demand_split_id', 'uuid'],
    ['demand', 'demand', 'receipt', 'demand_id', 'uuid'],
    ['booking', 'booking', 'receipt', 'booking_id', 'uuid'],
    ['payerType', 'payerType', 'receipt', 'payer_type', 'enum'],
    ['paymentMode', 'paymentMode', 'receipt', 'payment_mode', 'enum'],
    ['status', 'status', 'receipt', 'status', 'enum'],
    ['receiptNumber', 'receiptNumber', 'receipt', 'receipt_number', 'text'],
    ['transactionRef', 'transactionRef', 'receipt', 'transaction_ref', 'text'],
    ['amount', 'amount', 'receipt', 'amount', 'number'],
    ['receivedDate', 'receivedDate', 'receipt', 'received_date', 'date'],
    ['payerId', 'demandSplitMeta.payerId', 'split', 'payer_id', 'uuid'],
    [
      'demandSplitNumber',
      'demandSplitMeta.demandSplitNumber',
      'split',
      'demand_split_number',
      'text',
    ],
    ['demandSplitMeta.status', 'demandSplitMeta.status', 'split', 'status', 'enum'],
    ['unit', 'demandMeta.unit', 'demand', 'unit_id', 'uuid'],
    ['milestone', 'demandMeta.milestone', 'demand', 'milestone_id', 'uuid'],
    ['demandType', 'demandMeta.demandType', 'demand', 'demand_type', 'enum'],
    ['demandNumber', 'demandMeta.demandNumber', 'demand', 'demand_number', 'text'],
    ['demandMeta.dueDate', 'demandMeta.dueDate', 'demand', 'due_date', 'date'],
    ['demandMeta.status', 'demandMeta.status', 'demand', 'status', 'enum'],
    ['buyerName', 'demandMeta.buyerName', 'demand', 'buyer_name', 'text'],
    ['keyword', 'keyword', 'keyword', '', 'keyword'],
  ])('resolves %s to %s (%s.%s, %s)', (input, name, source, column, type) => {
    const def = findSearchField(input);
    expect(def).toMatchObject({ name, source, column, type });
  });

  it('matches field names case-insensitively as a fallback', () => {
    expect(findSearchField('RECEIPTNUMBER')?.name).toBe('receiptNumber');
    expect(findSearchField('demandmeta.buyername')?.name).toBe('demandMeta.buyerName');
    expect(findSearchField('BuyerName')?.name).toBe('demandMeta.buyerName');
    expect(findSearchField('nope')).toBeUndefined();
    expect(findSearchField('')).toBeUndefined();
    expect(findSearchField('constructor')).toBeUndefined();
  });

  it('marks only realisedOn and milestone as nullable', () => {
    expect(SEARCH_FIELDS.filter((f) => f.nullable).map((f) => f.name)).toEqual([
      'realisedOn',
      'demandMeta.milestone',
    ]);
  });

  it('lists enum values', () => {
    expect(findSearchField('payerType')?.enumValues).toEqual([
      'BUYER',
      'CO_BUYER',
      'BANK',
      'OTHER',
    ]);
    expect(findSearchField('status')?.enumValues).toEqual(['ACTIVE', 'CANCELLED', 'BOUNCED']);
    expect(findSearchField('demandType')?.enumValues).toEqual(['MANUAL', 'MILESTONE', 'INTEREST']);
    expect(findSearchField('paymentMode')?.enumValues).toHaveLength(11);
    expect(findSearchField('paymentMode')?.enumValues).toContain('TDS');
    for (const f of SEARCH_FIELDS) {
      if (f.type === 'enum') expect(f.enumValues?.length).toBeGreaterThan(0);
      else expect(f.enumValues).toBeUndefined();
    }
  });

  it('resolves sort fields exactly, then case-insensitively', () => {
    expect(SORT_FIELDS).toEqual([
      'receivedDate',
      'receiptNumber',
      'amount',
      'paymentMode',
      'payerType',
      'status',
      'transactionRef',
      'created',
      'id',
    ]);
    expect(findSortField('created')).toBe('created');
    expect(findSortField('RECEIVEDDATE')).toBe('receivedDate');
    expect(findSortField('buyerName')).toBeUndefined();
    expect(findSortField('toString')).toBeUndefined();
  });
});

describe('the receipt catalogue in the search parser', () => {
  const catchAppError = (fn: () => unknown): AppError => {
    try {
      fn();
    } catch (e) {
      if (e instanceof AppError) return e;
      throw e;
    }
    throw new Error('expected an AppError to be thrown');
  };

  it('defaults to receivedDate desc, receiptNumber desc, id desc', () => {
    const expected = [
      { field: 'receivedDate', direction: 'desc' },
      { field: 'receiptNumber', direction: 'desc' },
      { field: 'id', direction: 'desc' },
    ];
    expect(DEFAULT_SORT).toEqual(expected);
    expect(parseSearchRequest(RECEIPT_SEARCH, undefined, undefined)).toEqual({
      page: 0,
      size: 20,
      sort: expected,
      filters: [],
    });
  });

  it('resolves the flat aliases of split and demand fields', () => {
    const parsed = parseFilters(RECEIPT_SEARCH, [
      { field: 'unit', type: 'eq', query: '123e4567-e89b-12d3-a456-426614174000' },
      { field: 'payerId', type: 'is null' },
      { field: 'buyerName', type: 'contains', query: 'x' },
    ]);
    expect(parsed.map((f) => [f.field.name, f.field.source])).toEqual([
      ['demandMeta.unit', 'demand'],
      ['demandSplitMeta.payerId', 'split'],
      ['demandMeta.buyerName', 'demand'],
    ]);
  });

  it('names the receipt sort fields and statuses in its 400s', () => {
    const sort = catchAppError(() => parseSort(RECEIPT_SEARCH, 'buyerName'));
    expect(sort.code).toBe('SEARCH_INVALID_SORT');
    expect(sort.errors?.[0].message).toContain(
      'allowed sort fields: receivedDate, receiptNumber, amount, paymentMode, payerType, status, transactionRef, created, id',
    );
    const status = catchAppError(() =>
      parseFilters(RECEIPT_SEARCH, [{ field: 'status', type: 'eq', query: 'open' }]),
    );
    expect(status.code).toBe('SEARCH_INVALID_QUERY');
    expect(status.errors?.[0].message).toBe(
      'filter 0 (status EQUALS): "open" is not a valid value for status; ' +
        'allowed values (case-insensitive): ACTIVE, CANCELLED, BOUNCED',
    );
  });
});
