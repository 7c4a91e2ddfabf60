import {
  OPERATORS_BY_TYPE,
  SEARCH_FIELDS,
  SEARCH_FIELD_NAMES,
  SEARCH_OPERATORS,
  SORT_COLUMNS,
  SORT_FIELDS,
  findSearchField,
  findSortField,
  normaliseOperator,
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

  it('marks only milestone as nullable', () => {
    expect(SEARCH_FIELDS.filter((f) => f.nullable).map((f) => f.name)).toEqual([
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
    expect(findSearchField('demandType')?.enumValues).toEqual(['MANUAL', 'MILESTONE']);
    expect(findSearchField('paymentMode')?.enumValues).toHaveLength(10);
    for (const f of SEARCH_FIELDS) {
      if (f.type === 'enum') expect(f.enumValues?.length).toBeGreaterThan(0);
      else expect(f.enumValues).toBeUndefined();
    }
  });

  it('allows the specified operators per type', () => {
    expect(OPERATORS_BY_TYPE.keyword).toEqual(['CONTAINS']);
    expect(OPERATORS_BY_TYPE.uuid).toEqual(OPERATORS_BY_TYPE.enum);
    expect(OPERATORS_BY_TYPE.uuid).not.toContain('CONTAINS');
    expect(OPERATORS_BY_TYPE.text).toEqual(
      expect.arrayContaining(['CONTAINS', 'NOT_CONTAINS', 'STARTS_WITH', 'ENDS_WITH']),
    );
    expect(OPERATORS_BY_TYPE.text).not.toContain('GT');
    expect(OPERATORS_BY_TYPE.number).toEqual(OPERATORS_BY_TYPE.date);
    expect(OPERATORS_BY_TYPE.number).toEqual(expect.arrayContaining(['GT', 'BETWEEN']));
    expect(OPERATORS_BY_TYPE.number).not.toContain('CONTAINS');
  });

  describe('normaliseOperator', () => {
    it.each([
      ['EQUALS', 'EQUALS'],
      ['eq', 'EQUALS'],
      ['equal', 'EQUALS'],
      ['is', 'EQUALS'],
      ['=', 'EQUALS'],
      ['==', 'EQUALS'],
      ['NOT_EQUALS', 'NOT_EQUALS'],
      ['not equals', 'NOT_EQUALS'],
      ['ne', 'NOT_EQUALS'],
      ['neq', 'NOT_EQUALS'],
      ['!=', 'NOT_EQUALS'],
      ['<>', 'NOT_EQUALS'],
      ['contains', 'CONTAINS'],
      ['like', 'CONTAINS'],
      ['ILIKE', 'CONTAINS'],
      ['not_contains', 'NOT_CONTAINS'],
      ['not-contains', 'NOT_CONTAINS'],
      ['starts with', 'STARTS_WITH'],
      ['Starts-With', 'STARTS_WITH'],
      ['startsWith', 'STARTS_WITH'],
      ['ends_with', 'ENDS_WITH'],
      ['gt', 'GT'],
      ['>', 'GT'],
      ['gte', 'GTE'],
      ['>=', 'GTE'],
      ['lt', 'LT'],
      ['<', 'LT'],
      ['lte', 'LTE'],
      ['<=', 'LTE'],
      ['between', 'BETWEEN'],
      ['in', 'IN'],
      ['not-in', 'NOT_IN'],
      ['not in', 'NOT_IN'],
      ['NOT_IN', 'NOT_IN'],
      ['is null', 'IS_NULL'],
      ['IS_NULL', 'IS_NULL'],
      ['is-not-null', 'IS_NOT_NULL'],
      ['  Is Not Null  ', 'IS_NOT_NULL'],
    ])('%j -> %s', (raw, expected) => {
      expect(normaliseOperator(raw)).toBe(expected);
    });

    it('normalises every canonical name, in any case', () => {
      for (const op of SEARCH_OPERATORS) {
        expect(normaliseOperator(op)).toBe(op);
        expect(normaliseOperator(op.toLowerCase())).toBe(op);
      }
    });

    it.each(['', 'equals!', '===', 'foo', 'approx', '=>'])('rejects %j', (raw) => {
      expect(normaliseOperator(raw)).toBeUndefined();
    });
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
