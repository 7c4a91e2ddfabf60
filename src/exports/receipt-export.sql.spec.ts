import { inlineParams } from './receipt-export.sql';

describe(inlineParams.name, () => {
  it('replaces each placeholder by its value as a quoted literal, $10 not as $1 and 0', () => {
    const values = ['t', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'ten'];
    expect(inlineParams('x = $1 AND y = $10::text AND z = $2', values)).toBe(
      "x = 't' AND y = 'ten'::text AND z = 'a'",
    );
  });

  it('escapes quotes and backslashes, and writes arrays as array literals', () => {
    expect(inlineParams('$1', ["O'Brien"])).toBe("'O''Brien'");
    expect(inlineParams('$1', ['a\\b'])).toBe(" E'a\\\\b'");
    expect(inlineParams('$1::text[]', [['cash', 'say "hi"', 'back\\slash', "it's"]])).toBe(
      ` E'{"cash","say \\\\"hi\\\\"","back\\\\\\\\slash","it''s"}'::text[]`,
    );
    expect(inlineParams('$1::text[]', [[]])).toBe("'{}'::text[]");
  });

  it('refuses a value it cannot write and a placeholder without a value', () => {
    expect(() => inlineParams('$1', [5])).toThrow(/number/);
    expect(() => inlineParams('$2', ['x'])).toThrow(/\$2/);
  });
});
