/**
 * Document numbering patterns: parsing, validation, rendering and counter keys.
 *
 * Pure functions only (no database, no framework) so the same code serves request validation,
 * the preview endpoint and the allocator that reserves the next number inside a transaction.
 */

import { assertLocalDate, LocalDate } from '@/common/dates/local-date';

export const DOCUMENT_TYPES = [
  'booking',
  'demand',
  'demand-split',
  'receipt',
  'snag',
  'tax-invoice',
  'credit-note',
  'refund',
] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

/**
 * GST documents: their numbers must stay within the GST rules (16 characters of letters, digits,
 * `-` and `/`, unique per financial year), which are refused rather than warned about, and their
 * financial year runs April to March whatever the tenant's own.
 */
export const GST_DOCUMENT_TYPES: readonly DocumentType[] = ['tax-invoice', 'credit-note', 'refund'];
export const GST_FY_START_MONTH = 4;

export function isGstDocumentType(type: DocumentType): boolean {
  return GST_DOCUMENT_TYPES.includes(type);
}

/** The first month of the financial year a document type's {FY} and {FYYYY} render. */
export function fyStartMonthFor(type: DocumentType, tenantFyStartMonth: number): number {
  return isGstDocumentType(type) ? GST_FY_START_MONTH : tenantFyStartMonth;
}

export function isDocumentType(value: unknown): value is DocumentType {
  return typeof value === 'string' && (DOCUMENT_TYPES as readonly string[]).includes(value);
}

/**
 * Types whose documents live elsewhere: only these may be issued a bare number. The others get
 * their number with their document, so their series stay gap-free (docs/api.md).
 */
export const EXTERNAL_DOCUMENT_TYPES: readonly DocumentType[] = ['snag'];

/** Document types whose number may embed the parent document's number. */
export const PARENT_DOCUMENT_TYPES: readonly DocumentType[] = ['demand', 'demand-split'];

export const MAX_PATTERN_LENGTH = 64;
export const MIN_SEQ_WIDTH = 1;
export const MAX_SEQ_WIDTH = 18;
export const DEFAULT_FY_START_MONTH = 4;
export const DEFAULT_SEPARATOR = '/';
export const DEFAULT_PATTERN = '{PREFIX}{SEP}{FY}{SEP}{SEQ:5}';

export interface DocumentNumberingDefaults {
  readonly prefix: string;
  readonly pattern: string;
  readonly starting: number;
}

export interface NumberingDefaults {
  readonly separator: string;
  readonly fyStartMonth: number;
  readonly documents: Readonly<Record<DocumentType, DocumentNumberingDefaults>>;
}

const defaultsFor = (prefix: string): DocumentNumberingDefaults =>
  Object.freeze({ prefix, pattern: DEFAULT_PATTERN, starting: 1 });

export const DEFAULT_NUMBERING: NumberingDefaults = Object.freeze({
  separator: DEFAULT_SEPARATOR,
  fyStartMonth: DEFAULT_FY_START_MONTH,
  documents: Object.freeze({
    booking: defaultsFor('BKG'),
    demand: defaultsFor('DMD'),
    'demand-split': defaultsFor('DSP'),
    receipt: defaultsFor('RCT'),
    snag: defaultsFor('SNG'),
    'tax-invoice': defaultsFor('INV'),
    'credit-note': defaultsFor('CRN'),
    refund: defaultsFor('RFD'),
  }),
});

// ---------------------------------------------------------------------------------------------
// Financial years

export interface FinancialYear {
  readonly startYear: number;
  readonly endYear: number;
  /** `25-26`, or `25` when the financial year is the calendar year. */
  readonly short: string;
  /** `2025-26`, or `2025` when the financial year is the calendar year. */
  readonly long: string;
}

function assertFyStartMonth(fyStartMonth: number): void {
  if (!Number.isInteger(fyStartMonth) || fyStartMonth < 1 || fyStartMonth > 12) {
    throw new RangeError(`fyStartMonth must be an integer from 1 to 12; got ${fyStartMonth}`);
  }
}

export function financialYear(date: LocalDate, fyStartMonth: number): FinancialYear {
  assertLocalDate(date);
  assertFyStartMonth(fyStartMonth);
  const startYear = date.month >= fyStartMonth ? date.year : date.year - 1;
  if (fyStartMonth === 1) {
    return { startYear, endYear: startYear, short: yy(startYear), long: pad(startYear, 4) };
  }
  const endYear = startYear + 1;
  return {
    startYear,
    endYear,
    short: `${yy(startYear)}-${yy(endYear)}`,
    long: `${pad(startYear, 4)}-${yy(endYear)}`,
  };
}

// ---------------------------------------------------------------------------------------------
// Patterns

export type TokenKind = 'PREFIX' | 'SEP' | 'YYYY' | 'YY' | 'MM' | 'DD' | 'FY' | 'FYYYY' | 'PARENT';

const TOKEN_KINDS: readonly TokenKind[] = [
  'PREFIX',
  'SEP',
  'YYYY',
  'YY',
  'MM',
  'DD',
  'FY',
  'FYYYY',
  'PARENT',
];

export type PatternPart =
  | { readonly type: 'literal'; readonly text: string }
  | { readonly type: 'token'; readonly kind: TokenKind }
  /** `{SEQ}` is width 1, i.e. no padding. */
  | { readonly type: 'seq'; readonly width: number };

export interface ParsedPattern {
  /** The pattern as written (the legacy form is kept as written, not expanded). */
  readonly source: string;
  readonly documentType: DocumentType;
  /** True for the legacy `00000` / `#####` form. */
  readonly legacy: boolean;
  readonly parts: readonly PatternPart[];
}

export class PatternError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PatternError';
  }
}

/** The tokens a pattern for `documentType` may use, as written in a pattern. */
export function allowedTokens(documentType: DocumentType): string[] {
  const tokens = [
    '{PREFIX}',
    '{SEP}',
    '{YYYY}',
    '{YY}',
    '{MM}',
    '{DD}',
    '{FY}',
    '{FYYYY}',
    '{SEQ}',
    '{SEQ:n}',
  ];
  if (PARENT_DOCUMENT_TYPES.includes(documentType)) tokens.push('{PARENT}');
  return tokens;
}

const LEGACY_PATTERN = /^[0#]+$/;
const SEQ_WITH_WIDTH = /^SEQ:(.*)$/s;

/** Reads the text between `{` and `}`; returns undefined when it is not a token at all. */
function classifyToken(inner: string): PatternPart | undefined {
  if (inner === 'SEQ') return { type: 'seq', width: MIN_SEQ_WIDTH };
  const seq = SEQ_WITH_WIDTH.exec(inner);
  if (seq) {
    const widthText = seq[1];
    if (!/^\d+$/.test(widthText)) {
      throw new PatternError(
        `{${inner}}: the width after SEQ: must be a number from ${MIN_SEQ_WIDTH} to ${MAX_SEQ_WIDTH}, e.g. {SEQ:5}`,
      );
    }
    const width = Number(widthText);
    if (width < MIN_SEQ_WIDTH || width > MAX_SEQ_WIDTH) {
      throw new PatternError(
        `{${inner}}: the SEQ width must be from ${MIN_SEQ_WIDTH} to ${MAX_SEQ_WIDTH}; got ${widthText}`,
      );
    }
    if (widthText !== String(width)) {
      throw new PatternError(
        `{${inner}}: write the width without leading zeros, e.g. {SEQ:${width}}`,
      );
    }
    return { type: 'seq', width };
  }
  const kind = TOKEN_KINDS.find((k) => k === inner);
  return kind ? { type: 'token', kind } : undefined;
}

function unknownToken(inner: string, documentType: DocumentType): PatternError {
  let hint = '';
  const upper = inner.toUpperCase();
  if (upper !== inner) {
    try {
      if (classifyToken(upper)) hint = `; tokens are upper-case: did you mean {${upper}}?`;
    } catch {
      // The upper-case spelling is not valid either; no hint.
    }
  }
  return new PatternError(
    `unknown token {${inner}}${hint}; allowed tokens: ${allowedTokens(documentType).join(', ')}`,
  );
}

function strayBrace(brace: '{' | '}', index: number, documentType: DocumentType): PatternError {
  const why = brace === '{' ? 'it is not closed by }' : 'no { opens it';
  return new PatternError(
    `stray ${brace} at character ${index + 1} (${why}); braces may only surround a token; ` +
      `allowed tokens: ${allowedTokens(documentType).join(', ')}`,
  );
}

/** Parses a numbering pattern; throws PatternError with a message fit for a 400 response. */
export function parsePattern(pattern: string, documentType: DocumentType): ParsedPattern {
  if (!isDocumentType(documentType)) {
    throw new PatternError(
      `unknown document type ${JSON.stringify(documentType)}; expected one of ${DOCUMENT_TYPES.join(', ')}`,
    );
  }
  if (typeof pattern !== 'string' || pattern.length === 0) {
    throw new PatternError('pattern must not be empty');
  }
  const length = [...pattern].length;
  if (length > MAX_PATTERN_LENGTH) {
    throw new PatternError(
      `pattern is ${length} characters; at most ${MAX_PATTERN_LENGTH} are allowed`,
    );
  }

  if (LEGACY_PATTERN.test(pattern)) {
    if (pattern.length > MAX_SEQ_WIDTH) {
      throw new PatternError(
        `legacy pattern ${pattern} means {SEQ:${pattern.length}}; ` +
          `the SEQ width must be from ${MIN_SEQ_WIDTH} to ${MAX_SEQ_WIDTH}`,
      );
    }
    if (isGstDocumentType(documentType)) throw gstNeedsFinancialYear(documentType);
    return {
      source: pattern,
      documentType,
      legacy: true,
      parts: [
        { type: 'token', kind: 'PREFIX' },
        { type: 'token', kind: 'SEP' },
        { type: 'seq', width: pattern.length },
      ],
    };
  }

  const parts: PatternPart[] = [];
  let literal = '';
  let seqCount = 0;
  let i = 0;
  while (i < pattern.length) {
    const ch = pattern[i];
    if (ch === '}') throw strayBrace('}', i, documentType);
    if (ch !== '{') {
      literal += ch;
      i += 1;
      continue;
    }
    const close = pattern.indexOf('}', i + 1);
    const reopen = pattern.indexOf('{', i + 1);
    if (close === -1 || (reopen !== -1 && reopen < close)) throw strayBrace('{', i, documentType);
    const inner = pattern.slice(i + 1, close);
    const part = classifyToken(inner);
    if (!part) throw unknownToken(inner, documentType);
    if (
      part.type === 'token' &&
      part.kind === 'PARENT' &&
      !PARENT_DOCUMENT_TYPES.includes(documentType)
    ) {
      throw new PatternError(
        `{PARENT} is only allowed in demand and demand-split patterns, not in a ${documentType} pattern`,
      );
    }
    if (part.type === 'seq') seqCount += 1;
    if (literal) parts.push({ type: 'literal', text: literal });
    literal = '';
    parts.push(part);
    i = close + 1;
  }
  if (literal) parts.push({ type: 'literal', text: literal });

  if (seqCount !== 1) {
    throw new PatternError(
      `pattern must contain {SEQ} (or {SEQ:n}) exactly once; found ${seqCount}` +
        (seqCount === 0 ? ' (or use the legacy form, e.g. 00000)' : ''),
    );
  }
  if (
    isGstDocumentType(documentType) &&
    !parts.some((p) => p.type === 'token' && (p.kind === 'FY' || p.kind === 'FYYYY'))
  ) {
    throw gstNeedsFinancialYear(documentType);
  }
  return { source: pattern, documentType, legacy: false, parts };
}

function gstNeedsFinancialYear(documentType: DocumentType): PatternError {
  return new PatternError(
    `a ${documentType} pattern must contain {FY} or {FYYYY}: GST document numbers are unique ` +
      `per financial year, e.g. {PREFIX}{SEP}{FY}{SEP}{SEQ:5}`,
  );
}

/** Null when `pattern` is valid for `documentType`, otherwise the reason. */
export function validatePattern(pattern: string, documentType: DocumentType): string | null {
  try {
    parsePattern(pattern, documentType);
    return null;
  } catch (err) {
    if (err instanceof PatternError) return err.message;
    throw err;
  }
}

export function patternUsesParent(parsed: ParsedPattern): boolean {
  return parsed.parts.some((p) => p.type === 'token' && p.kind === 'PARENT');
}

// ---------------------------------------------------------------------------------------------
// Rendering

export interface RenderContext {
  readonly prefix: string;
  readonly separator: string;
  /** The document's own date in the tenant's time zone (see localDateInZone). */
  readonly date: LocalDate;
  readonly fyStartMonth: number;
  /** The parent document's number; required when the pattern uses {PARENT}. */
  readonly parent?: string;
}

/** What stands in for the sequence in a counter key. */
export const SEQ_MASK = '{SEQ}';

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}

function yy(year: number): string {
  return pad(year % 100, 2);
}

function seqDigits(seq: bigint | number): string {
  if (typeof seq === 'number' && !Number.isSafeInteger(seq)) {
    throw new RangeError(`sequence must be a safe integer (use a bigint beyond that); got ${seq}`);
  }
  if (seq < 0) throw new RangeError(`sequence must not be negative; got ${seq}`);
  return String(seq);
}

function renderWith(
  parsed: ParsedPattern,
  ctx: RenderContext,
  seqText: (width: number) => string,
): string {
  assertLocalDate(ctx.date);
  assertFyStartMonth(ctx.fyStartMonth);
  let fy: FinancialYear | undefined;
  const fiscal = (): FinancialYear => (fy ??= financialYear(ctx.date, ctx.fyStartMonth));

  let out = '';
  for (const part of parsed.parts) {
    if (part.type === 'literal') {
      out += part.text;
    } else if (part.type === 'seq') {
      out += seqText(part.width);
    } else {
      switch (part.kind) {
        case 'PREFIX':
          out += ctx.prefix;
          break;
        case 'SEP':
          out += ctx.separator;
          break;
        case 'YYYY':
          out += pad(ctx.date.year, 4);
          break;
        case 'YY':
          out += yy(ctx.date.year);
          break;
        case 'MM':
          out += pad(ctx.date.month, 2);
          break;
        case 'DD':
          out += pad(ctx.date.day, 2);
          break;
        case 'FY':
          out += fiscal().short;
          break;
        case 'FYYYY':
          out += fiscal().long;
          break;
        case 'PARENT':
          if (!ctx.parent) {
            throw new Error(
              `pattern ${parsed.source} uses {PARENT} but no parent document number was given`,
            );
          }
          out += ctx.parent;
          break;
      }
    }
  }
  return out;
}

/** The document number for sequence `seq`; the sequence is zero-padded, never truncated. */
export function renderNumber(
  parsed: ParsedPattern,
  ctx: RenderContext,
  seq: bigint | number,
): string {
  const digits = seqDigits(seq);
  return renderWith(parsed, ctx, (width) => digits.padStart(width, '0'));
}

/**
 * The key of the counter a number is drawn from: the rendered number with the sequence replaced
 * by `{SEQ}` (whatever its width). Everything else that varies (financial year, date parts,
 * parent, prefix) thus starts a new counter, and a pattern without such parts never restarts.
 */
export function counterKey(parsed: ParsedPattern, ctx: RenderContext): string {
  return renderWith(parsed, ctx, () => SEQ_MASK);
}

// ---------------------------------------------------------------------------------------------
// GST warnings

/** Indian GST: an invoice / receipt number has at most 16 characters... */
export const GST_MAX_LENGTH = 16;
/** ...made of letters, digits, `-` and `/`. */
const GST_ALLOWED_CHAR = /^[A-Za-z0-9/-]$/;
/** The e-invoice schema refuses a number starting with one of these. */
const GST_FORBIDDEN_FIRST = ['0', '/', '-'];

function describeChar(ch: string): string {
  if (ch === ' ') return '" " (space)';
  if (/^\s$/.test(ch)) return `${JSON.stringify(ch)} (whitespace)`;
  return JSON.stringify(ch);
}

/**
 * Warnings (not errors) about a sample number against Indian GST rules, for the preview endpoint.
 * Lengths count characters (code points), as the rules do.
 */
export function numberWarnings(
  parsed: ParsedPattern,
  ctx: RenderContext,
  seq: bigint | number,
): string[] {
  const warnings: string[] = [];
  const sample = renderNumber(parsed, ctx, seq);
  const chars = [...sample];

  if (chars.length > GST_MAX_LENGTH) {
    warnings.push(
      `${sample} is ${chars.length} characters; GST rules allow at most ${GST_MAX_LENGTH}`,
    );
  } else {
    const seqPart = parsed.parts.find((p) => p.type === 'seq');
    const width = seqPart?.type === 'seq' ? seqPart.width : MIN_SEQ_WIDTH;
    const fixedLength = chars.length - Math.max(width, seqDigits(seq).length);
    // The first sequence with one digit more than still fits: 10^(digits that fit).
    const digitsThatFit = GST_MAX_LENGTH - fixedLength;
    const firstTooLong = 10n ** BigInt(digitsThatFit);
    warnings.push(
      `${sample} is ${chars.length} characters; it exceeds the ${GST_MAX_LENGTH} allowed by ` +
        `GST rules from sequence ${firstTooLong}`,
    );
  }

  const bad = [...new Set(chars.filter((ch) => !GST_ALLOWED_CHAR.test(ch)))];
  if (bad.length > 0) {
    warnings.push(
      `${sample} contains ${bad.map(describeChar).join(', ')}; GST rules allow only letters, ` +
        `digits, - and /`,
    );
  }

  if (chars.length > 0 && GST_FORBIDDEN_FIRST.includes(chars[0])) {
    warnings.push(
      `${sample} starts with ${JSON.stringify(chars[0])}; the GST e-invoice schema refuses a ` +
        `number starting with 0, / or -`,
    );
  }
  return warnings;
}

/** The widest number a pattern renders before its counter outgrows the padding: {SEQ:5} -> 99999. */
export function widestNumber(parsed: ParsedPattern, ctx: RenderContext): string {
  const seqPart = parsed.parts.find((p) => p.type === 'seq');
  const width = seqPart?.type === 'seq' ? seqPart.width : MIN_SEQ_WIDTH;
  return renderNumber(parsed, ctx, 10n ** BigInt(width) - 1n);
}

/**
 * Null when a GST document type's pattern, with this prefix and separator, keeps the GST rules
 * up to its padded width; otherwise the reason, fit for a 400. Date tokens render the same
 * length on every date, so any date serves as the sample.
 */
export function gstNumberingProblem(
  parsed: ParsedPattern,
  ctx: Omit<RenderContext, 'fyStartMonth'>,
): string | null {
  const sample = widestNumber(parsed, { ...ctx, fyStartMonth: GST_FY_START_MONTH });
  const chars = [...sample];
  if (chars.length > GST_MAX_LENGTH) {
    return (
      `${sample} is ${chars.length} characters with the counter at its padded width; ` +
      `GST rules allow at most ${GST_MAX_LENGTH} (shorten the prefix, separator or padding)`
    );
  }
  const bad = [...new Set(chars.filter((ch) => !GST_ALLOWED_CHAR.test(ch)))];
  if (bad.length > 0) {
    return (
      `${sample} contains ${bad.map(describeChar).join(', ')}; GST rules allow only letters, ` +
      `digits, - and /`
    );
  }
  return null;
}
