import fc from 'fast-check';
import {
  counterKey,
  DEFAULT_NUMBERING,
  DOCUMENT_TYPES,
  DocumentType,
  financialYear,
  fyStartMonthFor,
  GST_DOCUMENT_TYPES,
  gstNumberingProblem,
  numberWarnings,
  parsePattern,
  PatternError,
  patternUsesParent,
  RenderContext,
  renderNumber,
  validatePattern,
} from './number-pattern';
import {
  formatLocalDate,
  LocalDate,
  localDateInZone,
  parseLocalDate,
} from '@/common/dates/local-date';

const date = (year: number, month: number, day: number): LocalDate => ({ year, month, day });

const ctx = (over: Partial<RenderContext> = {}): RenderContext => ({
  prefix: 'RCT',
  separator: '/',
  date: date(2025, 6, 9),
  fyStartMonth: 4,
  ...over,
});

const render = (
  pattern: string,
  seq: bigint | number,
  over: Partial<RenderContext> = {},
  type: DocumentType = 'demand-split',
) => renderNumber(parsePattern(pattern, type), ctx(over), seq);

const key = (pattern: string, over: Partial<RenderContext> = {}, type: DocumentType = 'demand') =>
  counterKey(parsePattern(pattern, type), ctx(over));

describe('defaults', () => {
  it('has a default for every document type, all valid', () => {
    expect(Object.keys(DEFAULT_NUMBERING.documents).sort()).toEqual([...DOCUMENT_TYPES].sort());
    expect(DEFAULT_NUMBERING.separator).toBe('/');
    expect(DEFAULT_NUMBERING.fyStartMonth).toBe(4);
    const prefixes = DOCUMENT_TYPES.map((t) => DEFAULT_NUMBERING.documents[t].prefix);
    expect(prefixes).toEqual(['BKG', 'DMD', 'DSP', 'RCT', 'SNG', 'INV', 'CRN', 'RFD']);
    for (const type of DOCUMENT_TYPES) {
      const d = DEFAULT_NUMBERING.documents[type];
      expect(d.pattern).toBe('{PREFIX}{SEP}{FY}{SEP}{SEQ:5}');
      expect(d.starting).toBe(1);
      expect(validatePattern(d.pattern, type)).toBeNull();
    }
  });

  it('renders the default receipt number', () => {
    expect(render(DEFAULT_NUMBERING.documents.receipt.pattern, 1)).toBe('RCT/25-26/00001');
  });
});

describe('renderNumber', () => {
  it('renders every token', () => {
    const c = { prefix: 'DSP', separator: '-', date: date(2026, 2, 7), parent: 'DMD/25-26/00042' };
    expect(render('{PREFIX}|{SEQ}', 1, c)).toBe('DSP|1');
    expect(render('{SEP}|{SEQ}', 1, c)).toBe('-|1');
    expect(render('{YYYY}|{SEQ}', 1, c)).toBe('2026|1');
    expect(render('{YY}|{SEQ}', 1, c)).toBe('26|1');
    expect(render('{MM}|{SEQ}', 1, c)).toBe('02|1');
    expect(render('{DD}|{SEQ}', 1, c)).toBe('07|1');
    // February 2026 is still in the financial year that started in April 2025.
    expect(render('{FY}|{SEQ}', 1, c)).toBe('25-26|1');
    expect(render('{FYYYY}|{SEQ}', 1, c)).toBe('2025-26|1');
    expect(render('{PARENT}|{SEQ}', 1, c)).toBe('DMD/25-26/00042|1');
    expect(render('{SEQ:4}', 7, c)).toBe('0007');
    expect(render('{PREFIX}{SEP}{YYYY}{MM}{DD}:{YY}:{FY}:{FYYYY}{PARENT}{SEQ:3}', 5, c)).toBe(
      'DSP-20260207:26:25-26:2025-26DMD/25-26/00042005',
    );
  });

  it('keeps literal text as is', () => {
    expect(render('INV {SEQ} (copy)', 3)).toBe('INV 3 (copy)');
    expect(render('A:B_c{SEQ:2}.x', 3)).toBe('A:B_c03.x');
  });

  it('pads the sequence to at least its width and never truncates it', () => {
    expect(render('{SEQ:3}', 1)).toBe('001');
    expect(render('{SEQ:3}', 999)).toBe('999');
    expect(render('{SEQ:3}', 1234)).toBe('1234');
    expect(render('{SEQ:1}', 1234)).toBe('1234');
    expect(render('{SEQ:18}', 1)).toBe('000000000000000001');
    expect(render('{SEQ:5}', 12345678901234567890n)).toBe('12345678901234567890');
  });

  it('does not pad {SEQ} without a width', () => {
    expect(render('X{SEQ}', 1)).toBe('X1');
    expect(render('X{SEQ}', 42)).toBe('X42');
    expect(render('X{SEQ}', 0)).toBe('X0');
  });

  it('accepts a bigint or a safe integer, not a negative, fractional or unsafe number', () => {
    expect(render('{SEQ}', 5n)).toBe('5');
    expect(() => render('{SEQ}', -1)).toThrow(RangeError);
    expect(() => render('{SEQ}', -1n)).toThrow(RangeError);
    expect(() => render('{SEQ}', 1.5)).toThrow(RangeError);
    expect(() => render('{SEQ}', Number.MAX_SAFE_INTEGER + 1)).toThrow(RangeError);
  });

  it('throws when the pattern uses {PARENT} and no parent is given', () => {
    expect(() => render('{PARENT}/{SEQ}', 1, { parent: undefined })).toThrow(/PARENT/);
    expect(() => render('{PARENT}/{SEQ}', 1, { parent: '' })).toThrow(/PARENT/);
    expect(render('{PREFIX}/{SEQ}', 1, { parent: undefined })).toBe('RCT/1');
  });

  it('rejects an invalid date or fyStartMonth in the context', () => {
    expect(() => render('{SEQ}', 1, { date: date(2025, 2, 29) })).toThrow(RangeError);
    expect(() => render('{SEQ}', 1, { fyStartMonth: 0 })).toThrow(RangeError);
    expect(() => render('{SEQ}', 1, { fyStartMonth: 13 })).toThrow(RangeError);
  });

  it('renders the financial year around its boundaries', () => {
    const fy = (d: LocalDate, fyStartMonth: number) =>
      render('{FY} {FYYYY} {SEQ}', 1, { date: d, fyStartMonth });
    expect(fy(date(2026, 3, 31), 4)).toBe('25-26 2025-26 1');
    expect(fy(date(2026, 4, 1), 4)).toBe('26-27 2026-27 1');
    expect(fy(date(2025, 12, 31), 1)).toBe('25 2025 1');
    expect(fy(date(2026, 1, 1), 1)).toBe('26 2026 1');
    expect(fy(date(2025, 9, 30), 10)).toBe('24-25 2024-25 1');
    expect(fy(date(2025, 10, 1), 10)).toBe('25-26 2025-26 1');
    expect(fy(date(1999, 5, 1), 4)).toBe('99-00 1999-00 1');
  });
});

describe('financialYear', () => {
  it('puts 31 March and 1 April in different years when the year starts in April', () => {
    expect(financialYear(date(2026, 3, 31), 4)).toEqual({
      startYear: 2025,
      endYear: 2026,
      short: '25-26',
      long: '2025-26',
    });
    expect(financialYear(date(2026, 4, 1), 4)).toEqual({
      startYear: 2026,
      endYear: 2027,
      short: '26-27',
      long: '2026-27',
    });
    expect(financialYear(date(2025, 4, 1), 4).short).toBe('25-26');
  });

  it('is the calendar year when it starts in January', () => {
    expect(financialYear(date(2025, 1, 1), 1)).toEqual({
      startYear: 2025,
      endYear: 2025,
      short: '25',
      long: '2025',
    });
    expect(financialYear(date(2025, 12, 31), 1).long).toBe('2025');
  });

  it('handles a year starting in October', () => {
    expect(financialYear(date(2025, 9, 30), 10).short).toBe('24-25');
    expect(financialYear(date(2025, 10, 1), 10).short).toBe('25-26');
    expect(financialYear(date(2026, 1, 15), 10).long).toBe('2025-26');
  });

  it('handles a year starting in December and the century boundary', () => {
    expect(financialYear(date(2025, 11, 30), 12).short).toBe('24-25');
    expect(financialYear(date(2025, 12, 1), 12).short).toBe('25-26');
    expect(financialYear(date(2000, 2, 1), 4).short).toBe('99-00');
    expect(financialYear(date(2000, 2, 1), 4).long).toBe('1999-00');
  });

  it('rejects an fyStartMonth outside 1..12', () => {
    for (const m of [0, 13, 4.5, NaN]) {
      expect(() => financialYear(date(2025, 1, 1), m)).toThrow(RangeError);
    }
  });
});

describe('localDateInZone', () => {
  it('gives the tenant-zone date, not the UTC one, for a zone ahead of UTC', () => {
    const instant = new Date('2026-03-31T20:00:00Z');
    const local = localDateInZone(instant, 'Asia/Kolkata');
    expect(local).toEqual(date(2026, 4, 1));
    // A receipt made then belongs to the next financial year.
    expect(render('{FY}/{SEQ}', 1, { date: local })).toBe('26-27/1');
    expect(localDateInZone(instant, 'UTC')).toEqual(date(2026, 3, 31));
  });

  it('gives the previous day for a zone behind UTC', () => {
    const instant = new Date('2026-04-01T02:00:00Z');
    const local = localDateInZone(instant, 'America/New_York');
    expect(local).toEqual(date(2026, 3, 31));
    expect(render('{FY}/{SEQ}', 1, { date: local })).toBe('25-26/1');
    expect(localDateInZone(instant, 'Asia/Kolkata')).toEqual(date(2026, 4, 1));
  });

  it('rejects an unknown zone and an invalid instant', () => {
    expect(() => localDateInZone(new Date(), 'Mars/Olympus')).toThrow(RangeError);
    expect(() => localDateInZone(new Date('nope'), 'UTC')).toThrow(RangeError);
  });
});

describe('parseLocalDate / formatLocalDate', () => {
  it('round-trips a real calendar date', () => {
    expect(parseLocalDate('2026-04-01')).toEqual(date(2026, 4, 1));
    expect(parseLocalDate('2024-02-29')).toEqual(date(2024, 2, 29));
    expect(formatLocalDate(date(2026, 4, 1))).toBe('2026-04-01');
    expect(formatLocalDate(parseLocalDate('0999-12-31'))).toBe('0999-12-31');
  });

  it.each([
    '2025-02-29',
    '2100-02-29',
    '2025-04-31',
    '2025-13-01',
    '2025-00-10',
    '2025-01-00',
    '0000-01-01',
    '2025-1-01',
    '25-01-01',
    '2025-01-01T00:00:00Z',
    ' 2025-01-01',
    '',
  ])('rejects %p', (text) => {
    expect(() => parseLocalDate(text)).toThrow(RangeError);
  });

  it('refuses to format an invalid date', () => {
    expect(() => formatLocalDate(date(2025, 2, 30))).toThrow(RangeError);
  });
});

describe('parsePattern', () => {
  it('splits a pattern into literals, tokens and the sequence', () => {
    expect(parsePattern('INV-{FY}/{SEQ:4}x', 'receipt')).toEqual({
      source: 'INV-{FY}/{SEQ:4}x',
      documentType: 'receipt',
      legacy: false,
      parts: [
        { type: 'literal', text: 'INV-' },
        { type: 'token', kind: 'FY' },
        { type: 'literal', text: '/' },
        { type: 'seq', width: 4 },
        { type: 'literal', text: 'x' },
      ],
    });
  });

  it('expands the legacy 00000 and #### forms to {PREFIX}{SEP}{SEQ:n}', () => {
    const expanded = (n: number) => [
      { type: 'token', kind: 'PREFIX' },
      { type: 'token', kind: 'SEP' },
      { type: 'seq', width: n },
    ];
    const zeros = parsePattern('00000', 'receipt');
    expect(zeros.legacy).toBe(true);
    expect(zeros.parts).toEqual(expanded(5));
    const hashes = parsePattern('####', 'booking');
    expect(hashes.legacy).toBe(true);
    expect(hashes.parts).toEqual(expanded(4));
    expect(render('00000', 42)).toBe('RCT/00042');
    expect(render('####', 123456, { prefix: 'BKG', separator: '-' })).toBe('BKG-123456');
    expect(render('0', 7)).toBe('RCT/7');
  });

  it('treats 0 and # mixed with other text as literals', () => {
    const parsed = parsePattern('#{SEQ}0', 'receipt');
    expect(parsed.legacy).toBe(false);
    expect(render('#{SEQ}0', 5)).toBe('#50');
  });

  it('gives the same counter key to a legacy pattern and its expansion', () => {
    expect(key('00000')).toBe(key('{PREFIX}{SEP}{SEQ:5}'));
    expect(key('00000')).toBe('RCT/{SEQ}');
  });

  it('tells whether a pattern uses {PARENT}', () => {
    expect(patternUsesParent(parsePattern('{PARENT}/{SEQ}', 'demand-split'))).toBe(true);
    expect(patternUsesParent(parsePattern('{PREFIX}/{SEQ}', 'demand-split'))).toBe(false);
  });

  it('throws PatternError for an invalid pattern', () => {
    expect(() => parsePattern('{FOO}{SEQ}', 'receipt')).toThrow(PatternError);
    expect(() => parsePattern('', 'receipt')).toThrow(PatternError);
  });
});

describe('validatePattern', () => {
  it('returns null for valid patterns', () => {
    for (const p of [
      '{SEQ}',
      '{SEQ:1}',
      '{SEQ:18}',
      '00000',
      '#',
      '{PREFIX}{SEP}{FYYYY}{SEP}{MM}{SEP}{SEQ:6}',
      'R-{YYYY}{MM}{DD}-{SEQ}',
      'x'.repeat(59) + '{SEQ}',
    ]) {
      expect(validatePattern(p, 'receipt')).toBeNull();
    }
    expect(validatePattern('{PARENT}{SEP}{SEQ:2}', 'demand')).toBeNull();
    expect(validatePattern('{PARENT}{SEP}{SEQ:2}', 'demand-split')).toBeNull();
  });

  it('requires {SEQ} exactly once', () => {
    expect(validatePattern('{PREFIX}{SEP}{FY}', 'receipt')).toMatch(
      /must contain \{SEQ\}.*exactly once; found 0/,
    );
    expect(validatePattern('INV', 'receipt')).toMatch(/exactly once; found 0/);
    expect(validatePattern('{SEQ}/{SEQ:3}', 'receipt')).toMatch(/exactly once; found 2/);
    expect(validatePattern('{SEQ}{SEQ}{SEQ}', 'receipt')).toMatch(/exactly once; found 3/);
  });

  it('names an unknown token and lists the allowed ones', () => {
    const message = validatePattern('{PREFIX}{FOO}{SEQ}', 'receipt');
    expect(message).toMatch(/^unknown token \{FOO\}/);
    expect(message).toContain(
      'allowed tokens: {PREFIX}, {SEP}, {YYYY}, {YY}, {MM}, {DD}, {FY}, {FYYYY}, {SEQ}, {SEQ:n}',
    );
    // {PARENT} is only listed where it is allowed.
    expect(message).not.toContain('{PARENT}');
    expect(validatePattern('{FOO}{SEQ}', 'demand')).toContain('{SEQ:n}, {PARENT}');
    expect(validatePattern('{}{SEQ}', 'receipt')).toMatch(/^unknown token \{\}/);
    expect(validatePattern('{ SEQ }', 'receipt')).toMatch(/^unknown token \{ SEQ \}/);
  });

  it('rejects a lower-case token and suggests the upper-case one', () => {
    const message = validatePattern('{seq}', 'receipt');
    expect(message).toMatch(/^unknown token \{seq\}/);
    expect(message).toContain('did you mean {SEQ}?');
    expect(message).toContain('allowed tokens: {PREFIX}');
    expect(validatePattern('{Prefix}{SEQ}', 'receipt')).toContain('did you mean {PREFIX}?');
    expect(validatePattern('{SEQ}{fy}', 'receipt')).toMatch(/^unknown token \{fy\}/);
  });

  it('names a stray brace', () => {
    expect(validatePattern('INV{SEQ', 'receipt')).toMatch(/^stray \{ at character 4/);
    expect(validatePattern('INV}{SEQ}', 'receipt')).toMatch(/^stray \} at character 4/);
    expect(validatePattern('{SEQ}}', 'receipt')).toMatch(/^stray \} at character 6/);
    expect(validatePattern('{{SEQ}}', 'receipt')).toMatch(/^stray \{ at character 1/);
    expect(validatePattern('{SEQ}{', 'receipt')).toMatch(/allowed tokens: \{PREFIX\}/);
  });

  it('allows {PARENT} only in demand and demand-split patterns', () => {
    for (const type of ['booking', 'receipt', 'snag'] as const) {
      expect(validatePattern('{PARENT}/{SEQ}', type)).toMatch(
        /^\{PARENT\} is only allowed in demand and demand-split patterns/,
      );
    }
  });

  it('bounds the SEQ width to 1..18', () => {
    expect(validatePattern('{SEQ:0}', 'receipt')).toMatch(/width must be from 1 to 18; got 0/);
    expect(validatePattern('{SEQ:19}', 'receipt')).toMatch(/width must be from 1 to 18; got 19/);
    expect(validatePattern('{SEQ:}', 'receipt')).toMatch(/must be a number from 1 to 18/);
    expect(validatePattern('{SEQ:-1}', 'receipt')).toMatch(/must be a number from 1 to 18/);
    expect(validatePattern('{SEQ:x}', 'receipt')).toMatch(/must be a number from 1 to 18/);
    expect(validatePattern('{SEQ:05}', 'receipt')).toMatch(/without leading zeros.*\{SEQ:5\}/);
    expect(validatePattern('0'.repeat(18), 'receipt')).toBeNull();
    expect(validatePattern('0'.repeat(19), 'receipt')).toMatch(
      /legacy pattern 0{19} means \{SEQ:19\}.*from 1 to 18/,
    );
  });

  it('rejects an empty pattern', () => {
    expect(validatePattern('', 'receipt')).toBe('pattern must not be empty');
  });

  it('rejects a pattern longer than 64 characters', () => {
    const p = 'x'.repeat(60) + '{SEQ}';
    expect(p.length).toBe(65);
    expect(validatePattern(p, 'receipt')).toBe('pattern is 65 characters; at most 64 are allowed');
    expect(validatePattern('x'.repeat(59) + '{SEQ}', 'receipt')).toBeNull();
  });

  it('rejects an unknown document type', () => {
    expect(validatePattern('{SEQ}', 'invoice' as DocumentType)).toMatch(/unknown document type/);
  });
});

describe('counterKey', () => {
  const fyPattern = '{PREFIX}{SEP}{FY}{SEP}{SEQ:5}';

  it('masks the sequence as {SEQ}', () => {
    expect(key(fyPattern)).toBe('RCT/25-26/{SEQ}');
  });

  it('is the same within a financial year and differs across years', () => {
    expect(key(fyPattern, { date: date(2025, 4, 1) })).toBe(
      key(fyPattern, { date: date(2026, 3, 31) }),
    );
    expect(key(fyPattern, { date: date(2026, 3, 31) })).not.toBe(
      key(fyPattern, { date: date(2026, 4, 1) }),
    );
  });

  it('differs per parent', () => {
    const p = '{PARENT}{SEP}{SEQ:2}';
    expect(key(p, { parent: 'DMD/25-26/00001' })).toBe('DMD/25-26/00001/{SEQ}');
    expect(key(p, { parent: 'DMD/25-26/00001' })).not.toBe(key(p, { parent: 'DMD/25-26/00002' }));
  });

  it('never restarts when the pattern has no date token', () => {
    const p = '{PREFIX}{SEP}{SEQ:6}';
    expect(key(p, { date: date(2020, 1, 1) })).toBe(key(p, { date: date(2031, 12, 31) }));
  });

  it('restarts monthly or daily with the matching date tokens', () => {
    const monthly = '{YYYY}{MM}-{SEQ}';
    expect(key(monthly, { date: date(2025, 6, 1) })).toBe(
      key(monthly, { date: date(2025, 6, 30) }),
    );
    expect(key(monthly, { date: date(2025, 6, 30) })).not.toBe(
      key(monthly, { date: date(2025, 7, 1) }),
    );
  });

  it('does not change when only the sequence width changes', () => {
    expect(key('{PREFIX}{SEP}{FY}{SEP}{SEQ:5}')).toBe(key('{PREFIX}{SEP}{FY}{SEP}{SEQ:8}'));
    expect(key('{PREFIX}{SEP}{FY}{SEP}{SEQ}')).toBe(key('{PREFIX}{SEP}{FY}{SEP}{SEQ:5}'));
  });

  it('changes with the prefix or separator', () => {
    expect(key(fyPattern, { prefix: 'RCT' })).not.toBe(key(fyPattern, { prefix: 'RCP' }));
    expect(key(fyPattern, { separator: '/' })).not.toBe(key(fyPattern, { separator: '-' }));
  });

  it('needs the parent when the pattern uses one', () => {
    expect(() => key('{PARENT}{SEQ}', {})).toThrow(/PARENT/);
  });
});

describe('numberWarnings', () => {
  const warn = (pattern: string, seq: bigint | number, over: Partial<RenderContext> = {}) =>
    numberWarnings(parsePattern(pattern, 'receipt'), ctx(over), seq);

  it('says from which sequence a number that fits now exceeds 16 characters', () => {
    // 10 fixed characters + 5 digits = 15; 6 digits still fit (16), 7 do not.
    expect(warn('{PREFIX}{SEP}{FY}{SEP}{SEQ:5}', 1)).toEqual([
      'RCT/25-26/00001 is 15 characters; it exceeds the 16 allowed by GST rules from sequence 1000000',
    ]);
    // Already exactly 16: one more digit is too many.
    expect(warn('{PREFIX}{SEP}{FY}{SEP}{SEQ:6}', 1)).toEqual([
      'RCT/25-26/000001 is 16 characters; it exceeds the 16 allowed by GST rules from sequence 1000000',
    ]);
    expect(warn('{PREFIX}{SEP}{FY}{SEP}{SEQ}', 42)).toEqual([
      'RCT/25-26/42 is 12 characters; it exceeds the 16 allowed by GST rules from sequence 1000000',
    ]);
    expect(warn('R{SEQ}', 1)).toEqual([
      'R1 is 2 characters; it exceeds the 16 allowed by GST rules from sequence 1000000000000000',
    ]);
  });

  it('says when a number is already longer than 16 characters', () => {
    const warnings = warn('{PREFIX}{SEP}{FYYYY}{SEP}{MM}{SEP}{SEQ:6}', 1);
    expect(warnings).toEqual([
      'RCT/2025-26/06/000001 is 21 characters; GST rules allow at most 16',
    ]);
    expect(warn('{PREFIX}{SEP}{FY}{SEP}{SEQ:3}', 12345678)).toEqual([
      'RCT/25-26/12345678 is 18 characters; GST rules allow at most 16',
    ]);
  });

  it('names characters GST does not allow', () => {
    const warnings = warn('{PREFIX}_{FY} {SEQ}.', 1);
    expect(warnings).toHaveLength(2);
    expect(warnings[1]).toBe(
      'RCT_25-26 1. contains "_", " " (space), "."; GST rules allow only letters, digits, - and /',
    );
    expect(warn('{PREFIX}{SEP}{SEQ}', 1, { separator: '.' })[1]).toContain('"."');
    expect(warn('{PREFIX}{SEQ}', 1, { prefix: 'RÉC' })[1]).toContain('"É"');
  });

  it('flags a leading 0, / or -', () => {
    expect(warn('{SEQ:5}', 1)).toContain(
      '00001 starts with "0"; the GST e-invoice schema refuses a number starting with 0, / or -',
    );
    expect(warn('{SEP}{SEQ}', 1)[1]).toMatch(/^\/1 starts with "\/"/);
    expect(warn('-{SEQ}', 1)[1]).toMatch(/^-1 starts with "-"/);
    expect(warn('{MM}{SEQ}', 1)[1]).toMatch(/^061 starts with "0"/);
    // The sample decides: an unpadded sequence does not start with 0.
    expect(warn('{SEQ}', 1)).toHaveLength(1);
  });

  it('has only the length note for a clean default receipt number', () => {
    const warnings = warn(DEFAULT_NUMBERING.documents.receipt.pattern, 1);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/from sequence 1000000$/);
  });
});

describe('property: rendering is injective on the sequence for a fixed key', () => {
  const literalChar = fc.constantFrom(...'ABZaz09/-_.#: '.split(''));
  const literal = fc.string({ unit: literalChar, minLength: 1, maxLength: 4 });
  const token = fc.constantFrom(
    '{PREFIX}',
    '{SEP}',
    '{YYYY}',
    '{YY}',
    '{MM}',
    '{DD}',
    '{FY}',
    '{FYYYY}',
    '{PARENT}',
  );
  const piece = fc.oneof(literal, token);
  const seqToken = fc.oneof(
    fc.constant({ text: '{SEQ}', width: 1 }),
    fc.integer({ min: 1, max: 18 }).map((w) => ({ text: `{SEQ:${w}}`, width: w })),
  );
  const pattern = fc
    .tuple(fc.array(piece, { maxLength: 4 }), seqToken, fc.array(piece, { maxLength: 4 }))
    .map(([before, seq, after]) => ({ text: before.join('') + seq.text + after.join(''), seq }))
    .filter((p) => p.text.length <= 64);
  const localDate = fc
    .record({ year: fc.integer({ min: 1, max: 9999 }), month: fc.integer({ min: 1, max: 12 }) })
    .chain(({ year, month }) =>
      fc
        .integer({ min: 1, max: new Date(Date.UTC(year, month, 0)).getUTCDate() })
        .map((day) => ({ year, month, day })),
    );
  const text = fc.string({ unit: fc.constantFrom(...'ABC123/-'.split('')), maxLength: 6 });
  const context = fc.record({
    prefix: text,
    separator: fc.constantFrom('/', '-', '', '.'),
    date: localDate,
    fyStartMonth: fc.integer({ min: 1, max: 12 }),
    parent: fc.string({
      unit: fc.constantFrom(...'DMS0123/-'.split('')),
      minLength: 1,
      maxLength: 16,
    }),
  });
  const seq = fc.oneof(
    fc.bigInt({ min: 0n, max: 10n ** 25n }),
    fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
  );

  it('masking the sequence digits of a rendered number gives its counter key', () => {
    fc.assert(
      fc.property(pattern, context, seq, seq, (p, c, a, b) => {
        const parsed = parsePattern(p.text, 'demand-split');
        const k = counterKey(parsed, c);
        const at = k.indexOf('{SEQ}');
        expect(at).toBeGreaterThanOrEqual(0);
        expect(k.indexOf('{SEQ}', at + 1)).toBe(-1);
        const head = k.slice(0, at);
        const tail = k.slice(at + '{SEQ}'.length);

        const rendered = renderNumber(parsed, c, a);
        const digits = String(a).padStart(p.seq.width, '0');
        expect(rendered).toBe(head + digits + tail);
        const masked =
          rendered.slice(0, head.length) + '{SEQ}' + rendered.slice(head.length + digits.length);
        expect(masked).toBe(k);

        if (BigInt(a) !== BigInt(b)) {
          expect(renderNumber(parsed, c, b)).not.toBe(rendered);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('GST document types (tax-invoice, credit-note, refund)', () => {
  const gstCtx = (prefix = 'INV', separator = '/') => ({
    prefix,
    separator,
    date: date(2026, 11, 22),
  });
  const problem = (pattern: string, prefix?: string, separator?: string) =>
    gstNumberingProblem(parsePattern(pattern, 'tax-invoice'), gstCtx(prefix, separator));

  it('need {FY} or {FYYYY}, never {PARENT}, and not the legacy form', () => {
    for (const type of GST_DOCUMENT_TYPES) {
      expect(validatePattern('{PREFIX}{SEP}{FY}{SEP}{SEQ:5}', type)).toBeNull();
      expect(validatePattern('{PREFIX}{FYYYY}{SEQ:4}', type)).toBeNull();
      expect(validatePattern('{PREFIX}{SEP}{YYYY}{SEP}{SEQ:5}', type)).toMatch(
        /\{FY\} or \{FYYYY\}/,
      );
      expect(validatePattern('00000', type)).toMatch(/\{FY\} or \{FYYYY\}/);
      expect(validatePattern('{PARENT}{FY}{SEQ}', type)).toMatch(/PARENT/);
    }
    // Other types keep their freedom.
    expect(validatePattern('{PREFIX}{SEP}{SEQ:5}', 'receipt')).toBeNull();
  });

  it("number their financial year from April whatever the tenant's", () => {
    expect(fyStartMonthFor('tax-invoice', 1)).toBe(4);
    expect(fyStartMonthFor('refund', 7)).toBe(4);
    expect(fyStartMonthFor('receipt', 1)).toBe(1);
  });

  it('must fit 16 letters, digits, - and / with the counter at its padded width', () => {
    expect(problem('{PREFIX}{SEP}{FY}{SEP}{SEQ:5}')).toBeNull(); // INV/26-27/99999: 15
    expect(problem('{PREFIX}{SEP}{FY}{SEP}{SEQ:5}', 'INVC')).toBeNull(); // 16
    expect(problem('{PREFIX}{SEP}{FY}{SEP}{SEQ:5}', 'INVCE')).toMatch(
      /^INVCE\/26-27\/99999 is 17 characters/,
    );
    expect(problem('{PREFIX}{SEP}{FYYYY}{SEP}{SEQ:6}')).toMatch(/INV\/2026-27\/999999 is 18/);
    // {SEQ} alone pads to one digit: 9.
    expect(problem('{PREFIX}{FYYYY}{SEQ}', 'INVOICE-')).toBeNull();
    expect(problem('{PREFIX}{SEP}{FY}{SEP}{SEQ:5}', 'INV', '.')).toMatch(
      /"\."; GST rules allow only/,
    );
    expect(problem('{PREFIX} {FY}{SEQ:3}')).toMatch(/space/);
    expect(problem('{PREFIX}{SEP}{FY}{SEP}{SEQ:5}', 'IÑV')).toMatch(/"Ñ"/);
  });
});
