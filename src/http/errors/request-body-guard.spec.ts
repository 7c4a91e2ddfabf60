import {
  bodyProblem,
  MAX_BODY_DEPTH,
  MAX_OBJECT_KEYS,
  textProblem,
} from '@/http/errors/request-body-guard';

describe(bodyProblem.name, () => {
  const nest = (levels: number): unknown => {
    let value: unknown = 'leaf';
    for (let i = 0; i < levels; i++) value = i % 2 === 0 ? [value] : { k: value };
    return value;
  };
  const wide = (keys: number) =>
    Object.fromEntries(Array.from({ length: keys }, (_, i) => [`k${i}`, i]));

  it('accepts ordinary bodies, including paired surrogates (emoji) and U+FFFD sent as such', () => {
    expect(bodyProblem({ a: [1, 'x', { b: null }], name: 'Ré 😀 \uFFFD' })).toBeNull();
    expect(bodyProblem(undefined)).toBeNull();
    expect(bodyProblem(nest(MAX_BODY_DEPTH))).toBeNull();
    expect(bodyProblem(wide(MAX_OBJECT_KEYS))).toBeNull();
  });

  it('refuses nesting past the limit without recursing (no stack overflow at 100,000 levels)', () => {
    expect(bodyProblem(nest(MAX_BODY_DEPTH + 1))).toMatchObject({
      code: 'BODY_TOO_COMPLEX',
      message: expect.stringMatching(/deeper than 32/),
    });
    expect(bodyProblem(nest(100_000))?.code).toBe('BODY_TOO_COMPLEX');
  });

  it('refuses more than 1,000 keys in one object or items in one array', () => {
    expect(bodyProblem({ inner: wide(MAX_OBJECT_KEYS + 1) })).toEqual({
      code: 'BODY_TOO_COMPLEX',
      field: 'inner',
      message: 'has 1001 keys, more than 1000',
    });
    expect(bodyProblem(new Array(MAX_OBJECT_KEYS + 1).fill(0))?.code).toBe('BODY_TOO_COMPLEX');
  });

  it('reports complexity before bad text', () => {
    expect(bodyProblem({ a: '\ud800', b: wide(MAX_OBJECT_KEYS + 1) })?.code).toBe(
      'BODY_TOO_COMPLEX',
    );
  });

  it('refuses NUL characters in values and keys, naming the field', () => {
    expect(bodyProblem({ buyerName: 'A\u0000B' })).toMatchObject({
      code: 'VALIDATION_FAILED',
      field: 'buyerName',
      message: expect.stringMatching(/NUL/),
    });
    expect(bodyProblem([{ ['k\u0000']: 1 }])).toMatchObject({ field: '[0].k\u0000' });
  });

  it('refuses lone surrogates, high or low, naming the field', () => {
    expect(bodyProblem({ receiptPrefix: '\ud800x' })).toMatchObject({
      code: 'VALIDATION_FAILED',
      field: 'receiptPrefix',
      message: expect.stringMatching(/surrogate/),
    });
    expect(bodyProblem({ a: { b: ['ok', 'x\udc00'] } })).toMatchObject({ field: 'a.b[1]' });
    expect(bodyProblem('\ud83d')).toMatchObject({ field: '(body)' });
  });

  it('refuses U+FFFD only when the raw bytes were not UTF-8', () => {
    expect(bodyProblem({ name: 'a\uFFFD' }, true)).toMatchObject({
      field: 'name',
      message: expect.stringMatching(/UTF-8/),
    });
    expect(bodyProblem({ name: 'a\uFFFD' }, false)).toBeNull();
  });
});

describe(textProblem.name, () => {
  it.each([
    ['plain', null],
    ['😀', null],
    ['\ud800', 'surrogate'],
    ['\udfff', 'surrogate'],
    ['\ude00\ud83d', 'surrogate'],
    ['a\u0000', 'NUL'],
  ])('%j', (value, expected) => {
    const problem = textProblem(value);
    if (expected === null) expect(problem).toBeNull();
    else expect(problem).toMatch(expected);
  });
});
