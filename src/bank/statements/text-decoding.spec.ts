import { decodeStatement, decodeWindows1252 } from './text-decoding';

describe(decodeStatement.name, () => {
  it('reads UTF-8 (dropping a BOM) and normalises line ends', () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('a,₹\r\nb\rc\n')]);
    expect(decodeStatement(bytes)).toEqual({ text: 'a,₹\nb\nc\n', encoding: 'UTF-8' });
  });

  it('reads Windows-1252 when the bytes are not UTF-8, with the characters 1252 has at 0x80-0x9F', () => {
    // "CAFÉ – “A”" as Windows-1252: É 0xC9, en dash 0x96, curly quotes 0x93 / 0x94.
    const bytes = Buffer.from([0x43, 0x41, 0x46, 0xc9, 0x20, 0x96, 0x20, 0x93, 0x41, 0x94]);
    expect(decodeStatement(bytes)).toEqual({ text: 'CAFÉ – “A”', encoding: 'WINDOWS-1252' });
    expect(decodeWindows1252(Buffer.from([0x80, 0x81]))).toBe('€\u0081');
  });

  it('reads UTF-16 with a BOM (Excel "Unicode text")', () => {
    const le = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from('Date\tNarration\r\n', 'utf16le'),
    ]);
    expect(decodeStatement(le)).toEqual({ text: 'Date\tNarration\n', encoding: 'UTF-16LE' });
  });

  it('refuses a NUL character naming its line', () => {
    expect(() => decodeStatement(Buffer.from('a\nb\nc\u0000d'))).toThrow(
      expect.objectContaining({
        code: 'STATEMENT_UNREADABLE',
        errors: [expect.objectContaining({ field: 'line 3' })],
      }),
    );
  });
});
