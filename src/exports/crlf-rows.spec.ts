import { CrlfRows } from './crlf-rows';

/** `input` through one CrlfRows, cut into chunks at `cuts`. */
function convert(input: string, cuts: number[]): string {
  const bytes = Buffer.from(input, 'utf8');
  const rows = new CrlfRows();
  const out: Buffer[] = [];
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    out.push(rows.convert(bytes.subarray(from, cut)));
    from = cut;
  }
  return Buffer.concat(out).toString('utf8');
}

describe(CrlfRows.name, () => {
  const csv =
    'a,"line one\nline two",b\n' +
    '"CHQ ""00451""","x\r\ny",\n' +
    ',"",""""\n' +
    'plain,₹ 1,"ends with quote"""\n';
  const expected =
    'a,"line one\nline two",b\r\n' +
    '"CHQ ""00451""","x\r\ny",\r\n' +
    ',"",""""\r\n' +
    'plain,₹ 1,"ends with quote"""\r\n';

  it('ends rows with CRLF and keeps line breaks inside quoted cells', () => {
    expect(convert(csv, [])).toBe(expected);
  });

  it('gives the same bytes whatever the chunks (every cut, and every pair of cuts)', () => {
    const length = Buffer.byteLength(csv);
    for (let i = 0; i <= length; i++) {
      expect(convert(csv, [i])).toBe(expected);
      for (let j = i; j <= length; j += 7) expect(convert(csv, [i, j])).toBe(expected);
    }
  });

  it('passes a chunk without a row end through as it is', () => {
    const chunk = Buffer.from('no row end, "nor a closed quote');
    expect(new CrlfRows().convert(chunk)).toBe(chunk);
  });
});
