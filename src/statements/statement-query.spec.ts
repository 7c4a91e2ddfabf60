import { FieldError } from '@/common/app-error';
import { parseStatementQuery } from './statement-query';

describe(parseStatementQuery.name, () => {
  const parse = (raw: Record<string, unknown>) => {
    const errors: FieldError[] = [];
    const query = parseStatementQuery(raw, '2026-11-30', errors);
    return { query, fields: errors.map((e) => e.field) };
  };

  it('defaults: asOf today, to asOf, no from, every payer, json', () => {
    expect(parse({})).toEqual({
      query: {
        from: undefined,
        to: '2026-11-30',
        asOf: '2026-11-30',
        payerId: undefined,
        format: 'json',
      },
      fields: [],
    });
    expect(parse({ asOf: '2026-06-30' }).query).toMatchObject({ to: '2026-06-30' });
  });

  it('takes every valid value; a future asOf projects; payerId in lower case', () => {
    expect(
      parse({
        from: '2026-04-01',
        to: '2026-12-31',
        asOf: '2027-01-31',
        payerId: '0D9C8B7A-6F5E-4D3C-9B2A-1F0E9D8C7B6A',
        format: 'xlsx',
      }),
    ).toEqual({
      query: {
        from: '2026-04-01',
        to: '2026-12-31',
        asOf: '2027-01-31',
        payerId: '0d9c8b7a-6f5e-4d3c-9b2a-1f0e9d8c7b6a',
        format: 'xlsx',
      },
      fields: [],
    });
    expect(parse({ from: '2026-06-30', to: '2026-06-30' }).fields).toEqual([]);
  });

  it.each([
    ['asOf', '2026-02-30'],
    ['asOf', '30-11-2026'],
    ['to', '2026-13-01'],
    ['to', ''],
    ['from', '2026-4-1'],
    ['payerId', 'buyer'],
    ['format', 'csv'],
    ['format', 'PDF'],
  ])('names %s when it is %j', (field, value) => {
    expect(parse({ [field]: value }).fields).toEqual([field]);
  });

  it('names from when it is after to (or after asOf, the default to)', () => {
    expect(parse({ from: '2026-07-01', to: '2026-06-30' }).fields).toEqual(['from']);
    expect(parse({ from: '2026-12-01' }).fields).toEqual(['from']);
    expect(parse({ from: '2026-07-01', asOf: '2026-06-30' }).fields).toEqual(['from']);
  });

  it('names to when it is after asOf (or after today, the default asOf)', () => {
    expect(parse({ to: '2026-07-01', asOf: '2026-06-30' }).fields).toEqual(['to']);
    expect(parse({ to: '2026-12-01' }).fields).toEqual(['to']);
  });

  it('judges a range only against dates given well', () => {
    expect(parse({ to: '2026-07-01', asOf: 'x' }).fields).toEqual(['asOf']);
    expect(parse({ from: '2026-07-01', to: 'x' }).fields).toEqual(['to']);
  });

  it('names every bad parameter at once', () => {
    expect(parse({ from: 'a', to: 'b', asOf: 'c', payerId: 'd', format: 'e' }).fields).toEqual([
      'asOf',
      'to',
      'from',
      'payerId',
      'format',
    ]);
  });
});
