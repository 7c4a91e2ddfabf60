import { normaliseOperator, OPERATORS_BY_TYPE, SEARCH_OPERATORS } from '@/search/search-catalogue';

describe('search operators', () => {
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
});
