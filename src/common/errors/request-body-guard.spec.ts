import { bodyProblem, MAX_BODY_DEPTH } from './request-body-guard';

describe(bodyProblem.name, () => {
  const nest = (levels: number): unknown => {
    let value: unknown = 'leaf';
    for (let i = 0; i < levels; i++) value = i % 2 === 0 ? [value] : { k: value };
    return value;
  };

  it('accepts ordinary bodies', () => {
    expect(bodyProblem({ a: [1, 'x', { b: null }] })).toBeNull();
    expect(bodyProblem(undefined)).toBeNull();
    expect(bodyProblem(nest(MAX_BODY_DEPTH))).toBeNull();
  });

  it('refuses nesting past the limit without recursing (no stack overflow at 100,000 levels)', () => {
    expect(bodyProblem(nest(MAX_BODY_DEPTH + 1))).toMatch(/deeper than 32/);
    expect(bodyProblem(nest(100_000))).toMatch(/deeper/);
  });

  it('refuses NUL characters in values and keys', () => {
    expect(bodyProblem({ buyerName: 'A\u0000B' })).toMatch(/NUL/);
    expect(bodyProblem([{ ['k\u0000']: 1 }])).toMatch(/NUL/);
  });
});
