import { FieldError } from '@/common/app-error';
import { bucketLabels, parseAgeingQuery } from './ageing-query';

describe(parseAgeingQuery.name, () => {
  const parse = (raw: Record<string, unknown>) => {
    const errors: FieldError[] = [];
    const query = parseAgeingQuery(raw, '2026-11-25', errors);
    return { query, fields: errors.map((e) => e.field) };
  };

  it('defaults: today, 30,60,90, none, page 0 of 50', () => {
    expect(parse({})).toEqual({
      query: { asOf: '2026-11-25', edges: [30, 60, 90], groupBy: 'none', page: 0, size: 50 },
      fields: [],
    });
  });

  it('takes every valid value', () => {
    expect(
      parse({ asOf: '2024-02-29', buckets: '15,45', groupBy: 'payerType', page: '3', size: '500' }),
    ).toEqual({
      query: { asOf: '2024-02-29', edges: [15, 45], groupBy: 'payerType', page: 3, size: 500 },
      fields: [],
    });
    expect(parse({ buckets: '1,2,3,4,5,6,7,8' }).query.edges).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it.each([
    ['asOf', '2026-02-30'],
    ['asOf', '25-11-2026'],
    ['asOf', ''],
    ['buckets', ''],
    ['buckets', '0,30'],
    ['buckets', '60,30'],
    ['buckets', '30,30'],
    ['buckets', '30,,60'],
    ['buckets', '-30'],
    ['buckets', '1.5'],
    ['buckets', '1,2,3,4,5,6,7,8,9'],
    ['buckets', '100000'],
    ['groupBy', 'buyer'],
    ['groupBy', 'BOOKING'],
    ['page', '-1'],
    ['page', 'x'],
    ['size', '0'],
    ['size', '501'],
    ['size', '1e2'],
  ])('names %s when it is %j', (field, value) => {
    expect(parse({ [field]: value }).fields).toEqual([field]);
  });

  it('names every bad parameter at once', () => {
    expect(parse({ asOf: 'x', buckets: 'y', groupBy: 'z', page: 'p', size: 's' }).fields).toEqual([
      'asOf',
      'buckets',
      'groupBy',
      'page',
      'size',
    ]);
  });
});

describe(bucketLabels.name, () => {
  it('labels NOT_DUE, the ranges and the open end', () => {
    expect(bucketLabels([30, 60, 90])).toEqual(['NOT_DUE', '1-30', '31-60', '61-90', '91+']);
    expect(bucketLabels([15, 45])).toEqual(['NOT_DUE', '1-15', '16-45', '46+']);
    expect(bucketLabels([1])).toEqual(['NOT_DUE', '1-1', '2+']);
  });
});
